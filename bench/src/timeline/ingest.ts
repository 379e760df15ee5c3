import { Hub, localCaller } from 'baton';
import type { BenchScale } from '../scale.js';
import { ACTORS, activityEvent, benchId, type PreparedEvent, prepare, seeded } from './events.js';
import { freshStore, rawConnection, scratchDir } from './sqlite-files.js';
import { median } from './stats.js';

const BATCH = 1000;
const caller = localCaller({ id: 'bench', name: 'bench', runtime: 'bench', role: 'agent' });

export interface IngestResult {
  rows: number;
  reps: number;
  /** rows/s per repetition */
  hub: number[];
  store: number[];
  raw: number[];
}

/**
 * Batch ingest, three ways over the same rows, interleaved per repetition so
 * machine noise hits all three alike:
 *  - hub.appendEvents, 1,000 per call: validation, id checks, the store;
 *  - the store's own appendEvents, 1,000 per transaction, events prepared beforehand;
 *  - raw better-sqlite3: one prepared INSERT of the same rows (as the store
 *    wrote them), one transaction per 1,000, same schema, indexes and pragmas.
 */
export async function ingestBench(scale: BenchScale): Promise<IngestResult> {
  const rows = scale.pick(10_000, 100_000);
  const reps = scale.pick(3, 5);
  const result: IngestResult = { rows, reps, hub: [], store: [], raw: [] };
  for (let rep = 0; rep < reps; rep++) {
    const rand = seeded(rep + 1);
    const inputs = Array.from({ length: rows }, () => activityEvent(rand, []));
    const { rate: hubRate, rows: stored } = await viaHub(inputs);
    result.hub.push(hubRate);
    result.store.push(await viaStore(inputs));
    result.raw.push(await viaRawSqlite(stored));
  }
  return result;
}

/** Medians, for the table. */
export function ingestMedians(r: IngestResult) {
  return { hub: median(r.hub), store: median(r.store), raw: median(r.raw) };
}

async function viaHub(inputs: readonly unknown[]): Promise<{ rate: number; rows: Record<string, unknown>[] }> {
  const scratch = scratchDir('ingest-hub');
  const store = await freshStore(scratch.dir);
  try {
    const hub = new Hub(store);
    const context = await hub.createContext({ title: 'ingest' }, caller);
    const t0 = performance.now();
    for (let i = 0; i < inputs.length; i += BATCH) await hub.appendEvents(context.id, inputs.slice(i, i + BATCH), caller);
    const seconds = (performance.now() - t0) / 1000;
    await store.close();
    // The rows exactly as the store wrote them: the raw reference inserts these.
    const db = rawConnection(scratch.file, { readonly: true });
    const rows = db.prepare('SELECT * FROM events ORDER BY seq').all() as Record<string, unknown>[];
    db.close();
    return { rate: inputs.length / seconds, rows };
  } finally {
    await store.close().catch(() => {});
    scratch.remove();
  }
}

async function viaStore(inputs: readonly Parameters<typeof prepare>[0][]): Promise<number> {
  const scratch = scratchDir('ingest-store');
  const store = await freshStore(scratch.dir);
  try {
    const hub = new Hub(store);
    const context = await hub.createContext({ title: 'ingest' }, caller);
    const prepared: PreparedEvent[] = inputs.map((input) => prepare({ actor: ACTORS[0], ...input }, context.id, benchId()));
    const t0 = performance.now();
    for (let i = 0; i < prepared.length; i += BATCH) {
      const batch = prepared.slice(i, i + BATCH);
      await store.write((tx) => tx.appendEvents(batch, Date.now()));
    }
    return inputs.length / ((performance.now() - t0) / 1000);
  } finally {
    await store.close();
    scratch.remove();
  }
}

async function viaRawSqlite(rows: readonly Record<string, unknown>[]): Promise<number> {
  const scratch = scratchDir('ingest-raw');
  try {
    // Same schema and indexes: migrate through the store, then write around it.
    await (await freshStore(scratch.dir)).close();
    const db = rawConnection(scratch.file);
    const columns = Object.keys(rows[0] ?? {});
    const insert = db.prepare(`INSERT INTO events (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
    const chunk = db.transaction((part: readonly Record<string, unknown>[]) => {
      for (const row of part) insert.run(row);
    });
    const t0 = performance.now();
    for (let i = 0; i < rows.length; i += BATCH) chunk(rows.slice(i, i + BATCH));
    const seconds = (performance.now() - t0) / 1000;
    db.close();
    return rows.length / seconds;
  } finally {
    scratch.remove();
  }
}
