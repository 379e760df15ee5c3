import type { Event, LiveServerMessage } from '@baton/core';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BatonClient } from '../client/baton-client.js';
import { LiveClient } from '../client/live-client.js';
import { createApp } from '../http/app.js';
import { listen } from '../http/server.js';
import { localCaller } from '../hub/caller.js';
import { Hub } from '../hub/hub.js';
import { type HubServer, startHubServer } from '../hub-server.js';
import { createLogger } from '../log.js';
import type { Store } from '../store/store.js';
import { freshPostgresDatabase, postgresFactory, sqliteFactory, tempDir } from '../test-support/databases.js';
import { EventTail } from './event-tail.js';
import { routeUpgrades, startLiveServer } from './live-server.js';
import { Subscription } from './subscription.js';

const log = createLogger('silent');
const agent = localCaller({ id: 'writer', name: null, runtime: 'codex', role: 'agent' });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function sqliteServer(extra: { token?: string } = {}): Promise<HubServer> {
  const tmp = tempDir();
  const server = await startHubServer(
    { dataDir: tmp.dir, databaseUrl: undefined, host: '127.0.0.1', port: 0, token: extra.token, bodyLimit: 8 << 20 },
    log,
  );
  cleanups.push(
    () => tmp.remove(),
    () => server.close(),
  );
  return server;
}

/** A raw WebSocket client speaking the documented protocol. */
async function rawClient(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/live`, { headers });
  const messages: LiveServerMessage[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()));
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  cleanups.push(() => ws.terminate());
  const until = async (predicate: (m: LiveServerMessage[]) => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!predicate(messages)) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(messages.slice(-3))}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  const events = () => messages.filter((m): m is Extract<LiveServerMessage, { type: 'event' }> => m.type === 'event').map((m) => m.event);
  return { ws, messages, until, events, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

const activity = (text: string) => ({
  kind: 'activity' as const,
  activityType: 'agent_action' as const,
  content: [{ type: 'text' as const, text }],
});

describe('live feed /api/v1/live', () => {
  it('sends the backlog after the cursor, then new events in seq order, exactly once, filtered', async () => {
    const server = await sqliteServer();
    const client = new BatonClient({ url: server.url, actor: { id: 'writer', runtime: 'codex' } });
    await client.createContext({ id: 'a' });
    await client.createContext({ id: 'b' });
    const before = await client.appendEvents('a', [activity('1'), activity('2'), activity('3')]);
    await client.appendEvent('b', activity('other context'));

    const raw = await rawClient(server.url);
    raw.send({ type: 'subscribe', id: 'mine', filter: { contextIds: ['a'] }, since: before.events[0]?.seq });
    await raw.until((m) => m.some((x) => x.type === 'caught_up'));
    expect(raw.events().map((e) => (e.content[0] as { text: string }).text)).toEqual(['2', '3']);

    const writes = [];
    for (let i = 0; i < 50; i++) writes.push(client.appendEvent(i % 2 ? 'a' : 'b', activity(`live ${i}`)));
    await Promise.all(writes);
    await raw.until((m) => m.filter((x) => x.type === 'event').length === 2 + 25);
    const seqs = raw.events().map((e) => e.seq);
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(raw.events().every((e) => e.contextId === 'a')).toBe(true);
  });

  it('filters by kind, note urgency and runtime, and keeps private events in their runtime', async () => {
    const server = await sqliteServer();
    const codex = new BatonClient({ url: server.url, actor: { id: 'c', runtime: 'codex' } });
    const claude = new BatonClient({ url: server.url, actor: { id: 'k', runtime: 'claude-code' } });
    await codex.createContext({ id: 'n' });
    const raw = await rawClient(server.url, { 'x-baton-actor': 'watcher', 'x-baton-runtime': 'claude-code' });
    raw.send({ type: 'subscribe', id: 'notes', filter: { kinds: ['note'], minUrgency: 'attention' } });
    raw.send({ type: 'subscribe', id: 'codex', filter: { runtimes: ['codex'] } });
    await raw.until((m) => m.filter((x) => x.type === 'caught_up').length === 2);
    await codex.appendEvent('n', { kind: 'note', noteType: 'status', title: 'low', urgency: 'background' });
    await codex.appendEvent('n', { kind: 'note', noteType: 'alert', title: 'high', urgency: 'blocking' });
    await codex.appendEvent('n', { ...activity('codex secret'), visibility: 'private' });
    await claude.appendEvent('n', { ...activity('claude secret'), visibility: 'private' });
    await codex.appendEvent('n', activity('done'));
    await raw.until((m) => m.some((x) => x.type === 'event' && (x.event.content[0] as { text?: string })?.text === 'done'));
    const bySub = (sub: string) =>
      raw.messages
        .filter((m): m is Extract<LiveServerMessage, { type: 'event' }> => m.type === 'event' && m.sub === sub)
        .map((m) => m.event);
    expect(bySub('notes').map((e) => (e.kind === 'note' ? e.title : ''))).toEqual(['high']);
    const codexTexts = bySub('codex').map((e) => (e.kind === 'note' ? e.title : (e.content[0] as { text: string }).text));
    expect(codexTexts).toEqual(['low', 'high', 'done']);
  });

  it('answers a bad message with an error naming the field and keeps the connection', async () => {
    const server = await sqliteServer();
    const raw = await rawClient(server.url);
    raw.ws.send('not json');
    raw.send({ type: 'subscribe', id: 'x', filter: { kinds: ['bogus'] } });
    raw.send({ type: 'subscribe', id: 'ok' });
    await raw.until((m) => m.some((x) => x.type === 'subscribed'));
    const errors = raw.messages.filter((m) => m.type === 'error');
    expect(errors).toHaveLength(2);
    expect(JSON.stringify(errors[1])).toContain('filter.kinds.0');
    expect(raw.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('requires the token when the server has one', async () => {
    const server = await sqliteServer({ token: 'a-long-enough-secret-token' });
    await expect(rawClient(server.url)).rejects.toThrow(/401/);
    const ok = await rawClient(server.url, { authorization: 'Bearer a-long-enough-secret-token' });
    ok.send({ type: 'subscribe', id: 's' });
    await ok.until((m) => m.some((x) => x.type === 'subscribed'));
  });

  it('resumes after a disconnect from the last seq without loss or duplicates (LiveClient)', async () => {
    const server = await sqliteServer();
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'r' });
    const live = new LiveClient({ url: server.url, maxBackoffMs: 200 });
    cleanups.push(() => live.close());
    const got: Event[] = [];
    const sub = live.subscribe({ filter: { contextIds: ['r'] }, since: 0 }, (e) => got.push(e));
    await sub.ready;
    for (let i = 0; i < 10; i++) await client.appendEvent('r', activity(`before ${i}`));
    await waitFor(() => got.length === 10);
    // Drop every live connection on the server side, then write while the client is away.
    for (const ws of liveSockets(server)) ws.terminate();
    for (let i = 0; i < 10; i++) await client.appendEvent('r', activity(`during ${i}`));
    await waitFor(() => got.length === 20);
    for (let i = 0; i < 10; i++) await client.appendEvent('r', activity(`after ${i}`));
    await waitFor(() => got.length === 30);
    const seqs = got.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(30);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(sub.lastSeq).toBe(seqs.at(-1));
  });

  it('tells a slow consumer to resync instead of buffering without bound, and loses nothing', async () => {
    const { store, cleanup } = await sqliteFactory.create();
    cleanups.push(cleanup);
    const hub = new Hub(store);
    const server = await listen(createApp(hub), '127.0.0.1', 0);
    const live = await startLiveServer(hub, { maxBuffered: 64 * 1024 });
    routeUpgrades(server.http, [live]);
    cleanups.push(
      () => server.close(),
      () => live.close(),
    );
    await hub.createContext({ id: 's' }, agent);

    const raw = await rawClient(server.url);
    raw.send({ type: 'subscribe', id: 'slow', filter: {} });
    await raw.until((m) => m.some((x) => x.type === 'caught_up'));
    // Stop reading: the kernel buffers fill, then the server's own buffer passes 64 KiB.
    (raw.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const big = 'x'.repeat(2000);
    for (let i = 0; i < 20; i++)
      await hub.appendEvents(
        's',
        Array.from({ length: 100 }, () => activity(big)),
        agent,
      );
    await new Promise((r) => setTimeout(r, 300));
    (raw.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.resume();
    await raw.until((m) => m.some((x) => x.type === 'resync'));
    const resync = raw.messages.find((m) => m.type === 'resync') as Extract<LiveServerMessage, { type: 'resync' }>;
    const delivered = raw.events();
    expect(delivered.length).toBeLessThan(2000);
    expect(delivered.at(-1)?.seq ?? 0).toBe(resync.after);
    raw.send({ type: 'subscribe', id: 'slow', filter: {}, since: resync.after });
    await raw.until((m) => m.filter((x) => x.type === 'event').length >= 2000, 20_000);
    const seqs = raw.events().map((e) => e.seq);
    expect(seqs).toHaveLength(2000);
    expect(new Set(seqs).size).toBe(2000);
  });
});

describe('live fan-out', () => {
  it('gives every socket each event once under its own subscription id, whichever ids the sockets share', async () => {
    const server = await sqliteServer();
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'f' });
    const clients = await Promise.all(['x', 'y', 'x', 'x'].map(async (id) => ({ id, raw: await rawClient(server.url) })));
    for (const { id, raw } of clients) raw.send({ type: 'subscribe', id, filter: { contextIds: ['f'] } });
    for (const { raw } of clients) await raw.until((m) => m.some((x) => x.type === 'caught_up'));
    const batch = await client.appendEvents(
      'f',
      Array.from({ length: 300 }, (_, i) => activity(`fan ${i}`)),
    );
    const ids = batch.events.map((e) => e.id);
    for (const { id, raw } of clients) {
      await raw.until((m) => m.filter((x) => x.type === 'event').length >= 300);
      const events = raw.messages.filter((m): m is Extract<LiveServerMessage, { type: 'event' }> => m.type === 'event');
      expect(events.every((m) => m.sub === id)).toBe(true);
      expect(events.map((m) => m.event.id)).toEqual(ids);
    }
  });

  it("moves a subscriber past other contexts' events without reading them, and still sends its own exactly once", async () => {
    const { store, cleanup } = await sqliteFactory.create();
    cleanups.push(cleanup);
    const hub = new Hub(store);
    await hub.createContext({ id: 'mine' }, agent);
    await hub.createContext({ id: 'busy' }, agent);
    // The store as the tail sees it, counting the reads made for a subscriber (the tail's own pulls have no viewer).
    const { store: watched, reads } = countingReads(store);
    const tail = new EventTail(watched, { ringSize: 16, safetyPullMs: 0 });
    await tail.start();
    cleanups.push(() => tail.close());
    cleanups.push(hub.onAppend(() => tail.poke()));
    const got: Event[] = [];
    let caughtUp = false;
    const subscription = new Subscription(tail, { contextIds: ['mine'] }, 'nobody', undefined, {
      event: (event) => got.push(event) > 0,
      caughtUp: () => {
        caughtUp = true;
      },
      overflow: () => {
        throw new Error('no overflow expected');
      },
      failed: (error) => {
        throw error;
      },
    });
    cleanups.push(() => subscription.close());
    await waitFor(() => caughtUp);
    // One commit of far more events of another context than the ring holds (the ring drops the
    // subscriber's cursor), then one of its own.
    await hub.appendEvents(
      'busy',
      Array.from({ length: 40 }, (_, i) => activity(`busy ${i}`)),
      agent,
    );
    await waitFor(() => tail.head === 40);
    expect(tail.floor).toBeGreaterThan(0);
    const own = await hub.appendEvents('mine', [activity('mine')], agent);
    await waitFor(() => got.length === 1);
    await waitFor(() => subscription.cursor === tail.head);
    expect(got.map((e) => e.id)).toEqual(own.events.map((e) => e.id));
    expect(reads.forSubscribers).toBe(0);
  });

  it('reads nothing back while nobody watches, and a subscriber that comes later still gets exactly what it asks for', async () => {
    const { store, cleanup } = await sqliteFactory.create();
    cleanups.push(cleanup);
    const hub = new Hub(store);
    await hub.createContext({ id: 'quiet' }, agent);
    const { store: watched, reads } = countingReads(store);
    const tail = new EventTail(watched, { safetyPullMs: 0 });
    await tail.start();
    cleanups.push(() => tail.close());
    cleanups.push(hub.onAppend((events) => tail.poke(Math.max(...events.map((e) => e.seq)))));
    const readsAtStart = reads.byTail;
    const before = await hub.appendEvents(
      'quiet',
      Array.from({ length: 30 }, (_, i) => activity(`before ${i}`)),
      agent,
    );
    // Nobody watches: the head moves to the commit, nothing is read back or kept.
    expect(tail.head).toBe(before.events.at(-1)?.seq);
    expect(tail.after(0)).toEqual([]);
    expect(reads.byTail).toBe(readsAtStart);

    const fromNow: Event[] = [];
    const fromTen: Event[] = [];
    for (const [since, got] of [
      [undefined, fromNow],
      [before.events[9]?.seq, fromTen],
    ] as const) {
      const subscription = new Subscription(tail, { contextIds: ['quiet'] }, 'nobody', since, {
        event: (event) => got.push(event) > 0,
        caughtUp: () => {},
        overflow: () => {
          throw new Error('no overflow expected');
        },
        failed: (error) => {
          throw error;
        },
      });
      cleanups.push(() => subscription.close());
    }
    const after = await hub.appendEvents('quiet', [activity('after')], agent);
    await waitFor(() => fromNow.length === 1 && fromTen.length === 21);
    expect(fromNow.map((e) => e.id)).toEqual(after.events.map((e) => e.id));
    expect(fromTen.map((e) => e.id)).toEqual([...before.events.slice(10), ...after.events].map((e) => e.id));
  });
});

describe.skipIf(postgresFactory().unavailable !== null)('live feed across instances on PostgreSQL', () => {
  it('an event appended on instance A reaches a subscriber on instance B', async () => {
    const db = await freshPostgresDatabase();
    cleanups.push(() => db.drop());
    const config = { dataDir: '/nonexistent', databaseUrl: db.url, host: '127.0.0.1', port: 0, token: undefined, bodyLimit: 8 << 20 };
    const a = await startHubServer(config, log);
    cleanups.push(() => a.close());
    const b = await startHubServer(config, log);
    cleanups.push(() => b.close());
    const writer = new BatonClient({ url: a.url });
    await writer.createContext({ id: 'x' });
    const live = new LiveClient({ url: b.url });
    cleanups.push(() => live.close());
    const got: Event[] = [];
    await live.subscribe({ filter: { contextIds: ['x'] } }, (e) => got.push(e)).ready;
    const started = performance.now();
    const written = await writer.appendEvent('x', activity('from A'));
    await waitFor(() => got.length === 1);
    expect(performance.now() - started).toBeLessThan(900); // faster than B's safety pull: the NOTIFY poke delivered it
    expect(got[0]?.id).toBe(written.id);
    const batch = await writer.appendEvents(
      'x',
      Array.from({ length: 200 }, (_, i) => activity(`b${i}`)),
    );
    await waitFor(() => got.length === 201);
    expect(got.slice(1).map((e) => e.id)).toEqual(batch.events.map((e) => e.id));
  });
});

function liveSockets(server: HubServer): WebSocket[] {
  return [...server.live.sockets()];
}

/** The store, counting its listEvents calls: the tail's own pulls (no viewer) and reads made for a subscriber. */
function countingReads(store: Store): { store: Store; reads: { byTail: number; forSubscribers: number } } {
  const reads = { byTail: 0, forSubscribers: 0 };
  const counted = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      if (key !== 'listEvents') return value.bind(target);
      return (query: Parameters<Store['listEvents']>[0]) => {
        if (query.viewerKey === null) reads.byTail += 1;
        else reads.forSubscribers += 1;
        return target.listEvents(query);
      };
    },
  });
  return { store: counted, reads };
}

async function waitFor(predicate: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
