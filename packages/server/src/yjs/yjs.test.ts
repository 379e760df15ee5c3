import { isDeepStrictEqual } from 'node:util';
import { ACTIVITY_ARRAY, addActivityUpdate, type Event, getActivityFeed, getPendingActivity, observeActivity } from '@baton/core';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { BatonClient } from '../client/baton-client.js';
import { LiveClient } from '../client/live-client.js';
import type { HubServer, HubServerOptions } from '../hub-server.js';
import { freshPostgresDatabase, postgresFactory, tempDir } from '../test-support/databases.js';
import { type Cleanup, hubServerStarter } from '../test-support/hub-harness.js';

const cleanups: Cleanup[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const fast: HubServerOptions = { yjs: { idleMs: 50, pollMs: 200 } };

const startServer = hubServerStarter(cleanups, fast);

/** A stock y-websocket client in Node: `ws` as the WebSocket, no BroadcastChannel shortcut between peers. */
function connect(server: HubServer, contextId: string, params: Record<string, string> = {}, doc = new Y.Doc()) {
  const received = { bytes: 0 };
  class CountingWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols);
      this.on('message', (data: Buffer | ArrayBuffer) => {
        received.bytes += data.byteLength;
      });
    }
  }
  const provider = new WebsocketProvider(`${server.url.replace('http', 'ws')}/yjs`, contextId, doc, {
    WebSocketPolyfill: CountingWebSocket as unknown as typeof globalThis.WebSocket,
    params,
    disableBc: true,
    maxBackoffTime: 200,
  });
  cleanups.push(() => {
    provider.destroy();
    provider.awareness.destroy();
  });
  const synced = new Promise<void>((resolve) => {
    if (provider.synced) resolve();
    provider.once('sync', () => resolve());
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => provider.once('closed', (event) => resolve(event)));
  return { doc, provider, synced, closed, received };
}

const activity = (text: string, extra: Record<string, unknown> = {}) => ({
  kind: 'activity' as const,
  activityType: 'agent_action' as const,
  content: [{ type: 'text' as const, text }],
  ...extra,
});
const texts = (events: readonly Event[]) => events.map((e) => (e.content[0] as { text: string }).text);

async function waitFor(predicate: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('Yjs bridge /yjs/:contextId with a stock y-websocket client', () => {
  it('syncs the shared activity, then shows an event appended through REST the moment it is stored', async () => {
    const server = await startServer();
    const client = new BatonClient({ url: server.url, actor: { id: 'writer', runtime: 'codex' } });
    await client.createContext({ id: 'plan' });
    await client.appendEvents('plan', [
      activity('one'),
      activity('two'),
      { kind: 'note', noteType: 'status', title: 'a note is not activity' },
      activity('private to codex', { visibility: 'private' }),
    ]);
    const peer = connect(server, 'plan');
    await peer.synced;
    await waitFor(() => getActivityFeed(peer.doc).length === 2);
    expect(texts(getActivityFeed(peer.doc))).toEqual(['one', 'two']);

    const seen: number[] = [];
    observeActivity(peer.doc, (feed) => seen.push(feed.length));
    const started = performance.now();
    const written = await client.appendEvent('plan', activity('three'));
    await waitFor(() => getActivityFeed(peer.doc).length === 3);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(getActivityFeed(peer.doc)[2]).toEqual(written);
    expect(seen.at(-1)).toBe(3);
  });

  it('appends a valid entry a peer adds (REST and the live feed see it) and removes an invalid one, storing nothing', async () => {
    const server = await startServer();
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'room' });
    const live = new LiveClient({ url: server.url });
    cleanups.push(() => live.close());
    const fromLive: Event[] = [];
    await live.subscribe({ filter: { contextIds: ['room'] } }, (e) => fromLive.push(e)).ready;

    const ana = connect(server, 'room', { actor: 'ana', actorName: 'Ana', role: 'user' });
    const other = connect(server, 'room');
    await Promise.all([ana.synced, other.synced]);
    const pending = addActivityUpdate(ana.doc, { activityType: 'human_feedback', content: [{ type: 'text', text: 'use OAuth' }] });
    expect(getPendingActivity(ana.doc).map((p) => p.id)).toEqual([pending.id]);
    await waitFor(() => getActivityFeed(other.doc).some((e) => e.id === pending.id));

    const stored = await client.getEvent(pending.id);
    expect(stored).toMatchObject({ kind: 'activity', activityType: 'human_feedback', actor: { id: 'ana', name: 'Ana', role: 'user' } });
    expect(getActivityFeed(ana.doc)).toEqual([stored]);
    expect(getActivityFeed(other.doc)).toEqual([stored]);
    await waitFor(() => fromLive.length === 1);
    expect(fromLive[0]?.id).toBe(pending.id);

    // A bad activity type, a forged seq, a private entry and a plain string: each is removed, none is stored.
    const array = ana.doc.getArray<unknown>(ACTIVITY_ARRAY);
    const bad = (fields: Record<string, unknown>) => {
      const map = new Y.Map<unknown>();
      for (const [k, v] of Object.entries(fields)) map.set(k, v);
      return map;
    };
    array.push([
      bad({ activityType: 'bogus', content: [] }),
      bad({ activityType: 'milestone', seq: 999, id: 'forged' }),
      bad({ activityType: 'milestone', visibility: 'private' }),
      'not a map',
    ]);
    await waitFor(() => array.length === 1 && other.doc.getArray(ACTIVITY_ARRAY).length === 1);
    const after = await client.listEvents('room');
    expect(after.events.map((e) => e.id)).toEqual([pending.id]);
  });

  it('keeps only the newest entries of the window; older ones stay in the log', async () => {
    const server = await startServer({ yjsWindow: 10 });
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'w' });
    await client.appendEvents(
      'w',
      Array.from({ length: 25 }, (_, i) => activity(`e${i}`)),
    );
    const peer = connect(server, 'w');
    await peer.synced;
    await waitFor(() => getActivityFeed(peer.doc).length === 10);
    expect(texts(getActivityFeed(peer.doc))).toEqual(Array.from({ length: 10 }, (_, i) => `e${15 + i}`));
    await client.appendEvent('w', activity('e25'));
    await waitFor(() => getActivityFeed(peer.doc).at(-1)?.content.length === 1 && texts(getActivityFeed(peer.doc)).at(-1) === 'e25');
    expect(texts(getActivityFeed(peer.doc))).toEqual(Array.from({ length: 10 }, (_, i) => `e${16 + i}`));
    expect((await client.listEvents('w', { limit: 1000 })).events).toHaveLength(26);
  });

  it('stores the document: after a restart a returning client syncs only what changed, each event once', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.remove());
    const first = await startServer({ dataDir: tmp.dir });
    const writer = new BatonClient({ url: first.url });
    await writer.createContext({ id: 'p' });
    await writer.appendEvents(
      'p',
      Array.from({ length: 300 }, (_, i) => activity(`entry ${i} ${'x'.repeat(100)}`)),
    );
    const doc = new Y.Doc();
    const before = connect(first, 'p', {}, doc);
    await before.synced;
    await waitFor(() => getActivityFeed(doc).length === 300);
    const fullSync = before.received.bytes;
    before.provider.destroy();
    await first.close();

    const second = await startServer({ dataDir: tmp.dir });
    const writer2 = new BatonClient({ url: second.url });
    await writer2.appendEvents('p', [activity('after restart 1'), activity('after restart 2')]);
    const again = connect(second, 'p', {}, doc);
    await again.synced;
    await waitFor(() => getActivityFeed(doc).length === 302);
    expect(again.received.bytes).toBeLessThan(fullSync / 10);
    const ids = getActivityFeed(doc).map((e) => e.id);
    expect(new Set(ids).size).toBe(302);
    const log = (await writer2.listEvents('p', { limit: 1000 })).events.map((e) => e.id);
    expect(ids).toEqual(log);
  });

  it('compacts stored updates into one snapshot; a fresh load holds the same entries', async () => {
    const server = await startServer({}, { yjs: { idleMs: 50, pollMs: 200, compactEvery: 3 } });
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'k' });
    const peer = connect(server, 'k');
    await peer.synced;
    for (let i = 0; i < 12; i++) {
      await client.appendEvent('k', activity(`k${i}`));
      await waitFor(() => getActivityFeed(peer.doc).length === i + 1);
    }
    const rows = await server.store.listYjsUpdates('k', 0);
    expect(rows.length).toBeLessThanOrEqual(4);
    peer.provider.destroy();
    await waitFor(() => server.yjs.documents().size === 0);
    const fresh = connect(server, 'k');
    await fresh.synced;
    await waitFor(() => getActivityFeed(fresh.doc).length === 12);
    expect(texts(getActivityFeed(fresh.doc))).toEqual(Array.from({ length: 12 }, (_, i) => `k${i}`));
  });

  it('shows a blocker resolved through REST as resolved', async () => {
    const server = await startServer();
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'b' });
    const blocker = await client.appendEvent('b', { ...activity('need an API key'), activityType: 'blocker' });
    const peer = connect(server, 'b');
    await peer.synced;
    const { target, record } = await client.resolveBlocker(blocker.id, 'key added');
    await waitFor(() => getActivityFeed(peer.doc).length === 2);
    await waitFor(() => getActivityFeed(peer.doc)[0]?.resolved === true);
    expect(getActivityFeed(peer.doc)).toEqual([target, record]);
  });

  it('closes a deleted context’s document with 4404; a new context with the same id starts empty', async () => {
    const server = await startServer();
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'gone' });
    await client.appendEvent('gone', activity('old'));
    const peer = connect(server, 'gone');
    await peer.synced;
    await waitFor(() => getActivityFeed(peer.doc).length === 1);
    await client.deleteContext('gone');
    expect((await peer.closed).code).toBe(4404);
    await client.createContext({ id: 'gone' });
    await client.appendEvent('gone', activity('new'));
    const fresh = connect(server, 'gone');
    await fresh.synced;
    await waitFor(() => getActivityFeed(fresh.doc).length === 1);
    expect(texts(getActivityFeed(fresh.doc))).toEqual(['new']);
  });

  it('carries presence in awareness and drops it when a peer leaves', async () => {
    const server = await startServer();
    await new BatonClient({ url: server.url }).createContext({ id: 'aw' });
    const ana = connect(server, 'aw');
    const bot = connect(server, 'aw');
    await Promise.all([ana.synced, bot.synced]);
    ana.provider.awareness.setLocalStateField('user', { name: 'Ana', kind: 'person' });
    bot.provider.awareness.setLocalStateField('user', { name: 'codex', kind: 'agent' });
    const names = (p: typeof ana) =>
      [...p.provider.awareness.getStates().values()].map((s) => (s.user as { name: string } | undefined)?.name);
    await waitFor(() => names(bot).includes('Ana') && names(ana).includes('codex'));
    ana.provider.destroy();
    await waitFor(() => !names(bot).includes('Ana'));
  });

  it('undoes a peer’s edit or removal of a stored entry', async () => {
    const server = await startServer();
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'u' });
    const [a, b] = (await client.appendEvents('u', [activity('first'), activity('second')])).events as [Event, Event];
    const peer = connect(server, 'u');
    await peer.synced;
    await waitFor(() => getActivityFeed(peer.doc).length === 2);
    const array = peer.doc.getArray<Y.Map<unknown>>(ACTIVITY_ARRAY);
    array.get(1).set('content', [{ type: 'text', text: 'rewritten history' }]);
    array.delete(0, 1);
    await waitFor(() => isDeepStrictEqual(getActivityFeed(peer.doc), [a, b]));
  });

  it('refuses a wrong token (4401) and an unknown context (4404) with codes a stock client does not retry', async () => {
    const token = 'a-long-enough-secret-token';
    const server = await startServer({ token });
    await new BatonClient({ url: server.url, token }).createContext({ id: 'secret' });
    expect((await connect(server, 'secret').closed).code).toBe(4401);
    expect((await connect(server, 'nope', { token }).closed).code).toBe(4404);
    const ok = connect(server, 'secret', { token });
    await ok.synced;
  });
});

describe.skipIf(postgresFactory().unavailable !== null)('Yjs bridge with two instances on one PostgreSQL', () => {
  it('shows every event once on both instances, whichever surface or instance wrote it', async () => {
    const db = await freshPostgresDatabase();
    cleanups.push(() => db.drop());
    const a = await startServer({ databaseUrl: db.url });
    const b = await startServer({ databaseUrl: db.url });
    const onA = new BatonClient({ url: a.url });
    const onB = new BatonClient({ url: b.url });
    await onA.createContext({ id: 'shared' });
    await onA.appendEvents('shared', [activity('before 1'), activity('before 2')]);
    const peerA = connect(a, 'shared');
    const peerB = connect(b, 'shared');
    await Promise.all([peerA.synced, peerB.synced]);

    const started = performance.now();
    const crossing = await onA.appendEvent('shared', activity('written on A, read on B'));
    await waitFor(() => getActivityFeed(peerB.doc).some((e) => e.id === crossing.id));
    expect(performance.now() - started).toBeLessThan(1000);

    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) writes.push(onA.appendEvent('shared', activity(`A${i}`)), onB.appendEvent('shared', activity(`B${i}`)));
    const proposed = addActivityUpdate(peerB.doc, { activityType: 'decision', content: [{ type: 'text', text: 'from a Yjs peer on B' }] });
    await Promise.all(writes);
    const total = 2 + 1 + 40 + 1;
    await waitFor(() => getActivityFeed(peerA.doc).length === total && getActivityFeed(peerB.doc).length === total, 15_000);
    const logIds = (await onA.listEvents('shared', { limit: 1000 })).events.map((e) => e.id);
    expect(logIds).toContain(proposed.id);
    for (const peer of [peerA, peerB]) {
      const ids = getActivityFeed(peer.doc).map((e) => e.id);
      expect(new Set(ids).size).toBe(total);
      expect([...ids].sort()).toEqual([...logIds].sort());
      expect(peer.doc.getArray(ACTIVITY_ARRAY).length).toBe(total);
    }

    // The stored document, read fresh after both instances have unloaded it, holds each event once.
    peerA.provider.destroy();
    peerB.provider.destroy();
    await waitFor(() => a.yjs.documents().size === 0 && b.yjs.documents().size === 0);
    const fresh = connect(b, 'shared');
    await fresh.synced;
    await waitFor(() => getActivityFeed(fresh.doc).length === total);
    expect(fresh.doc.getArray(ACTIVITY_ARRAY).length).toBe(total);
  });

  it('keeps working when more documents change at once than the pool has connections', async () => {
    const db = await freshPostgresDatabase();
    cleanups.push(() => db.drop());
    const server = await startServer({ databaseUrl: db.url });
    const client = new BatonClient({ url: server.url });
    const ids = Array.from({ length: 14 }, (_, i) => `many-${i}`);
    for (const id of ids) await client.createContext({ id });
    const peers = ids.map((id) => connect(server, id));
    await Promise.all(peers.map((p) => p.synced));
    await Promise.all(ids.map((id) => client.appendEvent(id, activity(`into ${id}`))));
    await waitFor(() => peers.every((p) => getActivityFeed(p.doc).length === 1));
  });
});
