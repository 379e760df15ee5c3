import type { Event } from '@baton/core';
import type { Hub } from '../hub/hub.js';
import { recordDelivery, recordDeliveryFailure } from '../hub/subscriptions.js';
import type { EventTail } from '../live/event-tail.js';
import { Subscription } from '../live/subscription.js';
import type { Logger } from '../log.js';
import type { StoredSubscription } from '../store/store.js';
import { backoffDelay, postWebhook } from './webhook.js';

export interface DeliveryOptions {
  /** Tries per round before the subscription is marked failing (default 6). */
  attempts: number;
  /** First retry waits about this long; each next one twice as long (default 500 ms). */
  baseDelayMs: number;
  /** Longest wait between two tries of one round (default 30 s). */
  maxDelayMs: number;
  /** After a failed round, wait this long and start another with the same event (default 60 s). */
  pauseMs: number;
  /** Per request (default 10 s). */
  timeoutMs: number;
  /** Events taken from the timeline ahead of delivery (default 100). */
  queueSize: number;
}

export const DEFAULT_DELIVERY: DeliveryOptions = {
  attempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  pauseMs: 60_000,
  timeoutMs: 10_000,
  queueSize: 100,
};

/**
 * Delivers one push subscription, one event at a time in seq order. Events
 * come from a live Subscription into a bounded queue; when the queue is full
 * the Subscription stops and, once the queue has drained, starts again from
 * the cursor, so a slow receiver never makes the server buffer without bound.
 * The cursor is stored after every delivery: a restart resends at most the
 * event that was in flight (at-least-once; receivers dedupe by Idempotency-Key).
 */
export class PushWorker {
  readonly id: string;
  #cursor: number;
  #queue: Event[] = [];
  #subscription: Subscription | null = null;
  #resubscribe = false;
  #running: Promise<void> | null = null;
  #closed = false;
  readonly #abort = new AbortController();

  constructor(
    private readonly hub: Hub,
    private readonly tail: EventTail,
    private readonly stored: StoredSubscription,
    private readonly options: DeliveryOptions,
    private readonly log: Logger | undefined,
  ) {
    this.id = stored.id;
    this.#cursor = stored.cursor;
    this.#subscribe();
  }

  #subscribe(): void {
    this.#resubscribe = false;
    this.#subscription = new Subscription(this.tail, this.stored.filter, this.stored.ownerKey, this.#cursor, {
      event: (event) => {
        if (this.#closed || this.#queue.length >= this.options.queueSize) return false;
        this.#queue.push(event);
        this.#kick();
        return true;
      },
      caughtUp: () => {},
      overflow: () => {
        this.#resubscribe = true;
      },
      failed: (error) => {
        this.log?.warn({ err: error, subscription: this.id }, 'reading events for a push subscription failed; retrying');
        this.#resubscribe = true;
        void this.#sleep(this.options.baseDelayMs).then(() => this.#kick());
      },
    });
  }

  #kick(): void {
    if (this.#running || this.#closed) return;
    this.#running = this.#drain().finally(() => {
      this.#running = null;
      if (!this.#closed && (this.#queue.length > 0 || this.#resubscribe)) this.#kick();
    });
  }

  async #drain(): Promise<void> {
    while (!this.#closed) {
      const event = this.#queue[0];
      if (!event) {
        // The Subscription stopped because the queue was full; everything it gave is delivered now.
        if (this.#resubscribe) this.#subscribe();
        return;
      }
      if (!(await this.#deliver(event))) return;
      this.#queue.shift();
      this.#cursor = event.seq;
      try {
        await recordDelivery(this.hub, this.id, event.seq);
      } catch (error) {
        // The next delivery stores a later cursor; until then a restart would resend this event.
        this.log?.warn({ err: error, subscription: this.id }, 'storing a push subscription cursor failed');
      }
    }
  }

  /** Tries until the receiver accepts; false only when the worker is closed. */
  async #deliver(event: Event): Promise<boolean> {
    const secret = this.stored.secret ?? '';
    const endpoint = this.stored.endpoint ?? '';
    let attempt = 0;
    for (;;) {
      let lastError = '';
      for (let round = 1; round <= this.options.attempts; round++) {
        if (this.#closed) return false;
        attempt += 1;
        try {
          await postWebhook(
            { endpoint, subscriptionId: this.id, secret, event, attempt },
            { timeoutMs: this.options.timeoutMs, signal: this.#abort.signal },
          );
          return true;
        } catch (error) {
          if (this.#closed) return false;
          lastError = (error as Error).message;
          if (round < this.options.attempts) {
            await this.#sleep(backoffDelay(round, this.options.baseDelayMs, this.options.maxDelayMs));
          }
        }
      }
      const retryAt = Date.now() + this.options.pauseMs;
      this.log?.warn({ subscription: this.id, eventId: event.id, error: lastError }, 'webhook delivery failed; retrying later');
      await recordDeliveryFailure(this.hub, this.id, lastError, retryAt).catch(() => undefined);
      await this.#sleep(this.options.pauseMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    const signal = this.#abort.signal;
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    });
  }

  /** Stops delivering; an in-flight request is aborted and its event stays undelivered. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#subscription?.close();
    this.#abort.abort();
    await this.#running;
  }
}
