import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AppEnv } from './request-context.js';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
  /** The node:http server, for transports that handle upgrades (WebSocket). */
  readonly http: import('node:http').Server;
}

/** Binds the app to host:port (0 picks a free port) and resolves once it listens. */
export function listen(app: Hono<AppEnv>, host: string, port: number): Promise<RunningServer> {
  return new Promise((resolvePromise, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolvePromise({
        url: `http://${shownHost}:${info.port}`,
        port: info.port,
        http: server as unknown as import('node:http').Server,
        close: () =>
          new Promise<void>((done) => {
            (server as unknown as import('node:http').Server).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}
