import { type Event, type LiveFilter, matchesFilter } from '@baton/core';
import { privacyKey } from '../store/rows.js';
import type { EventTail } from './event-tail.js';

const BACKLOG_PAGE = 500;

/** Where a subscription's events go (a WebSocket, a webhook queue, a pull cursor). */
export interface SubscriptionSink {
  /** Delivers one event; false means the sink is full and the subscription must stop. */
  event(event: Event): boolean;
  /** The backlog has been delivered; from now on events arrive as they are written. */
  caughtUp(seq: number): void;
  /** The sink fell behind at `after`; the subscriber re-subscribes from there. */
  overflow(after: number): void;
  failed(error: unknown): void;
}

/**
 * One subscriber's cursor through the timeline. It reads the backlog from the
 * store, then new events from the shared tail, always in seq order and each
 * exactly once, because the cursor is the only state: nothing is queued per
 * subscriber beyond what its sink accepts.
 *
 * Events still in the tail's ring are delivered synchronously from the
 * tail's wake-up, so one pull fans out to every subscriber in a single turn
 * of the event loop (and a socket can send them all in one write); only the
 * backlog behind the ring is read from the store, asynchronously.
 */
export class Subscription {
  #cursor: number;
  #running = false;
  #closed = false;
  #caughtUp = false;
  readonly #unwatch: () => void;
  /** The tail tells this subscription about other contexts' events with `skip` (see TailWatcher). */
  readonly contextIds: readonly string[] | undefined;

  constructor(
    private readonly tail: EventTail,
    private readonly filter: LiveFilter,
    /** Whose private events this subscriber may see. */
    private readonly viewerKey: string,
    since: number | undefined,
    private readonly sink: SubscriptionSink,
  ) {
    this.#cursor = since ?? tail.head;
    this.contextIds = filter.contextIds;
    this.#unwatch = tail.watch(this);
    // Not from inside the constructor: the owner has not stored this subscription yet.
    queueMicrotask(() => this.wake());
  }

  get cursor(): number {
    return this.#cursor;
  }

  wake(): void {
    if (this.#closed || this.#running) return;
    try {
      if (this.#fromRing()) return;
    } catch (error) {
      this.#fail(error);
      return;
    }
    // Behind the ring: page through the store, then come back for the ring.
    this.#running = true;
    void this.#fromStore().then(
      () => {
        this.#running = false;
        this.wake();
      },
      (error) => {
        this.#running = false;
        this.#fail(error);
      },
    );
  }

  /** None of the events in `from < seq <= to` is for this subscription. */
  skip(from: number, to: number): void {
    if (this.#caughtUp && !this.#running && !this.#closed && this.#cursor >= from) this.#cursor = Math.max(this.#cursor, to);
    else this.wake();
  }

  /** Delivers what the ring holds after the cursor; false when the cursor is behind the ring. */
  #fromRing(): boolean {
    if (this.#cursor < this.tail.floor) return false;
    const upTo = this.tail.head;
    if (this.#cursor < upTo && !this.#deliver(this.tail.after(this.#cursor), upTo)) return true;
    if (!this.#caughtUp && !this.#closed) {
      this.#caughtUp = true;
      this.sink.caughtUp(this.#cursor);
    }
    return true;
  }

  async #fromStore(): Promise<void> {
    while (!this.#closed && this.#cursor < this.tail.floor) {
      const ceiling = this.tail.floor;
      const batch = await this.tail.store.listEvents({
        ...(this.filter.contextIds ? { contextIds: this.filter.contextIds } : {}),
        ...(this.filter.kinds ? { kinds: this.filter.kinds } : {}),
        viewerKey: this.viewerKey,
        afterSeq: this.#cursor,
        beforeSeq: ceiling + 1,
        order: 'asc',
        limit: BACKLOG_PAGE,
      });
      if (this.#closed) return;
      const upTo = batch.length === BACKLOG_PAGE ? (batch.at(-1) as Event).seq : ceiling;
      if (!this.#deliver(batch, upTo)) return;
    }
  }

  /** Hands the matching events of `batch` (seq order) to the sink and moves the cursor to `upTo`; false once the subscription stopped. */
  #deliver(batch: readonly Event[], upTo: number): boolean {
    for (const event of batch) {
      if (this.#closed) return false;
      if (event.seq > upTo) break;
      if (event.seq <= this.#cursor) continue;
      if (!this.#visible(event) || !matchesFilter(this.filter, event)) continue;
      if (!this.sink.event(event)) {
        this.close();
        this.sink.overflow(this.#cursor);
        return false;
      }
      this.#cursor = event.seq;
    }
    if (this.#closed) return false;
    this.#cursor = Math.max(this.#cursor, upTo);
    return true;
  }

  #visible(event: Event): boolean {
    return event.visibility === 'shared' || privacyKey(event.actor) === this.viewerKey;
  }

  #fail(error: unknown): void {
    if (this.#closed) return;
    this.close();
    this.sink.failed(error);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unwatch();
  }
}
