import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export interface StoreConfig {
  /** A postgres:// URL; when absent, embedded SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
}

export function openStore(config: StoreConfig): Store {
  if (config.databaseUrl) return openPostgresStore({ url: config.databaseUrl });
  return openSqliteStore({ dataDir: config.dataDir });
}
