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
 */
export class Subscription {
  #cursor: number;
  #running = false;
  #again = false;
  #closed = false;
  #caughtUp = false;
  readonly #unwatch: () => void;

  constructor(
    private readonly tail: EventTail,
    private readonly filter: LiveFilter,
    /** Whose private events this subscriber may see. */
    private readonly viewerKey: string,
    since: number | undefined,
    private readonly sink: SubscriptionSink,
  ) {
    this.#cursor = since ?? tail.head;
    this.#unwatch = tail.watch(this);
    this.wake();
  }

  get cursor(): number {
    return this.#cursor;
  }

  wake(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void this.#run().then(
      () => {
        this.#running = false;
        if (this.#again && !this.#closed) {
          this.#again = false;
          this.wake();
        }
      },
      (error) => {
        this.#running = false;
        this.close();
        this.sink.failed(error);
      },
    );
  }

  async #run(): Promise<void> {
    while (!this.#closed && this.#cursor < this.tail.head) {
      let batch: Event[];
      let upTo: number;
      if (this.#cursor >= this.tail.floor) {
        upTo = this.tail.head;
        batch = this.tail.after(this.#cursor);
      } else {
        const ceiling = this.tail.floor;
        batch = await this.tail.store.listEvents({
          ...(this.filter.contextIds ? { contextIds: this.filter.contextIds } : {}),
          ...(this.filter.kinds ? { kinds: this.filter.kinds } : {}),
          viewerKey: this.viewerKey,
          afterSeq: this.#cursor,
          beforeSeq: ceiling + 1,
          order: 'asc',
          limit: BACKLOG_PAGE,
        });
        upTo = batch.length === BACKLOG_PAGE ? (batch.at(-1) as Event).seq : ceiling;
      }
      for (const event of batch) {
        if (this.#closed) return;
        if (event.seq > upTo) break;
        if (!this.#visible(event) || !matchesFilter(this.filter, event)) continue;
        if (!this.sink.event(event)) {
          this.close();
          this.sink.overflow(this.#cursor);
          return;
        }
        this.#cursor = event.seq;
      }
      this.#cursor = Math.max(this.#cursor, upTo);
    }
    if (!this.#caughtUp && !this.#closed) {
      this.#caughtUp = true;
      this.sink.caughtUp(this.#cursor);
    }
  }

  #visible(event: Event): boolean {
    return event.visibility === 'shared' || privacyKey(event.actor) === this.viewerKey;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unwatch();
  }
}
