import {
  ActivityType,
  CONTEXT_FORMATS,
  EventKind,
  Id,
  Name,
  NoteType,
  SearchMode,
  SearchResult,
  SharedContextResponse,
  Timestamp,
  TurnEvent,
} from '@baton/core';
import { z } from 'zod';
import { ActivityEventOut, NoteEventOut } from './output-schemas.js';
import { contextOf, tool } from './tool-kit.js';

/**
 * Handoff tools (issue 6): `context_search` over every context the session
 * may read, and `shared_context`, the token-budgeted catch-up a starting
 * agent reads first.
 */
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const EventOut = z.discriminatedUnion('kind', [
  TurnEvent.extend({ content: ActivityEventOut.shape.content }),
  ActivityEventOut,
  NoteEventOut,
]);

export const ContextSearchInput = z.strictObject({
  query: z.string().min(1).max(1_000).describe('Words that must all occur (any language); "quoted words" must occur in this order'),
  contextId: Id.optional().describe('Only this context; every context you may read when left out'),
  kind: z.array(EventKind).min(1).optional().describe('Only these kinds: turn, activity, note'),
  type: z
    .array(z.union([ActivityType, NoteType]))
    .min(1)
    .optional()
    .describe('Only these activity or note types'),
  actor: z.array(Name).min(1).optional().describe('Only events by these actor ids'),
  phase: z.array(Name).min(1).optional().describe('Only turns in these phases'),
  since: Timestamp.optional().describe('Only events at or after this time (ISO 8601)'),
  until: Timestamp.optional().describe('Only events before this time (ISO 8601)'),
  limit: z.number().int().min(1).max(100).optional().describe('At most this many hits (default 20)'),
  mode: SearchMode.optional().describe(
    'text: every word must occur. semantic: related meaning, no shared words needed. hybrid: both, fused. Default: hybrid when the hub has embeddings, else text (semantic and hybrid need them)',
  ),
});

export const ContextSearchOutput = SearchResult.extend({
  hits: z.array(SearchResult.shape.hits.element.extend({ event: EventOut })),
});

export const contextSearch = tool({
  title: 'Search the timeline',
  description:
    'Search what every agent and human wrote (turns, activity, notes), in any language including Chinese, Japanese and Arabic: full text, and on a hub with embeddings also by meaning (mode hybrid, its default there, or semantic). Hits are ranked best first, each with a score and a snippet where matched words are wrapped in « ».',
  input: ContextSearchInput,
  output: ContextSearchOutput,
  annotations: READ,
  async run(args, session) {
    const csv = (values: readonly string[] | undefined) => (values ? values.join(',') : undefined);
    const query = {
      q: args.query,
      context: args.contextId,
      kind: csv(args.kind),
      type: csv(args.type),
      actor: csv(args.actor),
      phase: csv(args.phase),
      since: args.since,
      until: args.until,
      limit: args.limit,
      mode: args.mode,
    };
    const defined = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as typeof query & { q: string };
    const result = await session.backend().search(defined);
    const lines = result.hits.map(
      (h, i) =>
        `${i + 1}. [${h.event.contextId} #${h.event.seq} ${h.event.kind}, ${h.event.actor.id}, score ${h.score.toFixed(3)}] ${h.snippet}`,
    );
    const notes = [
      result.index.complete ? '' : ` (index catching up: ${result.index.indexedSeq}/${result.index.headSeq} events)`,
      result.semantic.status === 'unavailable'
        ? ` (semantic search unavailable, full text only: ${result.semantic.reason ?? 'provider failed'})`
        : '',
      result.semantic.status === 'used' && result.semantic.index && !result.semantic.index.complete ? ' (embeddings catching up)' : '',
    ].join('');
    const head = `${result.hits.length} hit${result.hits.length === 1 ? '' : 's'} for ${JSON.stringify(args.query)}${result.mode === 'text' ? '' : ` (${result.mode})`}${notes}`;
    return { structured: result, text: [head, ...lines].join('\n') };
  },
});

export const SharedContextInput = z.strictObject({
  contextId: Id.optional().describe("The context; defaults to the session's context"),
  tokenBudget: z.number().int().min(0).max(200_000).optional().describe('Most tokens the answer may take (o200k_base; default 4000)'),
  format: z.enum(CONTEXT_FORMATS).optional().describe("Rendering; defaults to your runtime's (markdown for coding agents)"),
});

export const sharedContext = tool({
  title: 'Shared context',
  description:
    'Call this first when you start on a context: what the agents before you knew, ranked and cut to your token budget — open blockers, recent decisions with their reasoning, active tasks, identity and preferences, current focus, recent activity. Expired notes and other runtimes’ private items are never included.',
  input: SharedContextInput,
  output: SharedContextResponse,
  annotations: READ,
  async run(args, session) {
    const result = await session.backend().sharedContext(contextOf(session, args.contextId), {
      ...(args.tokenBudget !== undefined ? { tokenBudget: args.tokenBudget } : {}),
      ...(args.format ? { format: args.format } : {}),
    });
    return { structured: result, text: result.rendering };
  },
});
