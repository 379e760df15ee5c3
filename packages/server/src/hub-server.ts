import type { Config } from './config.js';
import { isLoopback } from './config.js';
import { createApp } from './http/app.js';
import { listen, type RunningServer } from './http/server.js';
import { Hub } from './hub/hub.js';
import type { Logger } from './log.js';
import { openStore } from './store/open-store.js';
import type { MigrationProgress, Store } from './store/store.js';
import { VERSION } from './version.js';

export interface HubServer {
  url: string;
  port: number;
  hub: Hub;
  store: Store;
  server: RunningServer;
  close(): Promise<void>;
}

export type ServeConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'host' | 'port' | 'token' | 'bodyLimit'>;

/** Opens the store, brings it up to date, and serves every surface on one port. */
export async function startHubServer(config: ServeConfig, log: Logger): Promise<HubServer> {
  if (!isLoopback(config.host) && !config.token) {
    throw new Error(`refusing to listen on ${config.host} without a token: set BATON_TOKEN (or --token), or bind to 127.0.0.1`);
  }
  const store = openStore(config);
  try {
    await store.migrate((step: MigrationProgress) => log.info({ migration: step.name, status: step.status, ms: step.ms }, 'migration'));
  } catch (error) {
    await store.close();
    throw error;
  }
  const hub = new Hub(store);
  const app = createApp(hub, { bodyLimit: config.bodyLimit, token: config.token, version: VERSION, log });
  let server: RunningServer;
  try {
    server = await listen(app, config.host, config.port);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    url: server.url,
    port: server.port,
    hub,
    store,
    server,
    close: async () => {
      await server.close();
      await store.close();
    },
  };
}
