import { statSync } from 'node:fs';
import { openSqliteStore } from 'baton';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
// The migration set itself (not part of the package's API): the benchmark
// stops a fresh database at the first migration, then times the rest.
import { MIGRATION_NAMES, migrationProvider } from '../../../packages/server/src/store/migrations/index.js';
import { rawConnection } from './sqlite-files.js';

export interface MigrationResult {
  /** Size of the database before migrating. */
  bytes: number;
  events: number;
  from: string;
  steps: { name: string; ms: number }[];
  /** Wall time of store.migrate(), all pending steps. */
  ms: number;
  /** One full scan of the events table on the same file: the least a table rewrite would cost. */
  scanMs: number;
  buildSeconds: number;
}

/**
 * The newest migrations on a large store. A database at the first migration
 * is filled with the big timeline store's rows (copied in SQL, column by
 * column, so it works whatever later migrations add), then the store is
 * opened and migrated to the newest, timed.
 */
export async function migrationBench(dir: string, file: string, sourceFile: string): Promise<MigrationResult> {
  const t0 = performance.now();
  const from = MIGRATION_NAMES[0] as string;
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: db }) });
  const { error } = await new Migrator({ db: kysely, provider: migrationProvider }).migrateTo(from);
  await kysely.destroy();
  if (error) throw error;

  const copy = rawConnection(file);
  copy.prepare('ATTACH DATABASE ? AS src').run(sourceFile);
  const columnsOf = (schema: string, table: string) =>
    (copy.prepare(`SELECT name FROM pragma_table_info(?, ?)`).all(table, schema) as { name: string }[]).map((c) => c.name);
  copy.transaction(() => {
    for (const table of ['contexts', 'tasks', 'events']) {
      const theirs = new Set(columnsOf('src', table));
      const shared = columnsOf('main', table).filter((c) => theirs.has(c));
      copy.exec(`INSERT INTO main.${table} (${shared.join(', ')}) SELECT ${shared.join(', ')} FROM src.${table}`);
    }
    // Only the counters the first migration made: later ones add their own.
    copy.exec(`UPDATE main.counters SET value = (SELECT s.value FROM src.counters s WHERE s.name = main.counters.name)
               WHERE name IN (SELECT name FROM src.counters)`);
  })();
  copy.exec('DETACH DATABASE src');
  copy.pragma('wal_checkpoint(TRUNCATE)');
  const events = (copy.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  copy.close();
  const bytes = statSync(file).size;
  const buildSeconds = (performance.now() - t0) / 1000;

  const store = openSqliteStore({ dataDir: dir });
  const steps: { name: string; ms: number }[] = [];
  const started = performance.now();
  try {
    await store.migrate((step) => {
      if (step.status === 'done') steps.push({ name: step.name, ms: step.ms ?? Number.NaN });
    });
  } finally {
    await store.close();
  }
  const ms = performance.now() - started;

  const scan = rawConnection(file, { readonly: true });
  const s0 = performance.now();
  scan.prepare('SELECT sum(length(body)) FROM events').get();
  const scanMs = performance.now() - s0;
  scan.close();
  return { bytes, events, from, steps, ms, scanMs, buildSeconds };
}
