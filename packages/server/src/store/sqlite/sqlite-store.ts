import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { KyselyStore } from '../kysely-store.js';
import type { EventsTable, Database as Schema } from '../schema.js';
import type { Store } from '../store.js';
import { CachedSqliteDatabase } from './statement-cache.js';

export const SQLITE_FILE = 'baton.db';

export interface SqliteStoreOptions {
  /** The data directory; the database is `baton.db` inside it. */
  dataDir: string;
}

/**
 * Embedded store: one better-sqlite3 connection writes, a second one reads, in
 * WAL mode so readers never wait for the writer and see only committed data.
 * synchronous=NORMAL: a committed transaction survives the process being
 * killed (the WAL is in the OS's hands); only a power loss may drop the last
 * commits.
 */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, SQLITE_FILE);
  const writerDb = new Database(file);
  writerDb.pragma('journal_mode = WAL');
  writerDb.pragma('synchronous = NORMAL');
  writerDb.pragma('busy_timeout = 5000');
  writerDb.pragma('cache_size = -65536');
  const readerDb = new Database(file);
  readerDb.pragma('busy_timeout = 5000');
  readerDb.pragma('cache_size = -65536');
  readerDb.pragma('query_only = ON');

  const writer = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new CachedSqliteDatabase(writerDb) }) });
  const reader = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new CachedSqliteDatabase(readerDb) }) });
  return new KyselyStore({
    dialect: 'sqlite',
    writer,
    reader,
    insertEvents: eventInserter(writerDb),
    sizeOnDisk: async () => {
      writerDb.pragma('wal_checkpoint(TRUNCATE)');
      return sqliteFileSize(file);
    },
  });
}

/**
 * Appends rows with one prepared INSERT, run on the writer's connection from
 * inside the write transaction that Kysely has open on that same connection.
 */
function eventInserter(db: Database.Database): (rows: readonly EventsTable[]) => void {
  let insert: Database.Statement | undefined;
  return (rows) => {
    for (const row of rows) {
      if (!insert) {
        const columns = Object.keys(row);
        insert = db.prepare(`INSERT INTO events (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
      }
      insert.run(row);
    }
  };
}

/** Bytes of a database file and its WAL (absent after a TRUNCATE checkpoint). */
export function sqliteFileSize(file: string): number {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(file + suffix).size;
    } catch {
      // the WAL file may not exist
    }
  }
  return total;
}
