import {
  type ActorInput,
  BatonError,
  type CapabilityMatch,
  type Checkpoint,
  type Context,
  type ContextFormat,
  type ErrorCode,
  type Event,
  type EventPage,
  type EventQueryInput,
  type NewCheckpointInput,
  type NewContextInput,
  type NewEventInput,
  type NewRuntimeInput,
  type NewTaskInput,
  type Runtime,
  type SearchMode,
  type SearchResult,
  type SharedContext,
  type StateEntry,
  type Task,
  type TaskState,
} from '@baton/core';
import { type Dispatcher, request } from 'undici';
import { joinedJson } from './joined-json.js';

/** `GET /api/v1/search` parameters; lists are comma-joined. */
export interface SearchOptions {
  q: string;
  context?: string | readonly string[];
  kind?: string | readonly string[];
  type?: string | readonly string[];
  actor?: string | readonly string[];
  phase?: string | readonly string[];
  since?: string;
  until?: string;
  limit?: number;
  /** text, hybrid or semantic; the hub's default (hybrid with embeddings, else text) when left out. */
  mode?: SearchMode;
}

/** The shared context as the hub answers it: the budgeted parts, the rendering, and whose runtime it was cut for. */
export interface SharedContextResult extends SharedContext {
  runtime: string | null;
}

export interface BatonClientOptions {
  /** The hub, e.g. http://127.0.0.1:7337 */
  url: string;
  token?: string | undefined;
  /** Who this client writes as (sent as X-Baton-* headers). */
  actor?: ActorInput | undefined;
  /** Per-request timeout in ms (default 30 s): for the answer to start, and between its chunks. */
  timeoutMs?: number;
}

type Query = Record<string, string | number | boolean | readonly string[] | undefined | null>;

/**
 * The typed REST client (`baton/client`). Errors from the hub come back as the
 * same BatonError with the same code; a hub that cannot be reached is
 * `unavailable`.
 */
export class BatonClient {
  readonly url: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;

  constructor(options: BatonClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#headers = { 'content-type': 'application/json' };
    if (options.token) this.#headers.authorization = `Bearer ${options.token}`;
    const actor = options.actor;
    if (actor) {
      this.#headers['x-baton-actor'] = actor.id;
      if (actor.name) this.#headers['x-baton-actor-name'] = actor.name;
      if (actor.runtime) this.#headers['x-baton-runtime'] = actor.runtime;
      if (actor.role) this.#headers['x-baton-role'] = actor.role;
    }
  }

  async health(): Promise<{ ok: boolean; store: string }> {
    return this.#request('GET', '/healthz');
  }

  createContext(input: NewContextInput = {}): Promise<Context> {
    return this.#request('POST', '/api/v1/contexts', input);
  }
  getContext(id: string): Promise<Context> {
    return this.#request('GET', `/api/v1/contexts/${enc(id)}`);
  }
  listContexts(query: { q?: string; limit?: number; cursor?: string } = {}): Promise<{ contexts: Context[]; nextCursor: string | null }> {
    return this.#request('GET', `/api/v1/contexts${qs(query)}`);
  }
  updateContext(
    id: string,
    patch: { title?: string; description?: string; parentId?: string | null; metadata?: Record<string, unknown> },
  ): Promise<Context> {
    return this.#request('PATCH', `/api/v1/contexts/${enc(id)}`, patch);
  }
  deleteContext(id: string): Promise<{ deleted: { events: number; tasks: number; checkpoints: number } }> {
    return this.#request('DELETE', `/api/v1/contexts/${enc(id)}`);
  }

  appendEvent(contextId: string, event: NewEventInput): Promise<Event> {
    return this.#request('POST', `/api/v1/contexts/${enc(contextId)}/events`, event);
  }
  appendEvents(contextId: string, events: readonly NewEventInput[]): Promise<{ events: Event[]; created: boolean[] }> {
    return this.#request('POST', `/api/v1/contexts/${enc(contextId)}/events`, { events });
  }
  /**
   * Appends events already serialized as JSON (one NewEvent each, as a
   * string or UTF-8 bytes) and asks for a minimal reply (`Prefer:
   * return=minimal`): each stored event's id and seq. The cheapest write for a
   * client that keeps its own copy of what it wrote, like the recorder, which
   * serializes each turn once for its journal.
   */
  appendSerialized(
    contextId: string,
    events: readonly (string | Uint8Array)[],
  ): Promise<{ events: { id: string; seq: number }[]; created: boolean[] }> {
    return this.#request('POST', `/api/v1/contexts/${enc(contextId)}/events`, undefined, {
      raw: joinedJson(events, '{"events":', '}'),
      headers: { prefer: 'return=minimal' },
    });
  }
  listEvents(contextId: string, query: EventQueryInput | Query = {}): Promise<EventPage> {
    return this.#request('GET', `/api/v1/contexts/${enc(contextId)}/events${qs(query as Query)}`);
  }
  getEvent(id: string): Promise<Event> {
    return this.#request('GET', `/api/v1/events/${enc(id)}`);
  }
  resolveBlocker(id: string, message?: string): Promise<{ target: Event; record: Event }> {
    return this.#request('POST', `/api/v1/events/${enc(id)}/resolve`, message ? { message } : {});
  }
  consumeNote(id: string, message?: string): Promise<{ target: Event; record: Event }> {
    return this.#request('POST', `/api/v1/events/${enc(id)}/consume`, message ? { message } : {});
  }

  createTask(contextId: string, task: NewTaskInput = {}): Promise<Task> {
    return this.#request('POST', `/api/v1/contexts/${enc(contextId)}/tasks`, task);
  }
  listTasks(
    contextId: string,
    query: { state?: string; limit?: number; cursor?: string } = {},
  ): Promise<{ tasks: Task[]; nextCursor: string | null }> {
    return this.#request('GET', `/api/v1/contexts/${enc(contextId)}/tasks${qs(query)}`);
  }
  getTask(id: string): Promise<Task> {
    return this.#request('GET', `/api/v1/tasks/${enc(id)}`);
  }
  updateTask(
    id: string,
    patch: { state?: TaskState; title?: string; description?: string; message?: string; metadata?: Record<string, unknown> },
  ): Promise<Task> {
    return this.#request('PATCH', `/api/v1/tasks/${enc(id)}`, patch);
  }

  createCheckpoint(checkpoint: NewCheckpointInput): Promise<Checkpoint> {
    return this.#request('POST', '/api/v1/checkpoints', checkpoint);
  }
  listCheckpoints(contextId: string): Promise<{ checkpoints: Checkpoint[] }> {
    return this.#request('GET', `/api/v1/contexts/${enc(contextId)}/checkpoints`);
  }

  search(query: SearchOptions): Promise<SearchResult> {
    return this.#request('GET', `/api/v1/search${qs({ ...query })}`);
  }
  sharedContext(
    contextId: string,
    query: { runtime?: string; tokenBudget?: number; format?: ContextFormat } = {},
  ): Promise<SharedContextResult> {
    return this.#request('GET', `/api/v1/contexts/${enc(contextId)}/shared${qs({ ...query })}`);
  }
  registerRuntime(runtime: NewRuntimeInput): Promise<Runtime> {
    return this.#request('POST', '/api/v1/runtimes', runtime);
  }
  matchRuntimes(taskId: string): Promise<{ task: Task; matches: CapabilityMatch[] }> {
    return this.#request('GET', `/api/v1/runtimes/match${qs({ task: taskId })}`);
  }
  runtimeQueue(runtimeId: string, contextId?: string): Promise<{ tasks: Task[] }> {
    return this.#request('GET', `/api/v1/runtimes/${enc(runtimeId)}/queue${qs({ context: contextId })}`);
  }
  claimTask(taskId: string, runtime: string, message?: string): Promise<Task> {
    return this.#request('POST', `/api/v1/tasks/${enc(taskId)}/claim`, { runtime, ...(message ? { message } : {}) });
  }
  putState(key: string, value: unknown): Promise<StateEntry> {
    return this.#request('POST', `/api/v1/state/${enc(key)}`, { value });
  }
  getState(key: string): Promise<StateEntry> {
    return this.#request('GET', `/api/v1/state/${enc(key)}`);
  }
  async deleteState(key: string): Promise<void> {
    await this.#request('DELETE', `/api/v1/state/${enc(key)}`);
  }

  /**
   * One request through undici's `request` rather than `fetch`: the same
   * keep-alive pool without WHATWG streams and an AbortSignal per call, which
   * cost a client (the recorder, `baton mcp`) several times the CPU.
   */
  async #request<T>(
    method: string,
    path: string,
    body?: unknown,
    extra?: { raw?: string | Uint8Array; headers?: Record<string, string> },
  ): Promise<T> {
    const payload = extra?.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    let status: number;
    let text: string;
    try {
      const response = await request(this.url + path, {
        method: method as Dispatcher.HttpMethod,
        headers: extra?.headers ? { ...this.#headers, ...extra.headers } : this.#headers,
        ...(payload === undefined ? {} : { body: payload }),
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      throw new BatonError('unavailable', `cannot reach the baton hub at ${this.url}: ${(error as Error).message}`, { cause: error });
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      throw new BatonError('internal', `the hub answered ${status} with a body that is not JSON`);
    }
    if (status < 200 || status > 299) {
      const error = (json as { error?: { code?: ErrorCode; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
      throw new BatonError(error?.code ?? 'internal', error?.message ?? `the hub answered ${status}`, {
        details: { status, ...(error?.details ?? {}) },
      });
    }
    return json as T;
  }
}

function enc(id: string): string {
  return encodeURIComponent(id);
}

function qs(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
