import { type HubServer, type HubServerOptions, type ServeConfig, startHubServer } from '../hub-server.js';
import { createLogger } from '../log.js';
import { tempDir } from './databases.js';

/** Work a test registers to undo after it runs (newest first). */
export type Cleanup = () => Promise<void> | void;

export type StartServer = (config?: Partial<ServeConfig>, options?: HubServerOptions) => Promise<HubServer>;

/**
 * Returns a `startServer` that starts a real `baton serve` stack on 127.0.0.1
 * port 0 — over SQLite in a fresh temp dir unless the config names a data dir
 * or a database — and registers its shutdown in `cleanups`.
 */
export function hubServerStarter(cleanups: Cleanup[], defaults: HubServerOptions = {}): StartServer {
  const log = createLogger('silent');
  return async (config = {}, options = defaults) => {
    let dataDir = config.dataDir;
    if (!dataDir && !config.databaseUrl) {
      const tmp = tempDir();
      cleanups.push(() => tmp.remove());
      dataDir = tmp.dir;
    }
    const server = await startHubServer(
      {
        dataDir: dataDir ?? '/nonexistent',
        databaseUrl: undefined,
        host: '127.0.0.1',
        port: 0,
        token: undefined,
        bodyLimit: 8 << 20,
        ...config,
      },
      log,
      options,
    );
    // Closing twice (a test restarting the server, then the cleanup) closes once.
    const close = server.close;
    let closing: Promise<void> | null = null;
    server.close = () => {
      closing ??= close();
      return closing;
    };
    cleanups.push(() => server.close());
    return server;
  };
}
