import { join } from 'node:path';
import { Hub, localCaller, SQLITE_FILE } from 'baton';
import { benchId, type PreparedEvent, prepare, seeded, timelineEvent } from './events.js';
import { freshStore, rawConnection } from './sqlite-files.js';

const caller = localCaller({ id: 'bench', name: 'bench', runtime: 'bench', role: 'agent' });

export interface TimelineStore {
  /** The context the reads are measured on. */
  contextId: string;
  contextEvents: number;
  events: number;
  contexts: number;
  buildSeconds: number;
  bytes: number;
  /** The search index was marked caught up instead of being built (see below). */
  searchSkipped: boolean;
}

/**
 * A large store built fast through the store's own append (1,000 events per
 * transaction, no per-event validation round trips): `events` timeline events
 * spread over `contexts` contexts, one of which holds `share` of them,
 * interleaved with the rest, stamped over the last 30 days.
 */
export async function buildTimelineStore(dir: string, events: number, contexts = 100, share = 0.1): Promise<TimelineStore> {
  const t0 = performance.now();
  const store = await freshStore(dir);
  try {
    const hub = new Hub(store);
    const contextIds: string[] = [];
    for (let i = 0; i < contexts; i++) contextIds.push((await hub.createContext({ title: `context ${i}` }, caller)).id);
    const target = contextIds[0] as string;
    const taskIds: string[] = [];
    for (let i = 0; i < 5; i++) taskIds.push((await hub.createTask(target, { title: `task ${i}` }, caller)).id);
    const rand = seeded(2026);
    const span = 30 * 86_400_000;
    const start = Date.now() - span;
    let targetCount = 0;
    for (let done = 0; done < events; ) {
      const n = Math.min(1000, events - done);
      const batch: PreparedEvent[] = [];
      for (let i = 0; i < n; i++) {
        const inTarget = rand() < share;
        const contextId = inTarget ? target : (contextIds[1 + Math.floor(rand() * (contexts - 1))] as string);
        if (inTarget) targetCount += 1;
        batch.push(prepare(timelineEvent(rand, inTarget ? taskIds : []), contextId, benchId()));
      }
      const now = start + Math.floor((span * done) / events);
      await store.write((tx) => tx.appendEvents(batch, now));
      done += n;
    }
    const bytes = await store.sizeOnDisk();
    await store.close();
    const searchSkipped = skipSearchBackfill(join(dir, SQLITE_FILE));
    return {
      contextId: target,
      contextEvents: targetCount,
      events,
      contexts,
      buildSeconds: (performance.now() - t0) / 1000,
      bytes,
      searchSkipped,
    };
  } finally {
    await store.close().catch(() => {});
  }
}

/**
 * `baton serve` indexes events for full-text search in the background; on a
 * store built in bulk it would spend minutes backfilling a million events
 * while reads are being timed. Moving the index's watermark to the head
 * (the `search` counter) takes that one-off job out of the measurement; tail
 * reads never touch the search index.
 */
function skipSearchBackfill(file: string): boolean {
  const db = rawConnection(file);
  try {
    const changed = db
      .prepare(`UPDATE counters SET value = (SELECT value FROM counters WHERE name = 'events') WHERE name = 'search'`)
      .run();
    return changed.changes > 0;
  } finally {
    db.close();
  }
}
