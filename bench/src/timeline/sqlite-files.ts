import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore, SQLITE_FILE, type Store, sqliteFileSize } from 'baton';
import Database from 'better-sqlite3';

/** A temporary data directory for one store; `remove` deletes it. */
export function scratchDir(prefix: string): { dir: string; file: string; remove: () => void } {
  const dir = mkdtempSync(join(process.env.BATON_BENCH_TMP ?? tmpdir(), `baton-bench-${prefix}-`));
  return { dir, file: join(dir, SQLITE_FILE), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh SQLite store at the newest migration. */
export async function freshStore(dir: string): Promise<Store> {
  const store = openSqliteStore({ dataDir: dir });
  await store.migrate();
  return store;
}

/** A raw better-sqlite3 connection with the settings the store's writer uses. */
export function rawConnection(file: string, options: Database.Options = {}): Database.Database {
  const db = new Database(file, options);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -65536');
  return db;
}

/** File size after folding the WAL back in and compacting: what the data takes at rest. */
export function compactedSize(file: string): number {
  const db = new Database(file);
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return sqliteFileSize(file);
}
