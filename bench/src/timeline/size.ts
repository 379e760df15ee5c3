import { Hub, localCaller, openPostgresStore, type Store } from 'baton';
import Database from 'better-sqlite3';
import pg from 'pg';
import { activityEvent, seeded } from './events.js';
import { compactedSize, freshStore, scratchDir } from './sqlite-files.js';

const EVENTS = 10_000;
const caller = localCaller({ id: 'bench', name: 'bench', runtime: 'bench', role: 'agent' });

export interface SizeResult {
  events: number;
  /** On-disk bytes the events added, indexes included. */
  sqlite: number;
  /** The same events as JSON (what GET …/events returns), one after another. */
  json: number;
  /** Bytes per table and index after the run, for the notes. */
  breakdown: { name: string; bytes: number }[];
  postgres: number | null;
}

/**
 * On-disk bytes of 10,000 typical activity events: the store's size after
 * VACUUM and a WAL checkpoint, less the same store's size before they were
 * appended (schema, context and tasks).
 */
export async function sizeBench(): Promise<SizeResult> {
  const scratch = scratchDir('size');
  const store = await freshStore(scratch.dir);
  try {
    const { json, before } = await appendTypical(store, async () => compactedSize(scratch.file));
    const after = compactedSize(scratch.file);
    const db = new Database(scratch.file, { readonly: true });
    const breakdown = (
      db
        .prepare(
          `SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'event%' OR name LIKE 'sqlite_autoindex_events%' GROUP BY name ORDER BY bytes DESC`,
        )
        .all() as {
        name: string;
        bytes: number;
      }[]
    ).map((r) => ({ name: r.name, bytes: r.bytes }));
    db.close();
    return { events: EVENTS, sqlite: after - before, json, breakdown, postgres: await postgresSize() };
  } finally {
    await store.close();
    scratch.remove();
  }
}

/** A context with three tasks, then 10,000 typical activity events in batches of 1,000. */
async function appendTypical(store: Store, measureBaseline: () => Promise<number>): Promise<{ json: number; before: number }> {
  const hub = new Hub(store);
  const context = await hub.createContext({ title: 'size' }, caller);
  const taskIds: string[] = [];
  for (let i = 0; i < 3; i++) taskIds.push((await hub.createTask(context.id, { title: `task ${i}` }, caller)).id);
  // The full-text index is part of the footprint: `baton serve` keeps it filled in the background.
  await hub.search.indexer.catchUp();
  const before = await measureBaseline();
  const rand = seeded(42);
  let json = 0;
  for (let i = 0; i < EVENTS; i += 1000) {
    const inputs = Array.from({ length: 1000 }, () => activityEvent(rand, taskIds));
    const { events } = await hub.appendEvents(context.id, inputs, caller);
    for (const event of events) json += Buffer.byteLength(JSON.stringify(event));
  }
  await hub.search.indexer.catchUp();
  return { json, before };
}

/** The same on PostgreSQL when BATON_BENCH_PG_URL names a server: a scratch database, created and dropped. */
async function postgresSize(): Promise<number | null> {
  const base = process.env.BATON_BENCH_PG_URL;
  if (!base) return null;
  const name = `baton_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const store = openPostgresStore({ url: url.toString() });
  try {
    await store.migrate();
    const { before } = await appendTypical(store, () => vacuumAndSize(url.toString(), store));
    return (await vacuumAndSize(url.toString(), store)) - before;
  } finally {
    await store.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function vacuumAndSize(url: string, store: Store): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('vacuum analyze');
  await client.end();
  return store.sizeOnDisk();
}
