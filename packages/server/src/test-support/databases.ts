import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgresStore } from '../store/postgres/postgres-store.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';

export interface StoreFactory {
  name: 'sqlite' | 'postgres';
  /** Skip reason when this store cannot run here. */
  unavailable: string | null;
  /** A fresh, migrated, empty store; `cleanup` removes it. */
  create(): Promise<{ store: Store; cleanup: () => Promise<void> }>;
}

export function tempDir(prefix = 'baton-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A new empty database on the test server, dropped by `drop`. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = inject('postgresUrl');
  if (!base) throw new Error('no PostgreSQL server for this test run');
  const name = `baton_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export const sqliteFactory: StoreFactory = {
  name: 'sqlite',
  unavailable: null,
  async create() {
    const tmp = tempDir();
    const store = openSqliteStore({ dataDir: tmp.dir });
    await store.migrate();
    return {
      store,
      cleanup: async () => {
        await store.close();
        tmp.remove();
      },
    };
  },
};

export function postgresFactory(): StoreFactory {
  const url = inject('postgresUrl');
  return {
    name: 'postgres',
    unavailable: url ? null : 'no PostgreSQL server (set BATON_TEST_PG_URL or install postgresql)',
    async create() {
      const db = await freshPostgresDatabase();
      const store = openPostgresStore({ url: db.url, maxConnections: 4 });
      await store.migrate();
      return {
        store,
        cleanup: async () => {
          await store.close();
          await db.drop();
        },
      };
    },
  };
}

export function storeFactories(): StoreFactory[] {
  return [sqliteFactory, postgresFactory()];
}
