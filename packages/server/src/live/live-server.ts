import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { toHttpError } from '../http/errors.js';
import { resolveCaller } from '../http/request-context.js';
import type { Hub } from '../hub/hub.js';
import type { Logger } from '../log.js';
import { EventTail } from './event-tail.js';
import { type LiveSocketOptions, serveLiveSocket } from './live-socket.js';

export const LIVE_PATH = '/api/v1/live';

export interface LiveServer {
  tail: EventTail;
  /** Handles an HTTP upgrade if it is for the live feed; returns false otherwise. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** The open connections (for shutdown and tests). */
  sockets(): Set<WebSocket>;
  close(): Promise<void>;
}

/**
 * The live feed: one EventTail per instance, poked by local appends and by
 * the store's change notifications (other instances), serving WebSocket
 * subscribers on /api/v1/live.
 */
export async function startLiveServer(
  hub: Hub,
  options: LiveSocketOptions & { token?: string | undefined; log?: Logger; safetyPullMs?: number } = {},
): Promise<LiveServer> {
  const tail = new EventTail(hub.store, {
    ...(options.safetyPullMs !== undefined ? { safetyPullMs: options.safetyPullMs } : {}),
    onError: (error) => options.log?.warn({ err: error }, 'the live tail failed to pull or to tell a watcher; it retries on the next poke'),
  });
  await tail.start();
  const stopLocal = hub.onAppend((events) => tail.poke(events.reduce((max, e) => Math.max(max, e.seq), 0)));
  // No permessage-deflate (also ws's default, stated here as a decision): compression runs per
  // socket with its own context, so an event could no longer be encoded once and written as the
  // same bytes to every subscriber, and the feed's small JSON messages gain little from it.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024, perMessageDeflate: false });

  return {
    tail,
    handleUpgrade(request, socket, head) {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== LIVE_PATH) return false;
      let caller: ReturnType<typeof resolveCaller>;
      try {
        caller = resolveCaller({ headers: request.headers as Record<string, string | undefined>, query: url.searchParams }, options.token);
      } catch (error) {
        const { status, body } = toHttpError(error);
        const json = JSON.stringify(body);
        socket.end(
          `HTTP/1.1 ${status} Error\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\nconnection: close\r\n\r\n${json}`,
        );
        return true;
      }
      wss.handleUpgrade(request, socket, head, (ws) => serveLiveSocket(ws, caller, tail, options, socket));
      return true;
    },
    sockets: () => wss.clients,
    async close() {
      stopLocal();
      for (const client of wss.clients) client.close(1001, 'server shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await tail.close();
    },
  };
}

/** Routes HTTP upgrades to the first handler that claims them; others get 404. */
export function routeUpgrades(server: Server, handlers: readonly Pick<LiveServer, 'handleUpgrade'>[]): void {
  server.on('upgrade', (request, socket, head) => {
    for (const handler of handlers) if (handler.handleUpgrade(request, socket, head)) return;
    socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });
}
