import {
  ConsumeInput,
  Event,
  EventPage,
  EventQuery,
  Id,
  MAX_BATCH,
  NewEvent,
  NewEventBatch,
  parseWith,
  ResolveInput,
  Seq,
} from '@baton/core';
import { z } from 'zod';
import { type RouteSpec, withStatus } from '../route.js';

const AppendBody = z.union([NewEvent, NewEventBatch]);
/** With `Prefer: return=minimal` (RFC 7240): what was stored is named, not repeated. */
const Stored = z.object({ id: Id, seq: Seq });
const AppendResponse = z.union([
  Event,
  z.object({ events: z.array(Event), created: z.array(z.boolean()) }),
  Stored,
  z.object({ events: z.array(Stored), created: z.array(z.boolean()) }),
]);
/** The batch's shape; each event is validated by the hub, which names failures by index. */
const BatchEnvelope = z.strictObject({ events: z.array(z.unknown()).min(1).max(MAX_BATCH) });
const ProjectionResult = z.object({ target: Event, record: Event });

function isBatch(body: unknown): body is { events: unknown } {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'events' in body && !('kind' in body);
}

export const eventRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/contexts/:id/events',
    operationId: 'appendEvents',
    summary:
      'Append one event, or a batch `{ "events": [...] }` of up to 1,000 in one transaction. ' +
      'With `Prefer: return=minimal` the reply names each stored event by id and seq instead of repeating it.',
    tag: 'events',
    body: AppendBody,
    response: AppendResponse,
    status: 201,
    idempotentRetry: true,
    handler: async ({ hub, caller, params, body, c }) => {
      const contextId = params.id as string;
      const minimal = /(^|[,;\s])return=minimal($|[,;\s])/.test(c.req.header('prefer') ?? '');
      if (minimal) c.header('Preference-Applied', 'return=minimal');
      if (isBatch(body)) {
        const { events } = parseWith(BatchEnvelope, body, 'body');
        const result = await hub.appendEvents(contextId, events, caller);
        const json = minimal ? { events: result.events.map(({ id, seq }) => ({ id, seq })), created: result.created } : result;
        return withStatus(result.created.some(Boolean) ? 201 : 200, json);
      }
      const { event, created } = await hub.appendEvent(contextId, body, caller);
      return withStatus(created ? 201 : 200, minimal ? { id: event.id, seq: event.seq } : event);
    },
  },
  {
    method: 'get',
    path: '/contexts/:id/events',
    operationId: 'listEvents',
    summary: 'List a context’s events in seq order, filtered and paginated (`after` cursor, or `tail=N`)',
    tag: 'events',
    query: EventQuery,
    response: EventPage,
    handler: ({ hub, caller, params, query }) => hub.listEvents(params.id as string, query, caller),
  },
  {
    method: 'get',
    path: '/events/:id',
    operationId: 'getEvent',
    summary: 'Get one event',
    tag: 'events',
    response: Event,
    handler: ({ hub, caller, params }) => hub.getEvent(params.id as string, caller),
  },
  {
    method: 'post',
    path: '/events/:id/resolve',
    operationId: 'resolveBlocker',
    summary: 'Resolve a blocker; the resolution is recorded as an event',
    tag: 'events',
    body: ResolveInput,
    bodyOptional: true,
    response: ProjectionResult,
    handler: ({ hub, caller, params, body }) => hub.resolveBlocker(params.id as string, parseWith(ResolveInput, body, 'body'), caller),
  },
  {
    method: 'post',
    path: '/events/:id/consume',
    operationId: 'consumeNote',
    summary: 'Mark a note consumed; recorded as an event',
    tag: 'events',
    body: ConsumeInput,
    bodyOptional: true,
    response: ProjectionResult,
    handler: ({ hub, caller, params, body }) => hub.consumeNote(params.id as string, parseWith(ConsumeInput, body, 'body'), caller),
  },
];
