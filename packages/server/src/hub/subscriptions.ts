import { randomBytes } from 'node:crypto';
import {
  BatonError,
  type ContextSubscription,
  type CreatedContextSubscription,
  type Event,
  type LiveFilter,
  matchesFilter,
  NewContextSubscription,
  parseWith,
  SubscriptionAck,
  type SubscriptionEventPage,
  SubscriptionEventsQuery,
} from '@baton/core';
import type { StoredSubscription } from '../store/store.js';
import { authorize, type Caller, viewerKey } from './caller.js';
import type { Hub } from './hub.js';
import { newId } from './ids.js';

/**
 * Context subscriptions (reference/002): the registry behind
 * /api/v1/subscriptions. A subscription belongs to the runtime that
 * registered it (its privacy key): only that runtime sees, pulls, acknowledges
 * or deletes it, and only that runtime's private events reach it. Push
 * delivery itself is the PushDispatcher's (subscriptions/push-dispatcher.ts).
 */

/** Events a pull request reads at most before answering (a narrow filter must not scan the whole log). */
const PULL_SCAN_LIMIT = 5000;
const PULL_PAGE = 500;
const MAX_PER_OWNER = 1000;

const listeners = new WeakMap<Hub, Set<() => void>>();

/** Called after a subscription is created or deleted on this instance (the dispatcher claims new ones at once). */
export function onSubscriptionsChanged(hub: Hub, listener: () => void): () => void {
  let set = listeners.get(hub);
  if (!set) {
    set = new Set();
    listeners.set(hub, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

function changed(hub: Hub): void {
  for (const listener of listeners.get(hub) ?? []) listener();
}

export async function createSubscription(hub: Hub, input: unknown, caller: Caller, now = Date.now()): Promise<CreatedContextSubscription> {
  const data = parseWith(NewContextSubscription, input, 'subscription');
  // A push subscription makes the server send requests on the caller's behalf: it needs write.
  authorize(caller, data.deliveryMode === 'push' ? 'write' : 'read');
  for (const contextId of data.filter.contextIds ?? []) authorize(caller, 'read', contextId);
  const ownerKey = viewerKey(caller);
  const id = data.id ?? newId();
  if (await hub.store.getSubscription(id)) {
    throw new BatonError('conflict', `subscription '${id}' already exists`, { details: { id } });
  }
  if ((await hub.store.listSubscriptions({ ownerKey, limit: MAX_PER_OWNER })).length >= MAX_PER_OWNER) {
    throw BatonError.invalid([{ path: 'id', message: `a runtime may hold at most ${MAX_PER_OWNER} subscriptions` }], 'subscription');
  }
  const stored: StoredSubscription = {
    id,
    owner: caller.actor,
    ownerKey,
    filter: scoped(data.filter, caller),
    deliveryMode: data.deliveryMode,
    endpoint: data.endpoint ?? null,
    secret: data.deliveryMode === 'push' ? (data.secret ?? randomBytes(32).toString('hex')) : null,
    cursor: data.since ?? (await headSeq(hub)),
    failures: 0,
    lastError: null,
    lastDeliveredAt: null,
    retryAt: null,
    leaseOwner: null,
    leaseUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  await hub.store.write((tx) => tx.insertSubscription(stored));
  changed(hub);
  return { ...toApi(stored), secret: stored.secret };
}

export async function getSubscription(hub: Hub, id: string, caller: Caller): Promise<ContextSubscription> {
  return toApi(await load(hub, id, caller));
}

export async function listSubscriptions(hub: Hub, caller: Caller): Promise<{ subscriptions: ContextSubscription[] }> {
  authorize(caller, 'read');
  const rows = await hub.store.listSubscriptions({ ownerKey: viewerKey(caller), limit: MAX_PER_OWNER });
  return { subscriptions: rows.map(toApi) };
}

export async function deleteSubscription(hub: Hub, id: string, caller: Caller): Promise<{ deleted: true }> {
  const current = await load(hub, id, caller);
  authorize(caller, current.deliveryMode === 'push' ? 'write' : 'read');
  await hub.store.write((tx) => tx.deleteSubscription(id));
  changed(hub);
  return { deleted: true };
}

/** Pull mode: the matching events after `after` (default: the acknowledged cursor), in seq order. */
export async function pullSubscriptionEvents(hub: Hub, id: string, query: unknown, caller: Caller): Promise<SubscriptionEventPage> {
  const subscription = await load(hub, id, caller);
  const q = parseWith(SubscriptionEventsQuery, query, 'query');
  const { filter } = subscription;
  const events: Event[] = [];
  let cursor = q.after ?? subscription.cursor;
  let scanned = 0;
  let hasMore = true;
  while (events.length < q.limit && scanned < PULL_SCAN_LIMIT) {
    const page = await hub.store.listEvents({
      ...(filter.contextIds ? { contextIds: filter.contextIds } : {}),
      ...(filter.kinds ? { kinds: filter.kinds } : {}),
      viewerKey: subscription.ownerKey,
      afterSeq: cursor,
      order: 'asc',
      limit: PULL_PAGE,
    });
    let taken = 0;
    for (const event of page) {
      taken += 1;
      cursor = event.seq;
      if (matchesFilter(filter, event)) events.push(event);
      if (events.length === q.limit) break;
    }
    scanned += taken;
    if (page.length < PULL_PAGE && taken === page.length) {
      hasMore = false;
      break;
    }
  }
  return { events, nextAfter: cursor, hasMore, cursor: subscription.cursor };
}

/** Pull mode: everything up to `seq` is handled; the cursor never moves back. */
export async function ackSubscription(hub: Hub, id: string, input: unknown, caller: Caller, now = Date.now()) {
  const subscription = await load(hub, id, caller);
  if (subscription.deliveryMode === 'push') {
    throw BatonError.invalid([{ path: 'id', message: 'a push subscription advances as its deliveries succeed; ack is for pull' }], 'ack');
  }
  const { seq } = parseWith(SubscriptionAck, input, 'ack');
  const head = await headSeq(hub);
  if (seq > head) throw BatonError.invalid([{ path: 'seq', message: `is beyond the newest event (seq ${head})` }], 'ack');
  const updated = await hub.store.write((tx) => tx.advanceSubscription(id, seq, now, false));
  if (!updated) throw BatonError.notFound('subscription', id);
  return toApi(updated);
}

// ── for the push dispatcher (the system, not a caller) ─────────────────────

export function claimPushSubscriptions(hub: Hub, owner: string, leaseMs: number, now = Date.now()): Promise<StoredSubscription[]> {
  return hub.store.write((tx) => tx.claimSubscriptions(owner, now, now + leaseMs));
}

export function releasePushSubscriptions(hub: Hub, owner: string): Promise<void> {
  return hub.store.write((tx) => tx.releaseSubscriptions(owner));
}

export async function recordDelivery(hub: Hub, id: string, seq: number, now = Date.now()): Promise<void> {
  await hub.store.write((tx) => tx.advanceSubscription(id, seq, now, true));
}

export async function recordDeliveryFailure(hub: Hub, id: string, error: string, retryAt: number, now = Date.now()): Promise<void> {
  await hub.store.write((tx) => tx.recordSubscriptionFailure(id, error, now, retryAt));
}

// ── helpers ────────────────────────────────────────────────────────────────

async function load(hub: Hub, id: string, caller: Caller): Promise<StoredSubscription> {
  authorize(caller, 'read');
  const subscription = await hub.store.getSubscription(id);
  // Another runtime's subscription is reported as missing: its existence is not the caller's business.
  if (!subscription || subscription.ownerKey !== viewerKey(caller)) throw BatonError.notFound('subscription', id);
  return subscription;
}

/** A token limited to some contexts subscribes to those contexts only. */
function scoped(filter: LiveFilter, caller: Caller): LiveFilter {
  return caller.contextIds && !filter.contextIds ? { ...filter, contextIds: [...caller.contextIds] } : filter;
}

async function headSeq(hub: Hub): Promise<number> {
  const [newest] = await hub.store.listEvents({ viewerKey: null, order: 'desc', limit: 1 });
  return newest?.seq ?? 0;
}

export function toApi(s: StoredSubscription): ContextSubscription {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: s.id,
    owner: s.owner,
    filter: s.filter,
    deliveryMode: s.deliveryMode,
    endpoint: s.endpoint,
    cursor: s.cursor,
    status: s.failures > 0 ? 'failing' : 'active',
    failures: s.failures,
    lastError: s.lastError,
    lastDeliveredAt: iso(s.lastDeliveredAt),
    retryAt: iso(s.retryAt),
    createdAt: new Date(s.createdAt).toISOString(),
    updatedAt: new Date(s.updatedAt).toISOString(),
  };
}
