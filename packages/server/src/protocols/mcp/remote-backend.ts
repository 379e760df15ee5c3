import type { ActorInput, ContextFormat, Event, LiveFilter, NewContextInput, NewEventInput, NewTaskInput } from '@baton/core';
import { BatonClient } from '../../client/baton-client.js';
import { LiveClient } from '../../client/live-client.js';
import type { McpBackend, SearchParams, TaskChange, Watch } from './backend.js';

export interface RemoteBackendOptions {
  url: string;
  token?: string | undefined;
  actor: ActorInput;
  /** Connection problems of the live feed (it keeps reconnecting by itself). */
  onLiveError?: (error: Error) => void;
}

/**
 * The MCP backend of `baton mcp`: the hub over HTTP (REST for calls, the live
 * WebSocket feed for subscriptions). `baton mcp` never opens the database.
 */
export class RemoteBackend implements McpBackend {
  readonly #client: BatonClient;
  readonly #options: RemoteBackendOptions;
  /** Opened on the first watch: most sessions never subscribe. */
  #live: LiveClient | null = null;

  constructor(options: RemoteBackendOptions) {
    this.#options = options;
    this.#client = new BatonClient({ url: options.url, token: options.token, actor: options.actor });
  }

  createContext(input: NewContextInput) {
    return this.#client.createContext(input);
  }
  getContext(id: string) {
    return this.#client.getContext(id);
  }
  listContexts(query: { q?: string; limit?: number; cursor?: string }) {
    return this.#client.listContexts(query);
  }
  listEvents(contextId: string, query: Parameters<BatonClient['listEvents']>[1]) {
    return this.#client.listEvents(contextId, query);
  }
  appendEvent(contextId: string, event: NewEventInput) {
    return this.#client.appendEvent(contextId, event);
  }
  resolveBlocker(id: string, message?: string) {
    return this.#client.resolveBlocker(id, message);
  }
  createTask(contextId: string, input: NewTaskInput) {
    return this.#client.createTask(contextId, input);
  }
  getTask(id: string) {
    return this.#client.getTask(id);
  }
  listTasks(contextId: string, query: { state?: string; limit?: number }) {
    return this.#client.listTasks(contextId, query);
  }
  updateTask(id: string, change: TaskChange) {
    return this.#client.updateTask(id, change);
  }
  search(query: SearchParams) {
    return this.#client.search(query);
  }
  sharedContext(contextId: string, query: { tokenBudget?: number; format?: ContextFormat }) {
    return this.#client.sharedContext(contextId, query);
  }

  watch(filter: LiveFilter, onEvents: (events: readonly Event[]) => void): Watch {
    this.#live ??= new LiveClient({
      url: this.#options.url,
      token: this.#options.token,
      actor: this.#options.actor,
      ...(this.#options.onLiveError ? { onError: this.#options.onLiveError } : {}),
    });
    const subscription = this.#live.subscribe({ filter }, (event) => onEvents([event]));
    return { ready: subscription.ready, close: () => subscription.close() };
  }

  async close(): Promise<void> {
    const live = this.#live;
    this.#live = null;
    await live?.close();
  }
}
