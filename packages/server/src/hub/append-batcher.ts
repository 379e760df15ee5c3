import { BatonError, type Event } from '@baton/core';
import type { PreparedEvent } from '../store/rows.js';
import type { Store, StoreWriter } from '../store/store.js';
import { identity, type Prepared, sameEvent } from './prepare-event.js';

/** One append request: validated events for one context, stored all together or not at all. */
export interface AppendRequest {
  contextId: string;
  prepared: readonly Prepared[];
}

export interface AppendResult {
  events: Event[];
  /** Per event: false when an identical event with that id was already stored (a retry). */
  created: boolean[];
}

type Outcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

interface Waiting {
  request: AppendRequest;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** A group stops growing at this many events (a single larger request still goes alone). */
const GROUP_EVENTS = 4000;

/**
 * Group commit. Appends that arrive in the same turn of the event loop, or
 * while the previous group is committing, share one transaction: one
 * counter bump, one insert pass and one commit (one WAL write) for all of
 * them, where a transaction each would pay all three per request.
 *
 * Each request keeps its own outcome. Its checks (context, tasks, ids) run
 * against the group's view, in arrival order, so a later request sees an
 * earlier one's events exactly as if it had committed first; a request that
 * fails them contributes no row and gets its own error while the rest
 * commit. Should the shared transaction fail anyway, each request is retried
 * alone, so only the one at fault fails.
 */
export class AppendBatcher {
  readonly #store: Store;
  readonly #now: () => number;
  readonly #queue: Waiting[] = [];
  #draining = false;

  constructor(store: Store, now: () => number) {
    this.#store = store;
    this.#now = now;
  }

  append(request: AppendRequest): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      if (this.#draining) return;
      this.#draining = true;
      // Let the requests already read from sockets in this turn join the group.
      setImmediate(() => void this.#drain());
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) await this.#commit(this.#takeGroup());
    } finally {
      this.#draining = false;
    }
  }

  #takeGroup(): Waiting[] {
    let events = 0;
    let count = 0;
    for (const waiting of this.#queue) {
      events += waiting.request.prepared.length;
      if (count > 0 && events > GROUP_EVENTS) break;
      count += 1;
    }
    return this.#queue.splice(0, count);
  }

  async #commit(group: readonly Waiting[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.#store.write((tx) =>
        appendGroup(
          tx,
          group.map((w) => w.request),
          this.#now(),
        ),
      );
    } catch (error) {
      if (group.length === 1) {
        group[0]?.reject(error);
        return;
      }
      // Something in one request's rows broke the shared transaction: isolate it.
      for (const waiting of group) await this.#commit([waiting]);
      return;
    }
    outcomes.forEach((outcome, i) => {
      const waiting = group[i] as Waiting;
      if (outcome.ok) waiting.resolve(outcome.result);
      else waiting.reject(outcome.error);
    });
  }
}

/** Where an event of a request's result comes from. */
type Slot = { stored: Event } | { fresh: number; created: boolean };

/**
 * Checks every request of a group and appends the events of those that pass
 * in one call, in arrival order. Reads happen once per group; the only write
 * is the final append, so a rejected request has written nothing.
 */
export async function appendGroup(tx: StoreWriter, requests: readonly AppendRequest[], now: number): Promise<Outcome[]> {
  const contexts = new Map<string, boolean>();
  for (const { contextId } of requests) {
    if (!contexts.has(contextId)) contexts.set(contextId, (await tx.getContext(contextId)) !== undefined);
  }
  const taskContexts = new Map<string, string | null>();
  for (const { prepared } of requests) {
    for (const { event } of prepared) {
      if (event.taskId === null || taskContexts.has(event.taskId)) continue;
      taskContexts.set(event.taskId, (await tx.getTask(event.taskId))?.contextId ?? null);
    }
  }
  const writerIds = new Set<string>();
  for (const { prepared } of requests) for (const p of prepared) if (p.writerId) writerIds.add(p.event.id);
  const stored = await tx.findEvents([...writerIds]);

  const fresh: PreparedEvent[] = [];
  /** Events accepted earlier in this group, by id: later requests treat them as stored. */
  const accepted = new Map<string, number>();
  const plans: (Slot[] | { error: unknown })[] = requests.map((request) => {
    try {
      return plan(request);
    } catch (error) {
      return { error };
    }
  });

  function plan({ contextId, prepared }: AppendRequest): Slot[] {
    if (!contexts.get(contextId)) throw BatonError.notFound('context', contextId);
    for (const { event } of prepared) {
      if (event.taskId !== null && taskContexts.get(event.taskId) !== contextId) {
        throw BatonError.notFound(`task in context '${contextId}'`, event.taskId);
      }
    }
    const slots: Slot[] = [];
    const mine: PreparedEvent[] = [];
    const firstOfId = new Map<string, { p: Prepared; index: number }>();
    for (const p of prepared) {
      const existing = stored.get(p.event.id);
      if (existing) {
        if (!sameEvent(existing, p)) throw idConflict(p.event.id);
        slots.push({ stored: existing });
        continue;
      }
      const earlierInGroup = accepted.get(p.event.id);
      if (earlierInGroup !== undefined) {
        const earlier = fresh[earlierInGroup] as PreparedEvent;
        if (identity(earlier, p.relativeExpiry) !== identity(p.event, p.relativeExpiry)) throw idConflict(p.event.id);
        slots.push({ fresh: earlierInGroup, created: false });
        continue;
      }
      // Within a request too, a repeated id must repeat the same event.
      const earlier = firstOfId.get(p.event.id);
      if (earlier) {
        if (JSON.stringify(earlier.p.event) !== JSON.stringify(p.event)) throw idConflict(p.event.id);
        slots.push({ fresh: earlier.index, created: false });
        continue;
      }
      const index = fresh.length + mine.length;
      firstOfId.set(p.event.id, { p, index });
      slots.push({ fresh: index, created: true });
      mine.push(p.event);
    }
    // Only a request that passed every check contributes rows.
    for (const event of mine) {
      accepted.set(event.id, fresh.length);
      fresh.push(event);
    }
    return slots;
  }

  const appended = await tx.appendEvents(fresh, now);
  return plans.map((slots): Outcome => {
    if (!Array.isArray(slots)) return { ok: false, error: slots.error };
    const events: Event[] = [];
    const created: boolean[] = [];
    for (const slot of slots) {
      if ('stored' in slot) {
        events.push(slot.stored);
        created.push(false);
      } else {
        events.push(appended[slot.fresh] as Event);
        created.push(slot.created);
      }
    }
    return { ok: true, result: { events, created } };
  });
}

function idConflict(id: string): BatonError {
  return new BatonError('conflict', `an event with id '${id}' already exists with a different body; use a new id`, { details: { id } });
}
