import { type Event, type LiveFilter, matchesFilter } from '@baton/core';
import type { Caller } from '../../hub/caller.js';
import { viewerKey } from '../../hub/caller.js';
import type { AppendListener, Hub } from '../../hub/hub.js';
import { privacyKey } from '../../store/rows.js';
import type { McpBackend, SearchParams, TaskChange, Watch } from './backend.js';

/** Where in-process watches learn of appended events; the hub's own commits by default. */
export type AppendSource = (listener: AppendListener) => () => void;

/** The MCP backend inside `baton serve`: the Hub itself, called as the session's Caller. */
export class HubBackend implements McpBackend {
  readonly #hub: Hub;
  readonly #caller: Caller;
  readonly #appends: AppendSource;
  readonly #watches = new Set<() => void>();

  constructor(hub: Hub, caller: Caller, appends: AppendSource = (listener) => hub.onAppend(listener)) {
    this.#hub = hub;
    this.#caller = caller;
    this.#appends = appends;
  }

  createContext(input: unknown) {
    return this.#hub.createContext(input, this.#caller);
  }
  getContext(id: string) {
    return this.#hub.getContext(id, this.#caller);
  }
  listContexts(query: object) {
    return this.#hub.listContexts(query, this.#caller);
  }
  listEvents(contextId: string, query: object) {
    return this.#hub.listEvents(contextId, query, this.#caller);
  }
  async appendEvent(contextId: string, event: unknown) {
    return (await this.#hub.appendEvent(contextId, event, this.#caller)).event;
  }
  resolveBlocker(id: string, message?: string) {
    return this.#hub.resolveBlocker(id, message === undefined ? {} : { message }, this.#caller);
  }
  createTask(contextId: string, input: unknown) {
    return this.#hub.createTask(contextId, input, this.#caller);
  }
  getTask(id: string) {
    return this.#hub.getTask(id, this.#caller);
  }
  listTasks(contextId: string, query: object) {
    return this.#hub.listTasks(contextId, query, this.#caller);
  }
  updateTask(id: string, change: TaskChange) {
    return this.#hub.updateTask(id, change, this.#caller);
  }
  search(query: SearchParams) {
    return this.#hub.search.search(query, this.#caller);
  }
  sharedContext(contextId: string, query: object) {
    return this.#hub.handoff.sharedContext(contextId, query, this.#caller);
  }

  watch(filter: LiveFilter, onEvents: (events: readonly Event[]) => void): Watch {
    const viewer = viewerKey(this.#caller);
    const allowed = this.#caller.contextIds;
    const stop = this.#appends((events) => {
      const seen = events.filter(
        (e) =>
          (e.visibility === 'shared' || privacyKey(e.actor) === viewer) &&
          (allowed === null || allowed.has(e.contextId)) &&
          matchesFilter(filter, e),
      );
      if (seen.length > 0) onEvents(seen);
    });
    this.#watches.add(stop);
    return {
      ready: Promise.resolve(),
      close: () => {
        stop();
        this.#watches.delete(stop);
      },
    };
  }

  async close(): Promise<void> {
    for (const stop of this.#watches) stop();
    this.#watches.clear();
  }
}
