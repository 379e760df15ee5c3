import type { Event } from '@baton/core';
import type { Store } from '../store/store.js';

const PULL_PAGE = 1000;

/** Something that wants to hear when the tail has grown. */
export interface TailWatcher {
  /** The tail has grown: read what is new. */
  wake(): void;
  /**
   * A watcher that follows only these contexts (and has `skip`) is told
   * `skip(from, to)` instead of `wake()` when none of the events in
   * `from < seq <= to` belong to them, so an event costs nothing to the
   * subscribers of other contexts.
   */
  readonly contextIds?: readonly string[] | undefined;
  skip?(from: number, to: number): void;
}

/**
 * The newest events of the whole store, pulled by seq after every poke (a
 * local append, a PostgreSQL NOTIFY, or the safety timer) and kept in a
 * bounded ring, so a thousand subscribers read new events from memory with
 * one store query per poke between them. Seq order is commit order (see
 * Store), so pulling `seq > head` never skips an event; a lost poke only
 * delays delivery until the next one.
 */
export class EventTail {
  readonly store: Store;
  #head = 0;
  /** Every event with floor < seq <= head is in the ring. */
  #floor = 0;
  #ring: Event[] = [];
  readonly #ringSize: number;
  readonly #watchers = new Set<TailWatcher>();
  #pulling = false;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #unwatch: (() => Promise<void>) | null = null;
  #onError: (error: unknown) => void;

  constructor(store: Store, options: { ringSize?: number; safetyPullMs?: number; onError?: (error: unknown) => void } = {}) {
    this.store = store;
    this.#ringSize = options.ringSize ?? 4096;
    this.#onError = options.onError ?? (() => {});
    const every = options.safetyPullMs ?? 1000;
    if (every > 0) {
      this.#timer = setInterval(() => this.poke(), every);
      this.#timer.unref();
    }
  }

  async start(): Promise<void> {
    const [newest] = await this.store.listEvents({ viewerKey: null, order: 'desc', limit: 1 });
    this.#head = newest?.seq ?? 0;
    this.#floor = this.#head;
    this.#unwatch = await this.store.watchChanges(() => this.poke());
  }

  get head(): number {
    return this.#head;
  }

  get floor(): number {
    return this.#floor;
  }

  /** Events after `seq` from the ring; only valid when `seq >= floor`. */
  after(seq: number): Event[] {
    let lo = 0;
    let hi = this.#ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#ring[mid] as Event).seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return this.#ring.slice(lo);
  }

  watch(watcher: TailWatcher): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /**
   * Something may have been appended: pull it (coalescing pokes that arrive
   * during a pull). `seq`, from this instance's own commits, is the newest
   * seq now committed: seq order is commit order, so everything up to it is
   * stored. With nobody watching, the tail then only moves its head there
   * (an empty ring) instead of reading the events back; a subscriber that
   * comes later reads what it needs from the store, as for any cursor
   * behind the ring.
   */
  poke(seq?: number): void {
    if (seq !== undefined && this.#watchers.size === 0 && !this.#pulling) {
      if (seq > this.#head) {
        this.#head = seq;
        this.#floor = seq;
        this.#ring = [];
      }
      return;
    }
    if (this.#pulling) {
      this.#again = true;
      return;
    }
    this.#pulling = true;
    void this.#pull().then(
      () => {
        this.#pulling = false;
        if (this.#again) {
          this.#again = false;
          this.poke();
        }
      },
      (error) => {
        this.#pulling = false;
        this.#onError(error);
      },
    );
  }

  async #pull(): Promise<void> {
    const from = this.#head;
    const touched = new Set<string>();
    for (;;) {
      const rows = await this.store.listEvents({ viewerKey: null, afterSeq: this.#head, order: 'asc', limit: PULL_PAGE });
      for (const event of rows) {
        this.#ring.push(event);
        touched.add(event.contextId);
      }
      const last = rows.at(-1);
      if (last) this.#head = last.seq;
      const excess = this.#ring.length - this.#ringSize;
      if (excess > 0) {
        this.#floor = (this.#ring[excess - 1] as Event).seq;
        this.#ring.splice(0, excess);
      }
      if (rows.length < PULL_PAGE) break;
    }
    if (this.#head > from) this.#tell(from, touched);
  }

  #tell(from: number, touched: ReadonlySet<string>): void {
    const to = this.#head;
    for (const watcher of this.#watchers) {
      try {
        if (watcher.skip && watcher.contextIds && !watcher.contextIds.some((id) => touched.has(id))) watcher.skip(from, to);
        else watcher.wake();
      } catch (error) {
        // One failing watcher must not keep the news from the others.
        this.#onError(error);
      }
    }
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#watchers.clear();
    await this.#unwatch?.();
  }
}
