import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AppEnv } from './request-context.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting; requests in flight get `graceMs` (default 3 s) to finish. */
  close(graceMs?: number): Promise<void>;
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
        close: (graceMs = 3000) =>
          new Promise<void>((done) => {
            const http = server as unknown as import('node:http').Server;
            // Stop accepting, let requests in flight finish, and cut whatever
            // still runs after the grace.
            const force = setTimeout(() => http.closeAllConnections(), graceMs);
            // A keep-alive connection turns idle once its last reply is sent: close it then.
            const idle = setInterval(() => http.closeIdleConnections(), 50);
            http.close(() => {
              clearTimeout(force);
              clearInterval(idle);
              done();
            });
            http.closeIdleConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}
