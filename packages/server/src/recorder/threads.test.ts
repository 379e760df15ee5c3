import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { BatonError } from '@baton/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonClient } from '../client/baton-client.js';
import { localCaller } from '../hub/caller.js';
import { Hub } from '../hub/hub.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { tempDir } from '../test-support/databases.js';
import { memoryLogger, startTestHub, type TestHub } from '../test-support/recorder-harness.js';
import { createRecorder, MAX_TURNS_PER_PAGE, promptIdOf, type Recorder, responseIdOf } from './index.js';

let hub: TestHub;
let rec: Recorder;
const callIds: string[] = [];
const CALLS = 600;

beforeAll(async () => {
  hub = await startTestHub();
  rec = createRecorder({ url: hub.url, contextId: 'long-thread', logger: memoryLogger(), waitForPrompt: false });
  for (let i = 0; i < CALLS; i++) {
    const callId = rec.newCallId();
    callIds.push(callId);
    await rec.call({ callId, phase: i % 2 === 0 ? 'plan' : 'review', round: i, stepId: `step-${i}` }, `prompt ${i}`, () => `answer ${i}`);
  }
  expect(await rec.flush(10_000)).toBe(true);
});
afterAll(async () => {
  await rec.close();
  await hub.close();
});

describe('a thread of 1,200 turns', () => {
  it('lists the latest 1,000 oldest first, with a cursor for the earlier page', async () => {
    const tail = await rec.listTurns();
    expect(tail.turns).toHaveLength(MAX_TURNS_PER_PAGE);
    expect(tail.turns[0]?.id).toBe(promptIdOf(callIds[100] as string));
    expect(tail.turns.at(-1)?.id).toBe(responseIdOf(callIds[CALLS - 1] as string));
    expect(tail.turns.every((t, i, all) => i === 0 || t.seq > (all[i - 1]?.seq ?? 0))).toBe(true);
    expect(tail.earlier).not.toBeNull();

    const head = await rec.listTurns({ before: tail.earlier as string });
    expect(head.turns).toHaveLength(200);
    expect(head.earlier).toBeNull();
    const all = [...head.turns, ...tail.turns];
    expect(all.map((t) => t.id)).toEqual(callIds.flatMap((id) => [promptIdOf(id), responseIdOf(id)]));
    expect(all.map((t) => Date.parse(t.createdAt))).toEqual(all.map((t) => Date.parse(t.createdAt)).sort((a, b) => a - b));
  });

  it('filters by phase and role', async () => {
    const page = await rec.listTurns({ phase: 'plan', role: 'response' });
    expect(page.turns).toHaveLength(CALLS / 2);
    expect(page.turns.every((t) => t.phase === 'plan' && t.direction === 'response')).toBe(true);
    expect(page.earlier).toBeNull();
    const both = await rec.listTurns({ phase: ['plan', 'review'], role: 'prompt', limit: 10 });
    expect(both.turns.map((t) => t.round)).toEqual([590, 591, 592, 593, 594, 595, 596, 597, 598, 599]);
    expect(both.earlier).not.toBeNull();
  });

  it("lists a step's turns, and finds a call's pair by its id", async () => {
    const step = await rec.listStep('step-42');
    expect(step.turns.map((t) => t.id)).toEqual([promptIdOf(callIds[42] as string), responseIdOf(callIds[42] as string)]);
    const pair = await rec.conversation(callIds[42] as string);
    expect(pair.prompt?.content).toEqual([{ type: 'text', text: 'prompt 42' }]);
    expect(pair.response?.content).toEqual([{ type: 'text', text: 'answer 42' }]);
    expect(await rec.conversation('no-such-call')).toEqual({ callId: 'no-such-call', prompt: null, response: null });
  });

  it('rejects a bad cursor or limit with a clear error', async () => {
    await expect(rec.listTurns({ before: 'yesterday' })).rejects.toThrow(/before: must be a page's `earlier` cursor/);
    await expect(rec.listTurns({ limit: 1001 })).rejects.toThrow(/limit: must be an integer from 1 to 1000/);
  });
});

describe('deleting a thread', () => {
  it('removes its turns', async () => {
    const other = createRecorder({ url: hub.url, contextId: 'short-lived', logger: memoryLogger() });
    const callId = other.newCallId();
    await other.call({ callId }, 'p', () => 'r');
    await other.flush();
    const client = new BatonClient({ url: hub.url });
    expect(await client.deleteContext('short-lived')).toEqual({ deleted: { events: 2, tasks: 0, checkpoints: 0 } });
    expect(await other.conversation(callId)).toEqual({ callId, prompt: null, response: null });
    const error = await other.listTurns().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatonError);
    expect((error as BatonError).code).toBe('not_found');
    await other.close();
  });
});

/** A thread as the SQLite file in `dir` holds it, read by a hub of the test's own. */
async function inFile(dir: string, contextId: string): Promise<{ title: string | null; directions: (string | false)[] }> {
  const store = openSqliteStore({ dataDir: dir });
  try {
    const hub = new Hub(store);
    const caller = localCaller({ id: 'reader', name: null, runtime: null, role: 'user' });
    const page = await hub.listEvents(contextId, { kind: 'turn' }, caller);
    return { title: (await hub.getContext(contextId, caller)).title, directions: page.events.map((e) => e.kind === 'turn' && e.direction) };
  } finally {
    await store.close();
  }
}

describe('embedded mode (dataDir)', () => {
  it('goes on while another process holds the database locked, and stores every turn in order once it is free', async () => {
    const tmp = tempDir();
    try {
      const rec = createRecorder({ dataDir: tmp.dir, contextId: 'locked', logger: memoryLogger() });
      await rec.call({ round: 0 }, 'before', () => 'a');
      expect(await rec.flush()).toBe(true);
      // Another process's write transaction holds the lock.
      const other = new Database(join(tmp.dir, 'baton.db'));
      other.prepare('BEGIN IMMEDIATE').run();
      const started = performance.now();
      // A provider that waits on I/O, as a model call does: the event loop turns, and the recorder's writes run meanwhile.
      const provider = async (round: number) => {
        await sleep(20);
        return String(round);
      };
      for (let round = 1; round <= 3; round++) expect(await rec.call({ round }, 'while locked', () => provider(round))).toBe(String(round));
      expect(performance.now() - started).toBeLessThan(1000);
      other.prepare('ROLLBACK').run();
      other.close();
      let flushed = false;
      for (let attempt = 0; attempt < 10 && !flushed; attempt++) flushed = await rec.flush(2000);
      expect(flushed).toBe(true);
      expect((await rec.listTurns()).turns.map((t) => `${t.round}:${t.direction}`)).toEqual(
        [0, 1, 2, 3].flatMap((r) => [`${r}:prompt`, `${r}:response`]),
      );
      await rec.close();
    } finally {
      tmp.remove();
    }
  });

  it('lets a pipeline that never closes its recorder exit, with both turns stored, whatever flags it runs with', async () => {
    const tmp = tempDir();
    try {
      // The built recorder, as a pipeline imports it; --input-type would break a store worker that inherited it.
      const script = `
        import { createRecorder } from 'baton/recorder';
        const rec = createRecorder({ dataDir: ${JSON.stringify(tmp.dir)}, contextId: 'never-closed' });
        const answer = await rec.call({ phase: 'plan' }, 'Plan.', async () => 'Planned.');
        console.log(answer);`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect({ status: child.status, stdout: child.stdout.trim() }).toEqual({ status: 0, stdout: 'Planned.' });
      expect((await inFile(tmp.dir, 'never-closed')).directions).toEqual(['prompt', 'response']);
    } finally {
      tmp.remove();
    }
  });

  it('opens the store itself, records, and leaves the turns in the SQLite file', async () => {
    const tmp = tempDir();
    try {
      const embedded = createRecorder({ dataDir: tmp.dir, contextId: 'no-server', context: { title: 'Run 7' }, logger: memoryLogger() });
      await embedded.call({ phase: 'plan' }, 'Plan.', () => 'Planned.');
      expect((await embedded.listTurns()).turns.map((t) => t.direction)).toEqual(['prompt', 'response']);
      await embedded.close();
      expect(await inFile(tmp.dir, 'no-server')).toEqual({ title: 'Run 7', directions: ['prompt', 'response'] });
    } finally {
      tmp.remove();
    }
  });
});
