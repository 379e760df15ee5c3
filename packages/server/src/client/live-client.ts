import type { ActorInput, Event, LiveFilter, LiveServerMessage } from '@baton/core';
import WebSocket from 'ws';

export interface LiveClientOptions {
  /** The hub's base URL, e.g. http://127.0.0.1:7337 */
  url: string;
  token?: string | undefined;
  actor?: ActorInput | undefined;
  /** Longest wait between reconnect attempts, ms (default 5 s). */
  maxBackoffMs?: number;
  /** Called on connection errors; the client keeps reconnecting. */
  onError?: (error: Error) => void;
}

export interface LiveSubscription {
  /** Resolves once the backlog up to the moment of subscribing has been delivered. */
  readonly ready: Promise<void>;
  /** The seq of the last event delivered (the resume point). */
  readonly lastSeq: number;
  close(): void;
}

interface SubState {
  id: string;
  filter: LiveFilter;
  /** Resume point; undefined until the server has told us its head. */
  cursor: number | undefined;
  onEvent: (event: Event) => void;
  markReady: () => void;
  closed: boolean;
}

/**
 * Follows the hub's live feed (/api/v1/live). Subscriptions survive
 * disconnects: the client reconnects with backoff and resubscribes from the
 * last seq it delivered, and follows `resync` the same way, so its callbacks
 * see every matching event once, in seq order.
 */
export class LiveClient {
  readonly #options: LiveClientOptions;
  readonly #subs = new Map<string, SubState>();
  #ws: WebSocket | null = null;
  #closed = false;
  #backoff = 100;
  #nextId = 1;
  #reconnect: NodeJS.Timeout | null = null;

  constructor(options: LiveClientOptions) {
    this.#options = options;
  }

  subscribe(options: { filter?: LiveFilter; since?: number }, onEvent: (event: Event) => void): LiveSubscription {
    if (this.#closed) throw new Error('this LiveClient is closed');
    let markReady = () => {};
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    const state: SubState = {
      id: `s${this.#nextId++}`,
      filter: options.filter ?? {},
      cursor: options.since,
      onEvent,
      markReady,
      closed: false,
    };
    this.#subs.set(state.id, state);
    if (this.#ws?.readyState === WebSocket.OPEN) this.#sendSubscribe(state);
    else this.#connect();
    return {
      ready,
      get lastSeq() {
        return state.cursor ?? 0;
      },
      close: () => {
        state.closed = true;
        this.#subs.delete(state.id);
        if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(JSON.stringify({ type: 'unsubscribe', id: state.id }));
      },
    };
  }

  #connect(): void {
    if (this.#ws || this.#closed || this.#reconnect) return;
    const base = new URL(this.#options.url);
    base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
    base.pathname = '/api/v1/live';
    const headers: Record<string, string> = {};
    if (this.#options.token) headers.authorization = `Bearer ${this.#options.token}`;
    const actor = this.#options.actor;
    if (actor) {
      headers['x-baton-actor'] = actor.id;
      if (actor.name) headers['x-baton-actor-name'] = actor.name;
      if (actor.runtime) headers['x-baton-runtime'] = actor.runtime;
      if (actor.role) headers['x-baton-role'] = actor.role;
    }
    const ws = new WebSocket(base, { headers });
    this.#ws = ws;
    ws.on('open', () => {
      this.#backoff = 100;
      for (const state of this.#subs.values()) this.#sendSubscribe(state);
    });
    ws.on('message', (data) => this.#onMessage(JSON.parse(data.toString()) as LiveServerMessage));
    ws.on('ping', () => ws.pong());
    ws.on('error', (error) => this.#options.onError?.(error));
    ws.on('close', () => {
      this.#ws = null;
      if (this.#closed) return;
      const delay = this.#backoff;
      this.#backoff = Math.min(this.#backoff * 2, this.#options.maxBackoffMs ?? 5000);
      this.#reconnect = setTimeout(() => {
        this.#reconnect = null;
        this.#connect();
      }, delay);
    });
  }

  #sendSubscribe(state: SubState): void {
    const message = {
      type: 'subscribe',
      id: state.id,
      filter: state.filter,
      ...(state.cursor !== undefined ? { since: state.cursor } : {}),
    };
    this.#ws?.send(JSON.stringify(message));
  }

  #onMessage(message: LiveServerMessage): void {
    switch (message.type) {
      case 'subscribed': {
        const state = this.#subs.get(message.id);
        if (state && state.cursor === undefined) state.cursor = message.head;
        return;
      }
      case 'event': {
        const state = this.#subs.get(message.sub);
        if (!state || state.closed) return;
        // After a reconnect the server may repeat what we already delivered.
        if (state.cursor !== undefined && message.event.seq <= state.cursor) return;
        state.cursor = message.event.seq;
        state.onEvent(message.event);
        return;
      }
      case 'caught_up':
        this.#subs.get(message.sub)?.markReady();
        return;
      case 'resync': {
        const state = this.#subs.get(message.sub);
        if (state) {
          state.cursor = Math.max(state.cursor ?? 0, message.after);
          this.#sendSubscribe(state);
        }
        return;
      }
      case 'error':
        this.#options.onError?.(new Error(`live feed: ${message.error.message}`));
        return;
      default:
        return;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnect) clearTimeout(this.#reconnect);
    this.#subs.clear();
    const ws = this.#ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close(1000);
    });
  }
}
