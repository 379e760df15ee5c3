import type { ActorInput, Event, EventPage, EventQueryInput, NewContextInput } from '@baton/core';
import { BatonClient } from '../client/baton-client.js';
import { type TurnBatch, type TurnSink, unless } from './sink.js';

export interface RemoteSinkOptions {
  url: string;
  token?: string | undefined;
  actor: ActorInput;
  /** Bound on each write request; a hub that does not answer in time counts as unavailable. */
  writeTimeoutMs: number;
}

/** Writes through the hub's REST API (`baton serve`), the default for pipelines. */
export class RemoteSink implements TurnSink {
  readonly kind = 'remote';
  readonly prefers = 'json';
  readonly #writes: BatonClient;
  readonly #reads: BatonClient;

  constructor(options: RemoteSinkOptions) {
    const base = { url: options.url, token: options.token, actor: options.actor };
    this.#writes = new BatonClient({ ...base, timeoutMs: options.writeTimeoutMs });
    this.#reads = new BatonClient(base);
  }

  async append(contextId: string, batch: TurnBatch): Promise<void> {
    // The turns as the journal already serialized them, and only ids back: a batch of
    // prompts costs neither a second JSON.stringify here nor parsing their echo.
    if ('json' in batch) await this.#writes.appendSerialized(contextId, batch.json);
    else await this.#writes.appendEvents(contextId, batch.turns);
  }

  async ensureContext(contextId: string, init: NewContextInput): Promise<void> {
    await unless('conflict', () => this.#writes.createContext({ ...init, id: contextId }));
  }

  listEvents(contextId: string, query: EventQueryInput): Promise<EventPage> {
    return this.#reads.listEvents(contextId, query);
  }

  getEvent(id: string): Promise<Event | null> {
    return unless('not_found', () => this.#reads.getEvent(id));
  }

  async close(): Promise<void> {}
}
