import type { Actor, Event, EventPage, EventQueryInput, NewContextInput } from '@baton/core';
import { type Caller, localCaller } from '../hub/caller.js';
import { Hub } from '../hub/hub.js';
import type { Store } from '../store/store.js';
import { type TurnBatch, type TurnSink, turnsOf, unless } from './sink.js';

/**
 * Writes to a hub in this process: one given by the caller (a pipeline running
 * inside `baton serve`, a test), or one over a store opened from a data
 * directory. DESIGN §3: one `baton serve` owns a SQLite file, so a data
 * directory is for pipelines that run where no server does.
 */
export class HubSink implements TurnSink {
  readonly kind = 'embedded';
  readonly prefers = 'turns';
  readonly #hub: Promise<Hub>;
  readonly #caller: Caller;
  readonly #owned: Promise<Store> | null;

  private constructor(hub: Promise<Hub>, actor: Actor, owned: Promise<Store> | null) {
    this.#hub = hub;
    this.#caller = localCaller(actor);
    this.#owned = owned;
    // A failed open surfaces on the first write, where the writer handles it.
    hub.catch(() => {});
  }

  static over(hub: Hub, actor: Actor): HubSink {
    return new HubSink(Promise.resolve(hub), actor, null);
  }

  /** Opens (and migrates) the store in `dataDir`, or PostgreSQL at `databaseUrl`. */
  static open(config: { dataDir: string; databaseUrl?: string | undefined }, actor: Actor): HubSink {
    // Loaded on demand: a pipeline that records to a remote hub never loads the store drivers.
    const store = import('../store/open-store.js').then(({ openStore }) => openStore(config));
    const hub = store.then(async (s) => {
      await s.migrate();
      return new Hub(s);
    });
    store.catch(() => {});
    return new HubSink(hub, actor, store);
  }

  async append(contextId: string, batch: TurnBatch): Promise<void> {
    const hub = await this.#hub;
    await hub.appendEvents(contextId, turnsOf(batch), this.#caller);
  }

  async ensureContext(contextId: string, init: NewContextInput): Promise<void> {
    const hub = await this.#hub;
    await unless('conflict', () => hub.createContext({ ...init, id: contextId }, this.#caller));
  }

  async listEvents(contextId: string, query: EventQueryInput): Promise<EventPage> {
    const hub = await this.#hub;
    return hub.listEvents(contextId, query, this.#caller);
  }

  async getEvent(id: string): Promise<Event | null> {
    const hub = await this.#hub;
    return unless('not_found', () => hub.getEvent(id, this.#caller));
  }

  async close(): Promise<void> {
    if (!this.#owned) return;
    await this.#hub.catch(() => {});
    const store = await this.#owned.catch(() => null);
    await store?.close();
  }
}
