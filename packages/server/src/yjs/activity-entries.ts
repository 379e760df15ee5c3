import { type ActivityEvent, BatonError, type Event, NewActivity, zodIssues } from '@baton/core';
import * as Y from 'yjs';

/** One entry of the document's `activity` array. */
export type Entry = Y.Map<unknown>;

/** Fields only the hub assigns; a peer's entry that sets one is rejected. */
const ASSIGNED = ['seq', 'createdAt', 'resolved', 'resolvedBy'] as const;

function sameValue(current: unknown, next: unknown): boolean {
  if (current instanceof Y.AbstractType) return false;
  return JSON.stringify(current) === JSON.stringify(next);
}

/** A new entry holding every field of the event, as the activity schema names them. */
export function newEntry(event: ActivityEvent): Entry {
  const entry = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(event)) entry.set(key, value);
  return entry;
}

/** Makes an entry hold exactly the event's fields (a peer's proposal becoming the stored event, or a repair). */
export function fillEntry(entry: Entry, event: ActivityEvent): void {
  for (const [key, value] of Object.entries(event)) if (!sameValue(entry.get(key), value)) entry.set(key, value);
  for (const key of [...entry.keys()]) if (!(key in event)) entry.delete(key);
}

export function isLive(entry: Entry | undefined, array: Y.Array<unknown>): entry is Entry {
  return entry !== undefined && entry._item !== null && !entry._item.deleted && entry.parent === array;
}

export type Proposal = { ok: true; input: Record<string, unknown> & { id?: string } } | { ok: false; reason: string };

/**
 * Reads a peer's new entry as an event to append: it must be a Y.Map whose
 * fields form a valid new activity (`kind` may be left out), shared, and for
 * this context. The hub validates again when appending; this check only
 * lets the bridge drop a bad entry before anything is written.
 */
export function readProposal(item: unknown, contextId: string): Proposal {
  if (!(item instanceof Y.Map)) return { ok: false, reason: 'an activity entry must be a Y.Map' };
  const json = item.toJSON() as Record<string, unknown>;
  for (const key of ASSIGNED) if (key in json) return { ok: false, reason: `${key}: is assigned by the hub; leave it out` };
  const input = { kind: 'activity', ...json };
  const parsed = NewActivity.safeParse(input);
  if (!parsed.success) return { ok: false, reason: BatonError.invalid(zodIssues(parsed.error), 'activity entry').message };
  if (parsed.data.visibility === 'private') {
    return { ok: false, reason: 'visibility: the Yjs document is shared; private activity cannot be added through it' };
  }
  if (parsed.data.contextId !== undefined && parsed.data.contextId !== contextId) {
    return { ok: false, reason: `contextId: is '${parsed.data.contextId}' but this document is context '${contextId}'` };
  }
  return { ok: true, input };
}

/** For `blocker.resolved` records (hub.resolveBlocker): the blocker and its new state. */
export function resolution(event: ActivityEvent): { target: string; resolvedBy: NonNullable<ActivityEvent['resolvedBy']> } | null {
  const baton = event.metadata.baton;
  if (typeof baton !== 'object' || baton === null || Array.isArray(baton)) return null;
  const { op, target } = baton as Record<string, unknown>;
  if (op !== 'blocker.resolved' || typeof target !== 'string') return null;
  return { target, resolvedBy: { actor: event.actor, eventId: event.id, at: event.createdAt } };
}

export function isSharedActivity(event: Event | undefined): event is ActivityEvent {
  return event !== undefined && event.kind === 'activity' && event.visibility === 'shared';
}

/** The seq of an entry, or Infinity for one not stored yet (it sorts after every stored entry). */
export function entrySeq(value: unknown): number {
  if (!(value instanceof Y.Map)) return Number.POSITIVE_INFINITY;
  const seq = value.get('seq');
  return typeof seq === 'number' ? seq : Number.POSITIVE_INFINITY;
}
