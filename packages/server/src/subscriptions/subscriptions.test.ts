import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContextSubscription, CreatedContextSubscription, Event, SubscriptionEventPage, WebhookDelivery } from '@baton/core';
import { afterEach, describe, expect, it } from 'vitest';
import { BatonClient } from '../client/baton-client.js';
import type { HubServer, HubServerOptions } from '../hub-server.js';
import { freshPostgresDatabase, postgresFactory, tempDir } from '../test-support/databases.js';
import { type Cleanup, hubServerStarter } from '../test-support/hub-harness.js';

const cleanups: Cleanup[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const fast: HubServerOptions = {
  push: { scanMs: 100, leaseMs: 1500, attempts: 3, baseDelayMs: 20, maxDelayMs: 100, pauseMs: 300, timeoutMs: 2000 },
};

const startServer = hubServerStarter(cleanups, fast);

interface Received {
  status: number;
  headers: IncomingHttpHeaders;
  raw: string;
  body: WebhookDelivery;
}

/** A real HTTP receiver on 127.0.0.1; `status` decides each answer (default 200). */
async function receiver() {
  const got: Received[] = [];
  const state = { status: (_n: number): number => 200 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString();
      const status = state.status(got.length + 1);
      got.push({ status, headers: req.headers, raw, body: JSON.parse(raw) as WebhookDelivery });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const accepted = () => got.filter((r) => r.status < 300);
  return { url: `http://127.0.0.1:${port}/hooks/baton`, got, state, accepted };
}

async function api<T>(
  server: HubServer,
  method: string,
  path: string,
  body?: unknown,
  runtime = 'openclaw',
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-baton-actor': 'bot-1', 'x-baton-runtime': runtime },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: (await response.json()) as T };
}

const activity = (text: string) => ({
  kind: 'activity' as const,
  activityType: 'agent_action' as const,
  content: [{ type: 'text' as const, text }],
});

async function waitFor(predicate: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Polls `read` until `done` holds for its value (stored state lags the delivery it records). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const SECRET = 'a-shared-webhook-secret';

describe('push subscriptions (webhooks)', () => {
  it('POSTs each matching event, signed, the moment it is appended, in seq order, once each', async () => {
    const server = await startServer();
    const hook = await receiver();
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'c' });
    const created = await api<CreatedContextSubscription>(server, 'POST', '/subscriptions', {
      deliveryMode: 'push',
      endpoint: hook.url,
      secret: SECRET,
      filter: { contextIds: ['c'], kinds: ['activity'] },
    });
    expect(created.status).toBe(201);
    expect(created.json.secret).toBe(SECRET);
    await waitFor(() => server.push.delivering().includes(created.json.id));

    await client.appendEvent('c', { kind: 'note', noteType: 'status', title: 'not activity' });
    const started = performance.now();
    const event = await client.appendEvent('c', activity('deploy finished'));
    await waitFor(() => hook.got.length === 1);
    expect(performance.now() - started).toBeLessThan(1000);
    const [first] = hook.got as [Received];
    expect(first.body).toEqual({ subscriptionId: created.json.id, event });
    expect(first.headers['x-baton-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(first.raw).digest('hex')}`);
    expect(first.headers['idempotency-key']).toBe(event.id);
    expect(first.headers['x-baton-event-id']).toBe(event.id);
    expect(first.headers['x-baton-delivery-attempt']).toBe('1');

    const batch = await client.appendEvents(
      'c',
      Array.from({ length: 30 }, (_, i) => activity(`step ${i}`)),
    );
    await waitFor(() => hook.got.length === 31);
    expect(hook.got.slice(1).map((r) => r.body.event.id)).toEqual(batch.events.map((e) => e.id));
    const state = await api<ContextSubscription>(server, 'GET', `/subscriptions/${created.json.id}`);
    expect(state.json).toMatchObject({ status: 'active', failures: 0, deliveryMode: 'push', endpoint: hook.url });
    expect(state.json).not.toHaveProperty('secret');
  });

  it('retries with backoff, marks the subscription failing, keeps its cursor, and delivers in order once the receiver is back', async () => {
    const server = await startServer();
    const hook = await receiver();
    hook.state.status = (n) => (n <= 2 ? 500 : 200);
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'r' });
    const { json: sub } = await api<CreatedContextSubscription>(server, 'POST', '/subscriptions', {
      deliveryMode: 'push',
      endpoint: hook.url,
      filter: { contextIds: ['r'] },
    });
    await waitFor(() => server.push.delivering().includes(sub.id));
    const e1 = await client.appendEvent('r', activity('flaky'));
    await waitFor(() => hook.got.length === 3);
    expect(hook.got.map((r) => [r.headers['idempotency-key'], r.headers['x-baton-delivery-attempt']])).toEqual([
      [e1.id, '1'],
      [e1.id, '2'],
      [e1.id, '3'],
    ]);
    // The generated secret signs every delivery.
    for (const r of hook.got)
      expect(r.headers['x-baton-signature']).toBe(
        `sha256=${createHmac('sha256', sub.secret ?? '')
          .update(r.raw)
          .digest('hex')}`,
      );

    hook.state.status = () => 503;
    const e2 = await client.appendEvent('r', activity('while the receiver is down'));
    const e3 = await client.appendEvent('r', activity('also while down'));
    await waitFor(() => hook.got.length === 6);
    const current = async () => (await api<ContextSubscription>(server, 'GET', `/subscriptions/${sub.id}`)).json;
    let state = await eventually(current, (s) => s.status === 'failing');
    expect(state).toMatchObject({ status: 'failing', failures: 1, cursor: e1.seq });
    expect(state.lastError).toContain('503');
    expect(state.retryAt).not.toBeNull();

    const upTo = hook.got.length;
    hook.state.status = (n) => (n <= upTo ? 503 : 200);
    await waitFor(() => hook.accepted().length === 3);
    expect(hook.accepted().map((r) => r.body.event.id)).toEqual([e1.id, e2.id, e3.id]);
    state = await eventually(current, (s) => s.cursor === e3.seq);
    expect(state).toMatchObject({ status: 'active', failures: 0, cursor: e3.seq, lastError: null });
  });

  it('resumes after a restart from the stored cursor, resending nothing already delivered', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.remove());
    const hook = await receiver();
    const first = await startServer({ dataDir: tmp.dir });
    const client = new BatonClient({ url: first.url });
    await client.createContext({ id: 's' });
    const { json: sub } = await api<CreatedContextSubscription>(first, 'POST', '/subscriptions', {
      deliveryMode: 'push',
      endpoint: hook.url,
    });
    await waitFor(() => first.push.delivering().includes(sub.id));
    const delivered = await client.appendEvent('s', activity('delivered before the restart'));
    await waitFor(() => hook.got.length === 1);
    hook.state.status = () => 500;
    const missed = await client.appendEvents('s', [activity('m1'), activity('m2'), activity('m3')]);
    await waitFor(() => hook.got.length >= 2);
    await first.close();

    hook.state.status = () => 200;
    const before = hook.got.length;
    const second = await startServer({ dataDir: tmp.dir });
    await waitFor(() => hook.got.length === before + 3);
    expect(hook.got.slice(before).map((r) => r.body.event.id)).toEqual(missed.events.map((e) => e.id));
    expect(hook.got.filter((r) => r.body.event.id === delivered.id)).toHaveLength(1);
    await second.close();
  });

  it('rejects a subscription that could not work, naming the field', async () => {
    const server = await startServer();
    const noEndpoint = await api<{ error: { message: string } }>(server, 'POST', '/subscriptions', { deliveryMode: 'push' });
    expect(noEndpoint.status).toBe(400);
    expect(noEndpoint.json.error.message).toContain('endpoint');
    const fileUrl = await api<{ error: { message: string } }>(server, 'POST', '/subscriptions', {
      deliveryMode: 'push',
      endpoint: 'file:///etc/passwd',
    });
    expect(fileUrl.status).toBe(400);
    expect(fileUrl.json.error.message).toMatch(/endpoint.*http/);
    const badFilter = await api<{ error: { message: string } }>(server, 'POST', '/subscriptions', {
      deliveryMode: 'pull',
      filter: { minUrgency: 'urgent' },
    });
    expect(badFilter.status).toBe(400);
    expect(badFilter.json.error.message).toContain('filter.minUrgency');
    const list = await api<{ subscriptions: unknown[] }>(server, 'GET', '/subscriptions');
    expect(list.json.subscriptions).toEqual([]);
  });
});

describe('pull subscriptions', () => {
  it('lists what matched since the acknowledged cursor; ack moves the cursor; other runtimes cannot see it', async () => {
    const server = await startServer();
    const client = new BatonClient({ url: server.url, actor: { id: 'w', runtime: 'codex' } });
    await client.createContext({ id: 'p' });
    await client.appendEvent('p', { kind: 'note', noteType: 'alert', title: 'before the subscription', urgency: 'blocking' });
    const { json: sub } = await api<CreatedContextSubscription>(server, 'POST', '/subscriptions', {
      deliveryMode: 'pull',
      filter: { kinds: ['note'], minUrgency: 'attention', scopes: ['space', 'global'] },
    });
    expect(sub.secret).toBeNull();
    const note = (title: string, urgency: string, scope = 'space') => ({
      kind: 'note' as const,
      noteType: 'alert' as const,
      title,
      urgency,
      scope,
    });
    await client.appendEvents('p', [
      note('low', 'background'),
      note('thread only', 'blocking', 'thread'),
      activity('not a note'),
      note('wanted 1', 'attention'),
      note('wanted 2', 'blocking', 'global'),
      note('wanted 3', 'blocking'),
    ] as never);

    const page = (await api<SubscriptionEventPage>(server, 'GET', `/subscriptions/${sub.id}/events?limit=2`)).json;
    const titles = (events: Event[]) => events.map((e) => (e.kind === 'note' ? e.title : ''));
    expect(titles(page.events)).toEqual(['wanted 1', 'wanted 2']);
    expect(page.hasMore).toBe(true);
    expect(page.cursor).toBe(sub.cursor);
    const ack = await api<ContextSubscription>(server, 'POST', `/subscriptions/${sub.id}/ack`, { seq: page.nextAfter });
    expect(ack.json.cursor).toBe(page.nextAfter);

    const rest = (await api<SubscriptionEventPage>(server, 'GET', `/subscriptions/${sub.id}/events`)).json;
    expect(titles(rest.events)).toEqual(['wanted 3']);
    expect(rest.hasMore).toBe(false);
    await api(server, 'POST', `/subscriptions/${sub.id}/ack`, { seq: rest.nextAfter });
    const none = (await api<SubscriptionEventPage>(server, 'GET', `/subscriptions/${sub.id}/events`)).json;
    expect(none.events).toEqual([]);
    const back = await api<ContextSubscription>(server, 'POST', `/subscriptions/${sub.id}/ack`, { seq: 1 });
    expect(back.json.cursor).toBe(rest.nextAfter);

    expect((await api(server, 'GET', `/subscriptions/${sub.id}/events`, undefined, 'claude-code')).status).toBe(404);
    expect((await api(server, 'POST', `/subscriptions/${sub.id}/ack`, { seq: 10_000 })).status).toBe(400);
    expect((await api(server, 'DELETE', `/subscriptions/${sub.id}`)).status).toBe(200);
    expect((await api(server, 'GET', `/subscriptions/${sub.id}`)).status).toBe(404);
  });
});

describe.skipIf(postgresFactory().unavailable !== null)('push subscriptions with two instances on one PostgreSQL', () => {
  it('one instance delivers each subscription, events from both instances arrive once in seq order, and the other takes over', async () => {
    const db = await freshPostgresDatabase();
    cleanups.push(() => db.drop());
    const a = await startServer({ databaseUrl: db.url });
    const b = await startServer({ databaseUrl: db.url });
    const hook = await receiver();
    const onA = new BatonClient({ url: a.url });
    const onB = new BatonClient({ url: b.url });
    await onA.createContext({ id: 'x' });
    const { json: sub } = await api<CreatedContextSubscription>(b, 'POST', '/subscriptions', { deliveryMode: 'push', endpoint: hook.url });
    await waitFor(() => [...a.push.delivering(), ...b.push.delivering()].includes(sub.id));
    await new Promise((r) => setTimeout(r, 300)); // several scans on both instances
    expect([...a.push.delivering(), ...b.push.delivering()].filter((id) => id === sub.id)).toHaveLength(1);

    const started = performance.now();
    const crossing = await onA.appendEvent('x', activity('written on A'));
    await waitFor(() => hook.got.length === 1);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(hook.got[0]?.body.event.id).toBe(crossing.id);

    const writes: Promise<Event>[] = [];
    for (let i = 0; i < 20; i++) writes.push(onA.appendEvent('x', activity(`A${i}`)), onB.appendEvent('x', activity(`B${i}`)));
    const written = await Promise.all(writes);
    await waitFor(() => hook.got.length === 41);
    const seqs = hook.got.map((r) => r.body.event.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(hook.got.map((r) => r.body.event.id)).size).toBe(41);
    expect(new Set(seqs)).toEqual(new Set([crossing.seq, ...written.map((e) => e.seq)]));

    // The delivering instance stops; the other claims the released lease on its next scan.
    const [owner, survivor, survivorClient] = a.push.delivering().includes(sub.id) ? [a, b, onB] : [b, a, onA];
    await owner.close();
    const later = await survivorClient.appendEvent('x', activity('after the hand-over'));
    await waitFor(() => hook.got.some((r) => r.body.event.id === later.id));
    expect(survivor.push.delivering()).toContain(sub.id);
    expect(hook.got.filter((r) => r.body.event.id === later.id)).toHaveLength(1);
  });
});
