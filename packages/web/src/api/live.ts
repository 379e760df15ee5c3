import type { Event, LiveFilter, LiveServerMessage } from '@baton/core';
import { type Identity, identityQuery } from './identity.js';

export type LiveStatus = 'connecting' | 'live' | 'offline';

export interface LiveFeedOptions {
  identity: Identity;
  filter: LiveFilter;
  /** Deliver events after this seq first; omitted: only events from now on. The feed keeps its own cursor from then on. */
  since?: number;
  onEvent(event: Event): void;
  onStatus?(status: LiveStatus): void;
  /**
   * The server dropped the subscription because this client fell behind
   * (live.ts `resync`): fetch what was missed after `after` over REST and
   * return the new cursor. Cheaper than replaying a backlog of large turns
   * through the socket that just overflowed.
   */
  onGap(after: number): Promise<number>;
}

const MAX_BACKOFF_MS = 10_000;

/**
 * One live subscription over /api/v1/live (protocol: @baton/core schemas/live.ts),
 * reconnecting with backoff and resuming from the last seq it saw, so no event
 * is missed or seen twice across drops. Returns a function that closes it.
 */
export function openLiveFeed(options: LiveFeedOptions): () => void {
  let cursor: number | null = options.since ?? null;
  let socket: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const subId = 'ui';

  const url = () => {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    return `${scheme}://${location.host}/api/v1/live?${identityQuery(options.identity).toString()}`;
  };

  const subscribe = (ws: WebSocket) => {
    ws.send(JSON.stringify({ type: 'subscribe', id: subId, filter: options.filter, ...(cursor !== null ? { since: cursor } : {}) }));
  };

  const connect = () => {
    if (closed) return;
    options.onStatus?.('connecting');
    const ws = new WebSocket(url());
    socket = ws;
    ws.onopen = () => subscribe(ws);
    ws.onmessage = (message) => {
      let data: LiveServerMessage;
      try {
        data = JSON.parse(String(message.data)) as LiveServerMessage;
      } catch {
        return;
      }
      switch (data.type) {
        case 'subscribed':
          // From now on, resume after the head the server saw when we joined.
          cursor ??= data.head;
          attempt = 0;
          options.onStatus?.('live');
          break;
        case 'event':
          if (cursor === null || data.event.seq > cursor) {
            cursor = data.event.seq;
            options.onEvent(data.event);
          }
          break;
        case 'caught_up':
          cursor = Math.max(cursor ?? 0, data.seq);
          break;
        case 'resync':
          void options.onGap(Math.max(cursor ?? 0, data.after)).then(
            (next) => {
              cursor = Math.max(cursor ?? 0, next);
              if (!closed && ws.readyState === WebSocket.OPEN) subscribe(ws);
            },
            () => ws.close(),
          );
          break;
        default:
          break;
      }
    };
    ws.onclose = () => {
      if (closed) return;
      options.onStatus?.('offline');
      const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt);
      attempt += 1;
      retry = setTimeout(connect, delay);
    };
  };

  connect();
  return () => {
    closed = true;
    if (retry) clearTimeout(retry);
    socket?.close(1000, 'done');
  };
}
