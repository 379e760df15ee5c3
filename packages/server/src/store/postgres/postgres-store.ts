import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { KyselyStore } from '../kysely-store.js';
import type { Database as Schema } from '../schema.js';
import type { Store } from '../store.js';
import { CHANGES_CHANNEL, listenForChanges } from './change-listener.js';

export interface PostgresStoreOptions {
  /** postgres://user@host:port/database */
  url: string;
  /** Pool size (default 10). */
  maxConnections?: number;
}

const INT8_OID = 20;

/** Seqs and epoch milliseconds are bigint columns; both stay below 2^53, so numbers are exact. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function openPostgresStore(options: PostgresStoreOptions): Store {
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, types });
  // An idle client's socket error must not crash the server; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return new KyselyStore({
    dialect: 'postgres',
    writer: db,
    onAppendCommit: async (trx) => {
      await sql`select pg_notify(${CHANGES_CHANNEL}, '')`.execute(trx);
    },
    watchChanges: (listener) => listenForChanges(options.url, listener),
    sizeOnDisk: async () => {
      const { rows } = await sql<{ bytes: number }>`
        select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as bytes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind = 'r'`.execute(db);
      return Number(rows[0]?.bytes ?? 0);
    },
  });
}
