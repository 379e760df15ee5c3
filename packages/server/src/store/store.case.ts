import { BatonError, type Event } from '@baton/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Caller, localCaller } from '../hub/caller.js';
import { Hub } from '../hub/hub.js';
import type { StoreFactory } from '../test-support/databases.js';
import { MIGRATION_NAMES } from './migrations/index.js';
import type { Store } from './store.js';

const alice: Caller = localCaller({ id: 'alice', name: 'Alice', runtime: 'claude-code', role: 'agent' });
const bob: Caller = localCaller({ id: 'bob', name: 'Bob', runtime: 'codex', role: 'agent' });

const text = (t: string) => [{ type: 'text' as const, text: t }];

async function rejects(promise: Promise<unknown>): Promise<BatonError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BatonError);
    return error as BatonError;
  }
  throw new Error('expected a rejection');
}

/**
 * The conformance suite: the same body runs against every Store
 * implementation (sqlite-store.test.ts, postgres-store.test.ts), through the
 * hub that is the store's only caller.
 */
export function runStoreSuite(factory: StoreFactory): void {
  describe.skipIf(factory.unavailable !== null)(`store conformance: ${factory.name}`, () => {
    let store: Store;
    let hub: Hub;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await factory.create());
      // A clock that moves 1 ms per reading, so "most recent first" never ties.
      let clock = Date.now();
      hub = new Hub(store, { now: () => clock++ });
    });
    afterEach(async () => {
      await cleanup();
    });

    it('migrates idempotently and reports the newest migration', async () => {
      const report = await store.migrate();
      expect(report.applied).toEqual([]);
      expect(report.current).toBe(MIGRATION_NAMES.at(-1));
    });

    it('creates, lists, updates and gets contexts', async () => {
      const a = await hub.createContext({ id: 'ctx-a', title: 'Alpha', description: 'first' }, alice);
      expect(a.owner?.id).toBe('alice');
      await hub.createContext({ id: 'ctx-b', title: 'Beta plan' }, alice);
      await hub.updateContext('ctx-a', { title: 'Alpha 2' }, alice);
      const listed = await hub.listContexts({}, alice);
      expect(listed.contexts.map((c) => c.id)).toEqual(['ctx-a', 'ctx-b']);
      const searched = await hub.listContexts({ q: 'BETA' }, alice);
      expect(searched.contexts.map((c) => c.id)).toEqual(['ctx-b']);
      expect((await hub.getContext('ctx-a', alice)).title).toBe('Alpha 2');
      const dup = await rejects(hub.createContext({ id: 'ctx-a' }, alice));
      expect(dup.code).toBe('conflict');
      expect((await rejects(hub.getContext('nope', alice))).code).toBe('not_found');
    });

    it('pages contexts with a cursor', async () => {
      for (let i = 0; i < 5; i++) await hub.createContext({ id: `p${i}` }, alice);
      const first = await hub.listContexts({ limit: 2 }, alice);
      expect(first.contexts).toHaveLength(2);
      expect(first.nextCursor).not.toBeNull();
      const second = await hub.listContexts({ limit: 2, cursor: first.nextCursor }, alice);
      const third = await hub.listContexts({ limit: 2, cursor: second.nextCursor }, alice);
      const ids = [...first.contexts, ...second.contexts, ...third.contexts].map((c) => c.id);
      expect(new Set(ids).size).toBe(5);
      expect(third.nextCursor).toBeNull();
    });

    it('assigns increasing seqs and reads events back in order, with every kind intact', async () => {
      await hub.createContext({ id: 'c' }, alice);
      const turn = await hub.appendEvent(
        'c',
        {
          kind: 'turn',
          direction: 'response',
          phase: 'plan',
          round: 2,
          speaker: 'planner-a',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: { inputTokens: 10, outputTokens: 20, costUsd: 0.001 },
          content: [
            { type: 'thinking', thinking: 'hmm' },
            { type: 'tool_use', id: 'tu1', name: 'bash', input: { cmd: 'ls' } },
            { type: 'tool_result', toolUseId: 'tu1', content: [{ type: 'text', text: 'a.txt' }] },
            { type: 'text', text: 'done \u0000 with NUL, 日本語 and 🎉' },
          ],
          metadata: { nested: { list: [1, 'two', null] } },
        },
        alice,
      );
      const act = await hub.appendEvent('c', { kind: 'activity', activityType: 'milestone', content: text('shipped') }, bob);
      const note = await hub.appendEvent(
        'c',
        { kind: 'note', noteType: 'discovery', title: 'Found it', tags: ['db'], urgency: 'attention', scope: 'space' },
        alice,
      );
      expect(act.event.seq).toBeGreaterThan(turn.event.seq);
      expect(note.event.seq).toBeGreaterThan(act.event.seq);
      const page = await hub.listEvents('c', {}, alice);
      expect(page.events.map((e) => e.id)).toEqual([turn.event.id, act.event.id, note.event.id]);
      expect(page.events[0]).toEqual(turn.event);
      expect(page.events[1]).toEqual(act.event);
      expect(page.events[2]).toEqual(note.event);
      expect(await hub.getEvent(turn.event.id, bob)).toEqual(turn.event);
      const ctx = await hub.getContext('c', alice);
      expect(ctx.eventCount).toBe(3);
      expect(ctx.lastSeq).toBe(note.event.seq);
    });

    it('filters by kind, type, phase, direction, actor, task and seq/time ranges; tail gives the last N ascending', async () => {
      await hub.createContext({ id: 'f' }, alice);
      const task = await hub.createTask('f', { title: 'T' }, alice);
      const batch = [];
      for (let i = 0; i < 20; i++) {
        batch.push({
          kind: 'turn',
          direction: i % 2 ? 'response' : 'prompt',
          phase: i < 10 ? 'plan' : 'execute',
          round: i,
          content: text(`t${i}`),
        });
      }
      batch.push({ kind: 'activity', activityType: 'blocker', content: text('stuck'), taskId: task.id });
      batch.push({ kind: 'note', noteType: 'alert', title: 'Careful' });
      await hub.appendEvents('f', batch, bob);
      const all = (await hub.listEvents('f', { limit: 1000 }, alice)).events;
      expect(all).toHaveLength(23); // + the task-created record
      const seqs = all.map((e) => e.seq);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

      expect((await hub.listEvents('f', { kind: 'turn' }, alice)).events).toHaveLength(20);
      expect((await hub.listEvents('f', { kind: 'activity,note' }, alice)).events).toHaveLength(3);
      expect((await hub.listEvents('f', { activityType: 'blocker' }, alice)).events).toHaveLength(1);
      expect((await hub.listEvents('f', { noteType: 'alert' }, alice)).events).toHaveLength(1);
      expect((await hub.listEvents('f', { phase: 'execute', direction: 'prompt' }, alice)).events).toHaveLength(5);
      expect((await hub.listEvents('f', { actor: 'alice' }, alice)).events).toHaveLength(1);
      expect((await hub.listEvents('f', { taskId: task.id }, alice)).events).toHaveLength(2);

      const tail = await hub.listEvents('f', { tail: 5 }, alice);
      expect(tail.events.map((e) => e.seq)).toEqual(seqs.slice(-5));
      expect(tail.hasMore).toBe(true);
      const earlier = await hub.listEvents('f', { before: tail.prevBefore ?? 0, limit: 3 }, alice);
      expect(earlier.events.map((e) => e.seq)).toEqual(seqs.slice(-8, -5));

      const firstPage = await hub.listEvents('f', { limit: 10 }, alice);
      const secondPage = await hub.listEvents('f', { limit: 10, after: firstPage.nextAfter }, alice);
      expect([...firstPage.events, ...secondPage.events].map((e) => e.seq)).toEqual(seqs.slice(0, 20));
      expect(firstPage.hasMore).toBe(true);

      const at = all[0]?.createdAt as string;
      expect((await hub.listEvents('f', { since: at, limit: 1000 }, alice)).events.length).toBe(23);
      expect((await hub.listEvents('f', { until: at }, alice)).events).toHaveLength(0);
    });

    it('makes appends idempotent by writer id, and rejects a reused id with another body', async () => {
      await hub.createContext({ id: 'i' }, alice);
      const input = { id: '01JABCDEF0000000000000000A', kind: 'activity', activityType: 'agent_action', content: text('once') };
      const first = await hub.appendEvent('i', input, alice);
      const again = await hub.appendEvent('i', input, alice);
      expect(first.created).toBe(true);
      expect(again.created).toBe(false);
      expect(again.event).toEqual(first.event);
      const conflict = await rejects(hub.appendEvent('i', { ...input, content: text('other') }, alice));
      expect(conflict.code).toBe('conflict');
      expect((await hub.listEvents('i', {}, alice)).events).toHaveLength(1);
      const note = { id: 'note-1', kind: 'note', noteType: 'status', title: 'x', ttlSeconds: 60 };
      await hub.appendEvent('i', note, alice);
      expect((await hub.appendEvent('i', note, alice)).created).toBe(false);
    });

    it('stores a batch all-or-nothing, naming the bad event by index', async () => {
      await hub.createContext({ id: 'b' }, alice);
      const good = { kind: 'activity', activityType: 'agent_action', content: text('ok') };
      const error = await rejects(hub.appendEvents('b', [good, good, { kind: 'activity', activityType: 'bogus' }], alice));
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain('events.2.activityType');
      const reused = await rejects(
        hub.appendEvents(
          'b',
          [
            { ...good, id: 'x1' },
            { ...good, id: 'x1', content: text('different') },
          ],
          alice,
        ),
      );
      expect(reused.code).toBe('conflict');
      expect((await hub.listEvents('b', {}, alice)).events).toHaveLength(0);
      const batch = await hub.appendEvents(
        'b',
        Array.from({ length: 1000 }, () => good),
        alice,
      );
      expect(batch.events).toHaveLength(1000);
      expect((await hub.getContext('b', alice)).eventCount).toBe(1000);
    });

    it('rejects appends to unknown contexts and tasks, storing nothing', async () => {
      const missing = await rejects(hub.appendEvent('ghost', { kind: 'activity', activityType: 'milestone' }, alice));
      expect(missing.code).toBe('not_found');
      expect(missing.message).toContain('ghost');
      await hub.createContext({ id: 'k' }, alice);
      const noTask = await rejects(hub.appendEvent('k', { kind: 'activity', activityType: 'milestone', taskId: 'nope' }, alice));
      expect(noTask.code).toBe('not_found');
      expect((await hub.getContext('k', alice)).eventCount).toBe(0);
    });

    it('resolves blockers and consumes notes as recorded events', async () => {
      await hub.createContext({ id: 'r' }, alice);
      const blocker = await hub.appendEvent('r', { kind: 'activity', activityType: 'blocker', content: text('tests fail') }, alice);
      const { target, record } = await hub.resolveBlocker(blocker.event.id, { message: 'fixed the fixture' }, bob);
      expect(target.kind === 'activity' && target.resolved).toBe(true);
      expect(record.refs).toEqual([blocker.event.id]);
      const reread = await hub.getEvent(blocker.event.id, alice);
      expect(reread.kind === 'activity' && reread.resolvedBy?.actor.id).toBe('bob');
      expect(reread.kind === 'activity' && reread.resolvedBy?.eventId).toBe(record.id);
      expect((await rejects(hub.resolveBlocker(blocker.event.id, {}, bob))).code).toBe('conflict');
      expect((await rejects(hub.resolveBlocker(record.id, {}, bob))).code).toBe('invalid_argument');

      const note = await hub.appendEvent('r', { kind: 'note', noteType: 'request', title: 'Review PR' }, alice);
      await hub.consumeNote(note.event.id, {}, bob);
      const consumed = await hub.getEvent(note.event.id, alice);
      expect(consumed.kind === 'note' && consumed.consumed).toBe(true);
      const events = (await hub.listEvents('r', {}, alice)).events;
      expect(events.filter((e) => e.kind === 'activity' && e.activityType === 'system_event')).toHaveLength(2);
    });

    it('moves tasks through legal transitions only, recording each', async () => {
      await hub.createContext({ id: 't' }, alice);
      const task = await hub.createTask('t', { title: 'Build it', requiredCapabilities: ['bash'] }, alice);
      expect(task.state).toBe('submitted');
      await hub.updateTask(task.id, { state: 'working' }, alice);
      const done = await hub.updateTask(task.id, { state: 'completed', message: 'merged' }, alice);
      expect(done.state).toBe('completed');
      const illegal = await rejects(hub.updateTask(task.id, { state: 'working' }, alice));
      expect(illegal.code).toBe('illegal_transition');
      expect(illegal.message).toContain("'completed'");
      expect(illegal.message).toContain("'working'");
      const history = (await hub.listEvents('t', { taskId: task.id }, alice)).events;
      expect(history.map((e) => (e.metadata.baton as { op: string }).op)).toEqual(['task.created', 'task.state', 'task.state']);
      const child = await hub.createTask('t', { title: 'sub', parentTaskId: task.id }, alice);
      const listed = await hub.listTasks('t', { state: 'submitted' }, alice);
      expect(listed.tasks.map((t) => t.id)).toEqual([child.id]);
      await hub.updateTask(child.id, { artifacts: [{ id: 'a1', name: 'diff', parts: text('+1') }] }, alice);
      expect((await hub.getTask(child.id, alice)).artifacts[0]?.name).toBe('diff');
    });

    it('keeps private events within their runtime', async () => {
      await hub.createContext({ id: 'p' }, alice);
      await hub.appendEvent('p', { kind: 'activity', activityType: 'agent_action', visibility: 'private', content: text('secret') }, alice);
      await hub.appendEvent('p', { kind: 'activity', activityType: 'agent_action', content: text('public') }, alice);
      expect((await hub.listEvents('p', {}, alice)).events).toHaveLength(2);
      const seenByBob = (await hub.listEvents('p', {}, bob)).events;
      expect(seenByBob.map((e) => (e.content[0] as { text: string }).text)).toEqual(['public']);
    });

    it('stores checkpoints with artifacts and deletes a context with everything in it', async () => {
      await hub.createContext({ id: 'd' }, alice);
      await hub.createContext({ id: 'keep' }, alice);
      await hub.appendEvents(
        'd',
        [
          { kind: 'activity', activityType: 'milestone' },
          { kind: 'note', noteType: 'status', title: 's' },
        ],
        alice,
      );
      await hub.appendEvent('keep', { kind: 'activity', activityType: 'milestone' }, alice);
      await hub.createTask('d', { title: 'x' }, alice);
      const bytes = Buffer.from([0, 1, 2, 255]).toString('base64');
      const cp = await hub.createCheckpoint(
        {
          agentId: 'alice',
          contextId: 'd',
          label: 'after step 1',
          metadata: { branch: 'main' },
          artifacts: [
            { name: 'transcript', content: 'hello' },
            { name: 'blob', content: bytes, encoding: 'base64', mediaType: 'application/octet-stream' },
          ],
        },
        alice,
      );
      expect(cp.artifacts.map((a) => [a.name, a.size])).toEqual([
        ['blob', 4],
        ['transcript', 5],
      ]);
      expect(await hub.getCheckpoint(cp.id, alice)).toEqual(cp);
      const blob = await hub.readCheckpointArtifact(cp.id, 'blob', alice);
      expect([...blob.content]).toEqual([0, 1, 2, 255]);
      const counts = await hub.deleteContext('d', alice);
      expect(counts).toEqual({ events: 3, tasks: 1, checkpoints: 1 });
      expect((await rejects(hub.getContext('d', alice))).code).toBe('not_found');
      expect((await rejects(hub.getCheckpoint(cp.id, alice))).code).toBe('not_found');
      expect((await hub.listEvents('keep', {}, alice)).events).toHaveLength(1);
    });

    it('gives concurrent appenders distinct, gap-free seqs', async () => {
      await hub.createContext({ id: 'cc' }, alice);
      const writes = Array.from({ length: 50 }, (_, i) =>
        hub.appendEvent('cc', { kind: 'activity', activityType: 'agent_action', content: text(`w${i}`) }, alice),
      );
      const results = await Promise.all(writes);
      const seqs = results.map((r) => r.event.seq).sort((a, b) => a - b);
      expect(new Set(seqs).size).toBe(50);
      expect((seqs.at(-1) as number) - (seqs[0] as number)).toBe(49);
      const listed: Event[] = (await hub.listEvents('cc', {}, alice)).events;
      expect(listed.map((e) => e.seq)).toEqual(seqs);
    });
  });
}
