import type { Checkpoint, Context, Event, EventPage, SearchResult, Task } from '@baton/core';
import { type Identity, identityHeaders } from './identity.js';

const BASE = '/api/v1';

/** An error the server answered with (packages/server/src/http/errors.ts), or a network failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Query = Record<string, string | number | undefined>;

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The typed REST calls the UI makes; every one carries the person's identity headers. */
export class RestApi {
  constructor(private readonly identity: () => Identity) {}

  async #request<T>(method: string, path: string, options: { query?: Query; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
    const headers: Record<string, string> = { ...identityHeaders(this.identity()), accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${BASE}${path}${queryString(options.query)}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!response.ok) {
      let code = 'http_error';
      let message = `${method} ${path} failed with HTTP ${response.status}`;
      try {
        const body = (await response.json()) as { error?: { code?: string; message?: string } };
        code = body.error?.code ?? code;
        message = body.error?.message ?? message;
      } catch {
        // Not JSON: keep the status line.
      }
      throw new ApiError(response.status, code, message);
    }
    return (await response.json()) as T;
  }

  listContexts(q: string, signal?: AbortSignal) {
    return this.#request<{ contexts: Context[]; nextCursor: string | null }>('GET', '/contexts', {
      query: { q: q || undefined, limit: 200 },
      ...(signal ? { signal } : {}),
    });
  }

  getContext(id: string) {
    return this.#request<Context>('GET', `/contexts/${encodeURIComponent(id)}`);
  }

  listEvents(contextId: string, query: Query, signal?: AbortSignal) {
    return this.#request<EventPage>('GET', `/contexts/${encodeURIComponent(contextId)}/events`, { query, ...(signal ? { signal } : {}) });
  }

  getEvent(id: string, signal?: AbortSignal) {
    return this.#request<Event>('GET', `/events/${encodeURIComponent(id)}`, signal ? { signal } : {});
  }

  appendEvent(contextId: string, event: Record<string, unknown>) {
    return this.#request<Event>('POST', `/contexts/${encodeURIComponent(contextId)}/events`, { body: event });
  }

  resolveBlocker(eventId: string, message?: string) {
    return this.#request<{ target: Event; record: Event }>('POST', `/events/${encodeURIComponent(eventId)}/resolve`, {
      body: message ? { message } : {},
    });
  }

  consumeNote(eventId: string) {
    return this.#request<{ target: Event; record: Event }>('POST', `/events/${encodeURIComponent(eventId)}/consume`, { body: {} });
  }

  /** Full-text search over the hub's index (GET /search), best matches first. */
  search(query: { q: string; context: string; kind?: string; limit?: number }, signal?: AbortSignal) {
    return this.#request<SearchResult>('GET', '/search', { query: { ...query }, ...(signal ? { signal } : {}) });
  }

  listTasks(contextId: string) {
    return this.#request<{ tasks: Task[]; nextCursor: string | null }>('GET', `/contexts/${encodeURIComponent(contextId)}/tasks`, {
      query: { limit: 1000 },
    });
  }

  listCheckpoints(contextId: string) {
    return this.#request<{ checkpoints: Checkpoint[] }>('GET', `/contexts/${encodeURIComponent(contextId)}/checkpoints`);
  }
}

export function artifactUrl(checkpointId: string, name: string): string {
  return `${BASE}/checkpoints/${encodeURIComponent(checkpointId)}/artifacts/${encodeURIComponent(name)}`;
}
