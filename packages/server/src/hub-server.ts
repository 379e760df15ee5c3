import type { Config } from './config.js';
import { isLoopback } from './config.js';
import { createApp } from './http/app.js';
import { listen, type RunningServer } from './http/server.js';
import { Hub } from './hub/hub.js';
import type { HubSearchOptions } from './hub/search.js';
import { type LiveServer, routeUpgrades, startLiveServer } from './live/live-server.js';
import { onTailAppend } from './live/tail-listener.js';
import type { Logger } from './log.js';
import { type McpHttp, mountMcp } from './protocols/mcp/mcp-http.js';
import { embedderFrom } from './search/embedder.js';
import { openStore } from './store/open-store.js';
import type { MigrationProgress, Store } from './store/store.js';
import { PushDispatcher, type PushDispatcherOptions } from './subscriptions/push-dispatcher.js';
import { VERSION } from './version.js';
import { startYjsServer, type YjsServer, type YjsServerOptions } from './yjs/yjs-server.js';

export interface HubServer {
  url: string;
  port: number;
  hub: Hub;
  store: Store;
  server: RunningServer;
  live: LiveServer;
  /** MCP over Streamable HTTP at /mcp. */
  mcp: McpHttp;
  /** The Yjs bridge at /yjs/:contextId. */
  yjs: YjsServer;
  /** Delivers this instance's share of the push subscriptions. */
  push: PushDispatcher;
  close(): Promise<void>;
}

export type ServeConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'host' | 'port' | 'token' | 'bodyLimit'> &
  Partial<Pick<Config, 'yjsWindow' | 'embeddings'>>;

/** Tuning for tests and benchmarks; production uses the defaults. */
export interface HubServerOptions {
  yjs?: Omit<YjsServerOptions, 'token' | 'log' | 'window'>;
  push?: Omit<PushDispatcherOptions, 'log'>;
  search?: Omit<HubSearchOptions, 'embedder' | 'log'>;
}

/** Opens the store, brings it up to date, and serves every surface on one port. */
export async function startHubServer(config: ServeConfig, log: Logger, options: HubServerOptions = {}): Promise<HubServer> {
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
  const embedder = embedderFrom(config.embeddings);
  if (config.embeddings && embedder) {
    log.info({ url: config.embeddings.url, model: config.embeddings.model, space: embedder.space }, 'semantic search on');
  }
  const hub = new Hub(store, { search: { ...options.search, embedder, log } });
  const app = createApp(hub, { bodyLimit: config.bodyLimit, token: config.token, version: VERSION, log });
  // The live tail feeds every in-process listener, so writes on other instances reach them too.
  const live = await startLiveServer(hub, { token: config.token, log });
  const mcp = mountMcp(app, hub, {
    token: config.token,
    localhostOnly: isLoopback(config.host),
    bodyLimit: config.bodyLimit,
    log,
    appends: (listener) => onTailAppend(live.tail, listener),
  });
  let server: RunningServer;
  try {
    server = await listen(app, config.host, config.port);
  } catch (error) {
    await mcp.close();
    await live.close();
    await store.close();
    throw error;
  }
  const yjs = await startYjsServer(hub, live.tail, { ...options.yjs, token: config.token, window: config.yjsWindow, log });
  routeUpgrades(server.http, [live, yjs]);
  const push = new PushDispatcher(hub, live.tail, { ...options.push, log });
  push.start();
  // Follow appends into the full-text index (and embeddings, hearing other instances' appends too); backfill what predates them.
  hub.search.startIndexing(
    (listener) => hub.onAppend(listener),
    (listener) => onTailAppend(live.tail, listener),
  );
  return {
    url: server.url,
    port: server.port,
    hub,
    store,
    server,
    live,
    mcp,
    yjs,
    push,
    close: async () => {
      await push.close();
      await hub.search.stopIndexing();
      await yjs.close();
      await mcp.close();
      await live.close();
      await server.close();
      await store.close();
    },
  };
}
