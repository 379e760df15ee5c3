import { Command, Option } from 'commander';
import type { Config } from '../config.js';
import { type HubServer, startHubServer } from '../hub-server.js';
import { createLogger, type Logger } from '../log.js';
import { configFrom, parsePort, type StoreFlags, storeOptions } from './options.js';

export function serveCommand(): Command {
  return storeOptions(
    new Command('serve')
      .description('run the hub: REST API, live feed, MCP, A2A and the web UI on one port')
      .addOption(
        new Option('-p, --port <port>', 'port to listen on, 0 for any free one (env BATON_PORT, default 7337)').argParser(parsePort),
      )
      .addOption(new Option('--host <host>', 'address to bind (env BATON_HOST, default 127.0.0.1); others need --token'))
      .addOption(new Option('--token <token>', 'require this bearer token on every request (env BATON_TOKEN)')),
  ).action(async (flags: StoreFlags & { port?: number; host?: string; token?: string }) => {
    let config: Config;
    let hub: HubServer;
    let log: Logger | undefined;
    try {
      config = configFrom(flags);
      log = createLogger(config.logLevel);
      hub = await startHubServer(config, log);
    } catch (error) {
      log?.flush();
      process.stderr.write(`baton serve: ${(error as Error).message}\n`);
      process.exit(1);
    }
    const where = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
    process.stdout.write(`baton listening on ${hub.url} (store: ${where})\n`);
    log.info({ url: hub.url, store: hub.store.dialect }, 'listening');
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'shutting down');
      try {
        await hub.close();
      } catch (error) {
        process.stderr.write(`baton serve: shutting down failed: ${(error as Error).message}\n`);
        process.exitCode = 1;
      }
      log.flush();
      process.exit();
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
  });
}
