import type { Hub } from '../hub/hub.js';
import { newId } from '../hub/ids.js';
import { claimPushSubscriptions, onSubscriptionsChanged, releasePushSubscriptions } from '../hub/subscriptions.js';
import type { EventTail } from '../live/event-tail.js';
import type { Logger } from '../log.js';
import { DEFAULT_DELIVERY, type DeliveryOptions, PushWorker } from './push-worker.js';

export interface PushDispatcherOptions extends Partial<DeliveryOptions> {
  /** This instance's name on the leases it holds (default: a new ULID per start). */
  instanceId?: string;
  /** How long a lease lasts without renewal (default 30 s): how soon another instance takes over from a dead one. */
  leaseMs?: number;
  /** How often leases are renewed and free subscriptions claimed (default 5 s). */
  scanMs?: number;
  log?: Logger;
}

/**
 * Runs the push subscriptions this instance holds the lease of. Several
 * instances on one PostgreSQL each claim with one UPDATE … RETURNING that
 * takes every push subscription whose lease is free, expired or already
 * theirs (store/subscription-queries.ts), so each subscription is delivered by
 * one instance; a dead instance's subscriptions move on when its leases
 * expire, a closing one releases them at once. A lease row, not an advisory
 * lock: it works on SQLite too and needs no connection held per subscription.
 */
export class PushDispatcher {
  readonly instanceId: string;
  readonly #workers = new Map<string, PushWorker>();
  readonly #delivery: DeliveryOptions;
  readonly #leaseMs: number;
  readonly #scanMs: number;
  readonly #log: Logger | undefined;
  #timer: NodeJS.Timeout | null = null;
  #scanning: Promise<void> | null = null;
  #again = false;
  #heldUntil = 0;
  #closed = false;
  #unlisten: (() => void) | null = null;

  constructor(
    private readonly hub: Hub,
    private readonly tail: EventTail,
    options: PushDispatcherOptions = {},
  ) {
    this.instanceId = options.instanceId ?? newId();
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#scanMs = options.scanMs ?? 5_000;
    this.#log = options.log;
    this.#delivery = { ...DEFAULT_DELIVERY, ...definedOnly(options) };
  }

  start(): void {
    this.#unlisten = onSubscriptionsChanged(this.hub, () => this.scan());
    this.#timer = setInterval(() => this.scan(), this.#scanMs);
    this.#timer.unref();
    this.scan();
  }

  /** The push subscriptions this instance is delivering. */
  delivering(): string[] {
    return [...this.#workers.keys()];
  }

  /** Renews leases, starts workers for newly claimed subscriptions, stops those no longer held. */
  scan(): void {
    if (this.#closed) return;
    if (this.#scanning) {
      this.#again = true;
      return;
    }
    this.#scanning = this.#scan().finally(() => {
      this.#scanning = null;
      if (this.#again) {
        this.#again = false;
        this.scan();
      }
    });
  }

  async #scan(): Promise<void> {
    const now = Date.now();
    let held: Set<string>;
    try {
      const claimed = await claimPushSubscriptions(this.hub, this.instanceId, this.#leaseMs, now);
      this.#heldUntil = now + this.#leaseMs;
      held = new Set(claimed.map((s) => s.id));
      for (const subscription of claimed) {
        if (this.#closed || this.#workers.has(subscription.id)) continue;
        this.#workers.set(subscription.id, new PushWorker(this.hub, this.tail, subscription, this.#delivery, this.#log));
      }
    } catch (error) {
      this.#log?.warn({ err: error }, 'claiming push subscriptions failed; retrying');
      // Without a renewed lease another instance may take over: stop before ours runs out.
      if (Date.now() < this.#heldUntil - this.#scanMs) return;
      held = new Set();
    }
    const stopping = [...this.#workers].filter(([id]) => !held.has(id));
    for (const [id] of stopping) this.#workers.delete(id);
    await Promise.all(stopping.map(([, worker]) => worker.close()));
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#unlisten?.();
    if (this.#timer) clearInterval(this.#timer);
    await this.#scanning;
    const workers = [...this.#workers.values()];
    this.#workers.clear();
    await Promise.all(workers.map((worker) => worker.close()));
    // Hand the subscriptions over now rather than when the leases expire.
    await releasePushSubscriptions(this.hub, this.instanceId).catch((error) => {
      this.#log?.warn({ err: error }, 'releasing push subscription leases failed; they expire on their own');
    });
  }
}

function definedOnly(options: Partial<DeliveryOptions>): Partial<DeliveryOptions> {
  const keys: (keyof DeliveryOptions)[] = ['attempts', 'baseDelayMs', 'maxDelayMs', 'pauseMs', 'timeoutMs', 'queueSize'];
  const out: Partial<DeliveryOptions> = {};
  for (const key of keys) if (options[key] !== undefined) out[key] = options[key];
  return out;
}
