import { BatonError, type Event } from '@baton/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, SQLITE_FILE } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { storeFactories, tempDir } from '../test-support/databases.js';
import { localCaller } from './caller.js';
import { Hub } from './hub.js';

const alice = localCaller({ id: 'alice', name: 'Alice', runtime: 'claude-code', role: 'agent' });
const action = (text: string, extra: Record<string, unknown> = {}) => ({
  kind: 'activity',
  activityType: 'agent_action',
  content: [{ type: 'text', text }],
  ...extra,
});

type Settled<T> = { ok: true; value: T } | { ok: false; error: BatonError };

/** Starts every append in the same turn of the event loop, so they share one group. */
function together<T>(calls: (() => Promise<T>)[]): Promise<Settled<T>[]> {
  return Promise.all(
    calls.map((call) =>
      call().then(
        (value): Settled<T> => ({ ok: true, value }),
        (error: BatonError): Settled<T> => ({ ok: false, error }),
      ),
    ),
  );
}

for (const factory of storeFactories()) {
  describe.skipIf(factory.unavailable !== null)(`concurrent appends share a commit, each keeps its outcome: ${factory.name}`, () => {
    let store: Store;
    let hub: Hub;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await factory.create());
      hub = new Hub(store);
      await hub.createContext({ id: 'ctx', title: 'shared' }, alice);
      await hub.createContext({ id: 'other', title: 'other' }, alice);
    });
    afterEach(async () => {
      await cleanup();
    });

    it('stores 64 concurrent single appends with consecutive seqs in arrival order', async () => {
      const published: Event[] = [];
      hub.onAppend((events) => published.push(...events));
      const results = await together(
        Array.from({ length: 64 }, (_, i) => () => hub.appendEvent(i % 2 ? 'ctx' : 'other', action(`step ${i}`), alice)),
      );
      const events = results.map((r) => (r.ok ? r.value.event : r.error));
      expect(events.every((e) => !(e instanceof BatonError))).toBe(true);
      const seqs = (events as Event[]).map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i));
      expect((events as Event[]).map((e) => e.content[0]?.type === 'text' && e.content[0].text)).toEqual(events.map((_, i) => `step ${i}`));
      // Subscribers hear every event once, in seq order.
      expect(published.map((e) => e.seq)).toEqual(seqs);
      expect((await hub.getContext('ctx', alice)).eventCount).toBe(32);
      expect((await hub.getContext('other', alice)).eventCount).toBe(32);
      const page = await hub.listEvents('ctx', { limit: '100' }, alice);
      expect(page.events.map((e) => e.id)).toEqual((events as Event[]).filter((e) => e.contextId === 'ctx').map((e) => e.id));
    });

    it('fails only the request at fault: unknown context, foreign task, id reused with another body', async () => {
      const task = await hub.createTask('other', { title: 'elsewhere' }, alice);
      const results = await together<unknown>([
        () => hub.appendEvent('ctx', action('first', { id: 'evt-1' }), alice),
        () => hub.appendEvent('missing', action('nowhere'), alice),
        () => hub.appendEvent('ctx', action('wrong task', { taskId: task.id }), alice),
        () => hub.appendEvent('ctx', action('a different body', { id: 'evt-1' }), alice),
        () => hub.appendEvents('ctx', [action('batch a'), action('batch b')], alice),
      ]);
      expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'not_found', 'not_found', 'conflict', 'ok']);
      const [first, missing, foreign, conflict] = results;
      expect(first?.ok && (first.value as { created: boolean }).created).toBe(true);
      expect(missing?.ok === false && missing.error.message).toContain("'missing'");
      expect(foreign?.ok === false && foreign.error.message).toContain(task.id);
      expect(conflict?.ok === false && conflict.error.message).toContain('evt-1');
      const stored = await hub.listEvents('ctx', {}, alice);
      expect(stored.events.map((e) => (e.content[0]?.type === 'text' ? e.content[0].text : ''))).toEqual(['first', 'batch a', 'batch b']);
      expect((await hub.getContext('ctx', alice)).eventCount).toBe(3);
    });

    it('treats a retry in the same group as a retry: the same event, created once', async () => {
      const results = await together([
        () => hub.appendEvent('ctx', action('once', { id: 'evt-r' }), alice),
        () => hub.appendEvent('ctx', action('once', { id: 'evt-r' }), alice),
      ]);
      const [a, b] = results.map((r) => (r.ok ? r.value : null));
      expect(a?.created).toBe(true);
      expect(b?.created).toBe(false);
      expect(b?.event).toEqual(a?.event);
      expect((await hub.listEvents('ctx', {}, alice)).events).toHaveLength(1);
    });

    it('keeps a batch all-or-nothing when it shares a group with others', async () => {
      const results = await together<unknown>([
        () => hub.appendEvent('ctx', action('single'), alice),
        () => hub.appendEvents('ctx', [action('fine'), action('one', { id: 'dup' }), action('another', { id: 'dup' })], alice),
        () => hub.appendEvent('ctx', action('after'), alice),
      ]);
      expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'conflict', 'ok']);
      const stored = await hub.listEvents('ctx', {}, alice);
      expect(stored.events.map((e) => (e.content[0]?.type === 'text' ? e.content[0].text : ''))).toEqual(['single', 'after']);
    });
  });
}

describe('a request that breaks the shared transaction fails alone', () => {
  it('retries the group one by one, so only the offending request fails', async () => {
    const tmp = tempDir();
    const store = openSqliteStore({ dataDir: tmp.dir });
    try {
      await store.migrate();
      // A database-level failure the hub cannot foresee, for one event only.
      const db = new Database(`${tmp.dir}/${SQLITE_FILE}`);
      db.exec(
        `CREATE TRIGGER refuse_boom BEFORE INSERT ON events WHEN NEW.id = 'boom' BEGIN SELECT RAISE(ABORT, 'refused by trigger'); END`,
      );
      db.close();
      const hub = new Hub(store);
      await hub.createContext({ id: 'ctx', title: 'shared' }, alice);
      const results = await Promise.allSettled([
        hub.appendEvent('ctx', action('before'), alice),
        hub.appendEvent('ctx', action('explodes', { id: 'boom' }), alice),
        hub.appendEvents('ctx', [action('after 1'), action('after 2')], alice),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(String((results[1] as PromiseRejectedResult).reason)).toContain('refused by trigger');
      const stored = await hub.listEvents('ctx', {}, alice);
      expect(stored.events.map((e) => (e.content[0]?.type === 'text' ? e.content[0].text : ''))).toEqual(['before', 'after 1', 'after 2']);
      expect(stored.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    } finally {
      await store.close();
      tmp.remove();
    }
  });
});
