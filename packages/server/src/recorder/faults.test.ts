import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localCaller } from '../hub/caller.js';
import { Hub } from '../hub/hub.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { tempDir } from '../test-support/databases.js';
import { memoryLogger, startTestHub, type TestHub, unreachableUrl } from '../test-support/recorder-harness.js';
import { createRecorder, type Recorder } from './index.js';

/**
 * Recording must never break or stall the pipeline: every case runs the same
 * little "pipeline" (ten calls, results collected) against a broken sink and
 * checks that it returns exactly what it returns with no recorder at all.
 */
const CALLS = 10;
const expected = Array.from({ length: CALLS }, (_, i) => `answer ${i}`);

async function pipeline(rec: Recorder): Promise<string[]> {
  const results: string[] = [];
  for (let i = 0; i < CALLS; i++) results.push(await rec.call({ phase: 'execute', round: i }, `prompt ${i}`, async () => `answer ${i}`));
  return results;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const caller = localCaller({ id: 'test', name: null, runtime: null, role: 'user' });

/** A real SQLite store, migrated, whose every write fails the way better-sqlite3 reports a full disk. */
async function diskFullStore(): Promise<{ store: Store; real: Store }> {
  const tmp = tempDir();
  const real = openSqliteStore({ dataDir: tmp.dir });
  await real.migrate();
  cleanups.push(async () => {
    await real.close();
    tmp.remove();
  });
  const store = new Proxy(real, {
    get(target, prop) {
      if (prop === 'write') return () => Promise.reject(new Database.SqliteError('database or disk is full', 'SQLITE_FULL'));
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, real };
}

/** A TCP server that accepts connections and never answers. */
async function silentHub(): Promise<{ url: string; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const silent: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        silent.close(() => resolve());
      }),
  );
  const { port } = silent.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, sockets };
}

/** The lines of a recorder's journal file: its header, then one per turn it still holds. */
function journalLines(rec: Recorder): string[] {
  return readFileSync(rec.journalPath as string, 'utf8')
    .trim()
    .split('\n');
}

/** A journal directory of the test's own. */
function journal(): string {
  const tmp = tempDir('baton-journal-');
  cleanups.push(() => tmp.remove());
  return tmp.dir;
}

/**
 * A hub that goes down mid-test and comes back on the same port and data:
 * `down()` stops it; `back(rec)` starts it again and waits until `rec` has
 * stored everything (flush gives up at the first failed attempt, and a pooled
 * connection to the old server may be one, so it tries a few times).
 */
async function hubWithOutage(): Promise<{ url: string; down(): Promise<void>; back(rec: Recorder): Promise<TestHub> }> {
  const first = await startTestHub();
  const { dataDir } = first;
  const port = first.server.port;
  return {
    url: first.url,
    down: () => first.server.close(),
    async back(rec) {
      const second = await startTestHub({ port, dataDir });
      cleanups.push(() => second.close());
      let flushed = false;
      for (let attempt = 0; attempt < 5 && !flushed; attempt++) flushed = await rec.flush(2000);
      expect(flushed).toBe(true);
      return second;
    },
  };
}

describe('recording faults never reach the pipeline', () => {
  it('a store that fails every write (disk full): same results, failures counted and logged, nothing stored', async () => {
    const { store, real } = await diskFullStore();
    const logger = memoryLogger();
    const rec = createRecorder({ hub: new Hub(store), contextId: 'full', logger });
    const started = performance.now();
    expect(await pipeline(rec)).toEqual(expected);
    // The first failed write pauses recording; later calls do not wait for it.
    expect(performance.now() - started).toBeLessThan(1000);
    const stats = rec.stats();
    expect(stats).toMatchObject({ calls: CALLS, turnsWritten: 0, turnsPending: CALLS * 2 });
    expect(stats.writeFailures).toBeGreaterThanOrEqual(1);
    expect(stats.lastError).toBe('SqliteError: database or disk is full');
    expect(logger.entries.find((e) => e.level === 'warn')?.message).toBe('recording is failing; turns are kept in memory and retried');
    await rec.close(300);
    expect(rec.stats()).toMatchObject({ turnsPending: 0, turnsDropped: CALLS * 2 });
    expect(await new Hub(real).listContexts({}, caller)).toEqual({ contexts: [], nextCursor: null });
  });

  it('a closed store (every statement fails inside better-sqlite3): same results', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.remove());
    const store = openSqliteStore({ dataDir: tmp.dir });
    await store.migrate();
    await store.close();
    const rec = createRecorder({ hub: new Hub(store), contextId: 'closed', logger: memoryLogger() });
    expect(await pipeline(rec)).toEqual(expected);
    expect(rec.stats().lastError).toBe('Error: driver has already been destroyed');
    await rec.close(100);
  });

  it('an unreachable hub (connection refused): same results, quickly', async () => {
    const rec = createRecorder({ url: await unreachableUrl(), contextId: 'nowhere', logger: memoryLogger(), journalDir: journal() });
    const started = performance.now();
    expect(await pipeline(rec)).toEqual(expected);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await rec.flush(1000)).toBe(false);
    expect(rec.stats().lastError).toMatch(/^unavailable: cannot reach the baton hub/);
    await rec.close(100);
    expect(rec.stats().turnsDropped).toBe(CALLS * 2);
  });

  it('a hub that accepts connections and never answers does not delay the pipeline: its prompts are journaled', async () => {
    const { url, sockets } = await silentHub();
    const rec = createRecorder({ url, contextId: 'silent-journaled', writeTimeoutMs: 2000, logger: memoryLogger(), journalDir: journal() });
    const started = performance.now();
    expect(await pipeline(rec)).toEqual(expected);
    // Waiting for the silent hub would take promptTimeoutMs (2 s by default) at least once.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(rec.stats().promptsNotConfirmed).toBe(0);
    // The writes did go out; the hub just never answers them.
    await vi.waitFor(() => expect(sockets.size).toBeGreaterThan(0));
    // Every turn is in the journal, left there for the next recorder since none was stored.
    const lines = journalLines(rec);
    expect(lines).toHaveLength(1 + CALLS * 2);
    await rec.close(50);
  });

  it('with waitForPrompt: true, a hub that accepts connections and never answers delays the pipeline once, by promptTimeoutMs at most', async () => {
    const { url } = await silentHub();
    const rec = createRecorder({
      url,
      contextId: 'silent',
      waitForPrompt: true,
      promptTimeoutMs: 200,
      writeTimeoutMs: 2000,
      logger: memoryLogger(),
    });
    const started = performance.now();
    expect(await pipeline(rec)).toEqual(expected);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1000);
    expect(rec.stats().promptsNotConfirmed).toBe(CALLS);
    await rec.close(50);
  });

  it('a provider that throws while the hub is down: the same error object reaches the pipeline', async () => {
    const rec = createRecorder({ url: await unreachableUrl(), contextId: 'both-down', logger: memoryLogger(), journalDir: journal() });
    const failure = new TypeError('fetch failed');
    await expect(rec.call({}, 'p', () => Promise.reject(failure))).rejects.toBe(failure);
    expect(rec.stats().providerErrors).toBe(1);
    await rec.close(50);
  });

  it('turns recorded while the hub is down are written, in order and once, when it comes back', async () => {
    const hub = await hubWithOutage();
    const rec = createRecorder({ url: hub.url, contextId: 'outage', logger: memoryLogger(), journalDir: journal() });
    expect(await rec.call({ round: 0 }, 'before', () => 'a')).toBe('a');
    expect(await rec.flush()).toBe(true);
    await hub.down();
    expect(await rec.call({ round: 1 }, 'during', () => 'b')).toBe('b');
    expect(await rec.call({ round: 2 }, 'during', () => 'c')).toBe('c');
    expect(rec.stats().turnsPending).toBe(4);
    const second = await hub.back(rec);
    expect(await rec.call({ round: 3 }, 'after', () => 'd')).toBe('d');
    await rec.close();
    const turns = await second.turns('outage');
    expect(turns.map((t) => `${t.round}:${t.direction}`)).toEqual([0, 1, 2, 3].flatMap((r) => [`${r}:prompt`, `${r}:response`]));
    expect(rec.stats()).toMatchObject({ turnsWritten: 8, turnsPending: 0, turnsDropped: 0 });
  });

  it('an outage longer than the buffer moves the oldest turns out to the journal; all are written, in order and once, when the hub is back', async () => {
    const hub = await hubWithOutage();
    // A buffer of 4 turns: an outage of 6 calls (12 turns) overflows it.
    const rec = createRecorder({
      url: hub.url,
      contextId: 'long-outage',
      logger: memoryLogger(),
      journalDir: journal(),
      maxBufferedTurns: 4,
    });
    expect(await rec.call({ round: 0 }, 'before', () => 'a')).toBe('a');
    expect(await rec.flush()).toBe(true);
    await hub.down();
    for (let round = 1; round <= 6; round++) expect(await rec.call({ round }, 'during', () => String(round))).toBe(String(round));
    expect(rec.stats()).toMatchObject({ turnsPending: 12, turnsSpilled: 8, turnsDropped: 0 });
    const second = await hub.back(rec);
    const turns = await second.turns('long-outage');
    expect(turns.map((t) => `${t.round}:${t.direction}`)).toEqual([0, 1, 2, 3, 4, 5, 6].flatMap((r) => [`${r}:prompt`, `${r}:response`]));
    expect(turns.find((t) => t.round === 1 && t.direction === 'response')?.content).toEqual([{ type: 'text', text: '1' }]);
    // With everything stored, the journal is cut back to its header.
    expect(journalLines(rec)).toHaveLength(1);
    await rec.close();
    expect(rec.stats()).toMatchObject({ turnsWritten: 14, turnsPending: 0, turnsDropped: 0 });
  });

  it('without a journal, an outage longer than the buffer drops the oldest turns, counted and logged', async () => {
    const logger = memoryLogger();
    const rec = createRecorder({
      url: await unreachableUrl(),
      contextId: 'no-journal-outage',
      logger,
      journalDir: false,
      maxBufferedTurns: 4,
      promptTimeoutMs: 20,
    });
    for (let round = 1; round <= 4; round++) expect(await rec.call({ round }, 'during', () => String(round))).toBe(String(round));
    expect(rec.stats()).toMatchObject({ turnsPending: 4, turnsSpilled: 0, turnsDropped: 4 });
    expect(logger.entries.map((e) => e.message)).toContain('turns dropped: the buffer of unwritten turns is full');
    await rec.close(50);
  });

  it('a journal left behind with more than one request can carry is replayed in requests the hub accepts', async () => {
    const hub = await startTestHub();
    cleanups.push(() => hub.close());
    const dir = journal();
    // A process that has exited, and the journal it left: three 3 MB turns, 9 MB in all, past the hub's 8 MiB body limit.
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    const header = { journal: 'baton-recorder', version: 1, target: `url:${hub.url}`, contextId: 'big-replay', context: { title: 'big' } };
    const turns = ['a', 'b', 'c'].map((t) => ({
      id: `big-${t}`,
      kind: 'turn',
      direction: 'prompt',
      content: [{ type: 'text', text: t.repeat(3_000_000) }],
    }));
    writeFileSync(
      join(dir, `${dead}-01JBIGREPLAY0000000000000000.jsonl`),
      `${[header, ...turns].map((l) => JSON.stringify(l)).join('\n')}\n`,
    );
    const rec = createRecorder({ url: hub.url, contextId: 'other', logger: memoryLogger(), journalDir: dir });
    await vi.waitFor(() => expect(rec.stats().turnsReplayed).toBe(3), { timeout: 15_000, interval: 100 });
    expect((await hub.turns('big-replay')).map((t) => t.id)).toEqual(['big-a', 'big-b', 'big-c']);
    await rec.close();
  });

  it('closing while a write hangs: that write is not retried afterwards, and its turns stay in the journal for the next recorder', async () => {
    const { url } = await silentHub();
    const rec = createRecorder({ url, contextId: 'closing', writeTimeoutMs: 300, logger: memoryLogger(), journalDir: journal() });
    expect(await rec.call({}, 'prompt', () => 'answer')).toBe('answer');
    await rec.close(50);
    const atClose = rec.stats().writeFailures;
    // The hanging write times out once (300 ms); a retry would add another failure every 300 ms plus backoff.
    await sleep(1500);
    expect(rec.stats().writeFailures).toBe(atClose + 1);
    expect(rec.stats()).toMatchObject({ turnsWritten: 0, turnsDropped: 2 });
    expect(journalLines(rec)).toHaveLength(3);
  });

  it('a journal that filled up during an outage is cut back once everything is stored, and journals prompts again', async () => {
    const hub = await hubWithOutage();
    const rec = createRecorder({
      url: hub.url,
      contextId: 'journal-full',
      logger: memoryLogger(),
      journalDir: journal(),
      maxBufferedTurns: 4,
      maxJournalBytes: 2000,
      promptTimeoutMs: 200,
    });
    expect(await rec.call({ round: 0 }, 'before', () => 'a')).toBe('a');
    expect(await rec.flush()).toBe(true);
    await hub.down();
    // A 2,000-byte journal holds a few turns; past it turns are kept in memory only, and past 4 of those dropped.
    for (let round = 1; round <= 6; round++) expect(await rec.call({ round }, 'during', () => String(round))).toBe(String(round));
    expect(rec.stats().turnsDropped).toBeGreaterThan(0);
    await hub.back(rec);
    const path = rec.journalPath as string;
    expect(journalLines(rec)).toHaveLength(1);
    let seenByProvider = '';
    await rec.call({ round: 7 }, 'after', () => {
      seenByProvider = readFileSync(path, 'utf8');
      return 'z';
    });
    expect(seenByProvider).toContain('"round":7');
    await rec.close();
  });
});
