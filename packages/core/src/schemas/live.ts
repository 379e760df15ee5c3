import { z } from 'zod';
import type { Event } from './event.js';
import { ActivityType, EventKind, NoteScope, NoteType, Urgency, urgencyRank } from './event.js';
import { Id, Name } from './primitives.js';

/**
 * What a live subscriber (WebSocket feed, push/pull subscription, `baton tail`)
 * wants to receive. Every field narrows; an empty filter matches everything
 * the subscriber may see.
 */
export const LiveFilter = z.strictObject({
  contextIds: z.array(Id).max(1000).optional(),
  kinds: z.array(EventKind).optional(),
  /** Narrows activities to these types (other kinds pass; combine with `kinds`). */
  activityTypes: z.array(ActivityType).optional(),
  noteTypes: z.array(NoteType).optional(),
  /** Notes below this urgency are left out (other kinds pass). */
  minUrgency: Urgency.optional(),
  /** Notes outside these scopes are left out (other kinds pass). */
  scopes: z.array(NoteScope).optional(),
  /** Events carrying at least one of these tags (notes' tags). */
  tags: z.array(Name).max(100).optional(),
  /** Events written by actors of these runtimes. */
  runtimes: z.array(Name).max(100).optional(),
  /** Events written by these actor ids. */
  actors: z.array(Name).max(100).optional(),
});
export type LiveFilter = z.infer<typeof LiveFilter>;

export function matchesFilter(filter: LiveFilter, event: Event): boolean {
  if (filter.contextIds && !filter.contextIds.includes(event.contextId)) return false;
  if (filter.kinds && !filter.kinds.includes(event.kind)) return false;
  // Type filters narrow their own kind only; combine with `kinds` to exclude the others.
  if (filter.activityTypes && event.kind === 'activity' && !filter.activityTypes.includes(event.activityType)) return false;
  if (filter.noteTypes && event.kind === 'note' && !filter.noteTypes.includes(event.noteType)) return false;
  if (event.kind === 'note') {
    if (filter.minUrgency && urgencyRank(event.urgency) < urgencyRank(filter.minUrgency)) return false;
    if (filter.scopes && !filter.scopes.includes(event.scope)) return false;
  }
  if (filter.tags) {
    const tags = event.kind === 'note' ? event.tags : [];
    if (!tags.some((t) => filter.tags?.includes(t))) return false;
  }
  if (filter.runtimes && (event.actor.runtime === null || !filter.runtimes.includes(event.actor.runtime))) return false;
  if (filter.actors && !filter.actors.includes(event.actor.id)) return false;
  return true;
}

/** Client → server messages on /api/v1/live. */
export const LiveClientMessage = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('subscribe'),
    /** The client's name for this subscription; echoed on every message for it. */
    id: z.string().min(1).max(128),
    filter: LiveFilter.default({}),
    /** Deliver events after this seq first (the backlog); omitted: only events from now on. */
    since: z.number().int().nonnegative().optional(),
  }),
  z.strictObject({ type: z.literal('unsubscribe'), id: z.string().min(1).max(128) }),
]);
export type LiveClientMessage = z.infer<typeof LiveClientMessage>;

/** Server → client messages on /api/v1/live. */
export type LiveServerMessage =
  | { type: 'subscribed'; id: string; head: number }
  | { type: 'event'; sub: string; event: Event }
  | { type: 'caught_up'; sub: string; seq: number }
  /** The subscriber fell behind; the subscription ended. Subscribe again with `since: after`. */
  | { type: 'resync'; sub: string; after: number; reason: string }
  | { type: 'unsubscribed'; id: string }
  | { type: 'heartbeat'; head: number }
  | { type: 'error'; id?: string; error: { code: string; message: string; details: Record<string, unknown> } };

/**
 * WebSocket close codes of the live feed (4000–4999 are the application's).
 * Documented in the README; produced only by live/close-codes.ts.
 */
export const LIVE_CLOSE_CODES = {
  normal: 1000,
  goingAway: 1001,
  unauthenticated: 4401,
  forbidden: 4403,
  heartbeatTimeout: 4408,
  tooSlow: 4429,
  internal: 4500,
} as const;
