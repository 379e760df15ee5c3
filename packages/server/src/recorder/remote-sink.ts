import {
  type ActorInput,
  BatonError,
  type Event,
  type EventPage,
  type EventQueryInput,
  type NewContextInput,
  type NewEventInput,
} from '@baton/core';
import { BatonClient } from '../client/baton-client.js';
import type { TurnSink } from './sink.js';

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
  readonly #writes: BatonClient;
  readonly #reads: BatonClient;

  constructor(options: RemoteSinkOptions) {
    const base = { url: options.url, token: options.token, actor: options.actor };
    this.#writes = new BatonClient({ ...base, timeoutMs: options.writeTimeoutMs });
    this.#reads = new BatonClient(base);
  }

  async append(contextId: string, turns: readonly NewEventInput[]): Promise<void> {
    await this.#writes.appendEvents(contextId, turns);
  }

  async ensureContext(contextId: string, init: NewContextInput): Promise<void> {
    try {
      await this.#writes.createContext({ ...init, id: contextId });
    } catch (error) {
      if (!(error instanceof BatonError && error.code === 'conflict')) throw error;
    }
  }

  listEvents(contextId: string, query: EventQueryInput): Promise<EventPage> {
    return this.#reads.listEvents(contextId, query);
  }

  async getEvent(id: string): Promise<Event | null> {
    try {
      return await this.#reads.getEvent(id);
    } catch (error) {
      if (error instanceof BatonError && error.code === 'not_found') return null;
      throw error;
    }
  }

  async close(): Promise<void> {}
}
