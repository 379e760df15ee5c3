import { type ActivityEvent, Actor, type Event } from '@baton/core';
import * as Y from 'yjs';
import { type Caller, localCaller } from '../hub/caller.js';
import { type Entry, entrySeq, fillEntry, isLive, isSharedActivity, newEntry, readProposal, resolution } from './activity-entries.js';

/** A peer's entry the bridge accepted: it is appended to the log after the document change is stored. */
export interface Accepted {
  id: string;
  entry: Entry;
  input: Record<string, unknown>;
  caller: Caller;
}

/**
 * Keeps a document's `activity` array a projection of the log (DESIGN §3):
 * one entry per event, keyed by event id, the newest `window` of them.
 *
 * Every change the server makes happens in `apply`, inside one transaction
 * that the caller runs while holding the document's store lock and after
 * reading every stored update; so whichever instance projects an event
 * first, the others find its entry by id and never add a second one.
 *
 * What peers do is recorded by `observe` and settled in the next `apply`:
 * a new entry is a proposal (validated, given an id, appended after the
 * change is stored); an edit or removal of a stored entry is undone.
 */
export class ActivityMirror {
  /** Event id → its entry: rebuilt from the array on every apply. */
  readonly #index = new Map<string, Entry>();
  /** Entries holding an event (stored or accepted), so a peer's edit of one can be undone. */
  readonly #owned = new WeakMap<Entry, string>();
  readonly #proposals = new Map<Entry, Caller>();
  readonly #rejected = new Set<Entry>();
  readonly #repairs = new Set<string>();
  #junk = false;

  constructor(
    readonly array: Y.Array<unknown>,
    private readonly contextId: string,
    private readonly window: number,
    private readonly newId: () => string,
    private readonly onReject: (reason: string, entry: unknown) => void,
  ) {}

  /** Records what a peer changed (`peer` null: changes read from the store, already settled). */
  observe(events: readonly Y.YEvent<Y.AbstractType<unknown>>[], peer: Caller | null): void {
    if (!peer) return;
    for (const event of events) {
      if (event.target === this.array) {
        for (const item of event.changes.added) {
          for (const value of item.content.getContent()) {
            if (value instanceof Y.Map) this.#proposals.set(value as Entry, peer);
            else this.#junk = true;
          }
        }
        for (const item of event.changes.deleted) {
          for (const value of item.content.getContent()) {
            const id = value instanceof Y.Map ? this.#owned.get(value as Entry) : undefined;
            if (id) this.#repairs.add(id);
          }
        }
        continue;
      }
      let target: Y.AbstractType<unknown> | null = event.target;
      while (target && target.parent !== this.array) target = target.parent;
      const id = target instanceof Y.Map ? this.#owned.get(target as Entry) : undefined;
      if (id) this.#repairs.add(id);
    }
  }

  get hasWork(): boolean {
    return this.#proposals.size > 0 || this.#rejected.size > 0 || this.#repairs.size > 0 || this.#junk;
  }

  /** The events whose entries must be restored (the caller reads them before `apply`). */
  takeRepairs(): string[] {
    const ids = [...this.#repairs];
    this.#repairs.clear();
    return ids;
  }

  /** Restore (or fill in) this event's entry at the next apply. */
  repair(id: string): void {
    this.#repairs.add(id);
  }

  /** Remove this accepted entry at the next apply: the hub refused it. */
  reject(entry: Entry): void {
    this.#rejected.add(entry);
  }

  /**
   * Settles proposals, projects `events` (shared activity after the stored
   * projection point, oldest first), restores repaired entries and trims the
   * window. Call inside one document transaction.
   */
  apply(events: readonly ActivityEvent[], repairIds: readonly string[], repaired: ReadonlyMap<string, Event>): Accepted[] {
    const accepted = this.#settle();
    this.#project(events);
    for (const id of repairIds) this.#restore(id, repaired.get(id));
    const excess = this.array.length - this.window;
    if (excess > 0) this.array.delete(0, excess);
    return accepted;
  }

  /**
   * After loading a stored document: entries accepted but perhaps never
   * appended (the instance stopped in between) are appended again, which is
   * idempotent by id; anything else without a seq is removed.
   */
  recover(): Accepted[] {
    const found: Accepted[] = [];
    for (const value of this.array) {
      if (!(value instanceof Y.Map) || value.has('seq')) continue;
      const entry = value as Entry;
      const id = entry.get('id');
      const actor = Actor.safeParse(entry.get('actor'));
      const proposal = readProposal(entry, this.contextId);
      if (typeof id === 'string' && actor.success && proposal.ok)
        found.push({ id, entry, input: proposal.input, caller: localCaller(actor.data) });
      else this.#rejected.add(entry);
    }
    return found;
  }

  #settle(): Accepted[] {
    const values = this.array.toArray();
    const doomed: number[] = [];
    this.#index.clear();
    values.forEach((value, i) => {
      if (!(value instanceof Y.Map) || this.#rejected.has(value as Entry)) doomed.push(i);
      else if (!this.#proposals.has(value as Entry)) {
        const id = value.get('id');
        if (typeof id === 'string') {
          this.#index.set(id, value as Entry);
          this.#owned.set(value as Entry, id);
        }
      }
    });
    const accepted: Accepted[] = [];
    values.forEach((value, i) => {
      const caller = value instanceof Y.Map ? this.#proposals.get(value as Entry) : undefined;
      if (!caller) return;
      const entry = value as Entry;
      const proposal = readProposal(entry, this.contextId);
      const id = proposal.ok ? (proposal.input.id ?? this.newId()) : '';
      if (!proposal.ok || this.#index.has(id)) {
        this.onReject(proposal.ok ? `id: an entry with id '${id}' is already in the document` : proposal.reason, entry.toJSON());
        doomed.push(i);
        return;
      }
      if (proposal.input.id === undefined) entry.set('id', id);
      if (proposal.input.actor === undefined) entry.set('actor', caller.actor);
      this.#index.set(id, entry);
      this.#owned.set(entry, id);
      accepted.push({ id, entry, input: { ...proposal.input, id, actor: entry.get('actor') }, caller });
    });
    if (this.#junk) this.onReject('an activity entry must be a Y.Map', null);
    this.#proposals.clear();
    this.#rejected.clear();
    this.#junk = false;
    for (const i of doomed.sort((a, b) => b - a)) this.array.delete(i, 1);
    return accepted;
  }

  /**
   * Adds entries for events not in the document yet (all in one push: each
   * push walks the array to its end) and fills in peers' accepted entries.
   */
  #project(events: readonly ActivityEvent[]): void {
    const fresh = new Set<Entry>();
    for (const event of events) {
      const existing = this.#index.get(event.id);
      if (isLive(existing, this.array)) {
        // A peer's accepted entry becomes the stored event; one already stored is left alone.
        if (!existing.has('seq')) fillEntry(existing, event);
      } else {
        const entry = newEntry(event);
        fresh.add(entry);
        this.#index.set(event.id, entry);
        this.#owned.set(entry, event.id);
      }
      const resolved = resolution(event);
      const target = resolved ? this.#index.get(resolved.target) : undefined;
      // A blocker added in this same batch is not in the array yet; setting a field of its new entry works all the same.
      if (resolved && target && (fresh.has(target) || (isLive(target, this.array) && target.get('resolved') !== true))) {
        target.set('resolved', true);
        target.set('resolvedBy', resolved.resolvedBy);
      }
    }
    // One push for all: each push walks the array to its end.
    if (fresh.size > 0) this.array.push([...fresh]);
  }

  #restore(id: string, event: Event | undefined): void {
    // Not stored yet (an accepted entry still being appended): the projection fills it in.
    if (!isSharedActivity(event)) return;
    const existing = this.#index.get(id);
    if (isLive(existing, this.array)) {
      fillEntry(existing, event);
      return;
    }
    const values = this.array.toArray();
    let at = values.findIndex((value) => entrySeq(value) > event.seq);
    if (at < 0) at = values.length;
    // Older than everything in a full window: the window has moved past it.
    if (at === 0 && values.length >= this.window) return;
    const entry = newEntry(event);
    this.array.insert(at, [entry]);
    this.#index.set(id, entry);
    this.#owned.set(entry, id);
  }
}
