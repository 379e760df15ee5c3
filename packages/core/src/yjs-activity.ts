import * as Y from 'yjs';
import type { z } from 'zod';
import { ActivityEvent, NewActivity } from './schemas/event.js';
import { parseWith } from './validate.js';

/**
 * The activity feed inside a Y.Doc (reference/000), as baton's Yjs bridge
 * (`/yjs/:contextId`) serves it: `doc.getArray('activity')` holds one `Y.Map`
 * per entry, oldest first. Stored entries carry every field of the activity
 * event (`id`, `seq`, `createdAt`, …); an entry a peer has added and the hub
 * has not stored yet has no `seq`. The hub validates it, appends it to the
 * timeline and fills in `seq`, `createdAt`, `actor`; an invalid one disappears.
 */
export const ACTIVITY_ARRAY = 'activity';

/** An entry a peer proposed and the hub has not stored yet. */
export type PendingActivity = z.infer<typeof NewActivity> & { id: string };

/** What `addActivityUpdate` takes: a new activity without `kind` (it is always `activity`). */
export type ActivityProposal = Omit<z.input<typeof NewActivity>, 'kind'> & { kind?: 'activity' };

type Entry = Y.Map<unknown>;

function entries(ydoc: Y.Doc): Entry[] {
  return ydoc
    .getArray<unknown>(ACTIVITY_ARRAY)
    .toArray()
    .filter((item): item is Entry => item instanceof Y.Map);
}

/** The stored activity in the document, oldest first; pending and malformed entries are left out. */
export function getActivityFeed(ydoc: Y.Doc): ActivityEvent[] {
  const feed: ActivityEvent[] = [];
  for (const entry of entries(ydoc)) {
    if (typeof entry.get('seq') !== 'number') continue;
    const parsed = ActivityEvent.safeParse(entry.toJSON());
    if (parsed.success) feed.push(parsed.data);
  }
  return feed;
}

/** Entries peers have added that the hub has not stored yet (optimistic UI). */
export function getPendingActivity(ydoc: Y.Doc): PendingActivity[] {
  const pending: PendingActivity[] = [];
  for (const entry of entries(ydoc)) {
    if (entry.has('seq')) continue;
    const parsed = NewActivity.safeParse({ kind: 'activity', ...entry.toJSON() });
    if (parsed.success && parsed.data.id !== undefined) pending.push({ ...parsed.data, id: parsed.data.id });
  }
  return pending;
}

/**
 * Proposes an activity entry: validates it (throwing a BatonError that names
 * the bad field), gives it an id when it has none, and pushes it as a Y.Map.
 * Once the hub stores it, the same entry gains `seq` and `createdAt`; the id
 * stays, so the app can follow its entry from pending to stored.
 */
export function addActivityUpdate(ydoc: Y.Doc, update: ActivityProposal): PendingActivity {
  const parsed = parseWith(NewActivity, { ...update, kind: 'activity' }, 'activity');
  const entry: PendingActivity = { ...parsed, id: parsed.id ?? randomId() };
  const map = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(entry)) if (value !== undefined) map.set(key, value);
  ydoc.getArray<unknown>(ACTIVITY_ARRAY).push([map]);
  return entry;
}

/**
 * Calls `callback` with the stored feed and the pending entries after every
 * change to the activity array (entries added, removed, or filled in by the
 * hub). Returns the function that stops observing.
 */
export function observeActivity(ydoc: Y.Doc, callback: (feed: ActivityEvent[], pending: PendingActivity[]) => void): () => void {
  const array = ydoc.getArray<unknown>(ACTIVITY_ARRAY);
  const handler = () => callback(getActivityFeed(ydoc), getPendingActivity(ydoc));
  array.observeDeep(handler);
  return () => array.unobserveDeep(handler);
}

/** A UUID from Web Crypto (browsers, Node ≥ 19); core imports no node:* module. */
function randomId(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (crypto?.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}
