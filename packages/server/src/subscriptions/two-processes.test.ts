import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Event, getActivityFeed, type WebhookDelivery } from '@baton/core';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { freshPostgresDatabase, postgresFactory } from '../test-support/databases.js';

/**
 * The "done when", with nothing in-process: two `baton serve`
 * processes on one PostgreSQL, a curl append on one, and on the other a
 * stock y-websocket client and a webhook receiver (needs `npm run build`).
 */
const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const run = promisify(execFile);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function serve(databaseUrl: string): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', databaseUrl], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BATON_LOG_LEVEL: 'warn' },
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`baton serve exited with ${code}: ${out}`)));
  });
}

async function curl(...args: string[]): Promise<unknown> {
  const { stdout } = await run('curl', ['-sS', '--fail-with-body', '-H', 'content-type: application/json', ...args]);
  return JSON.parse(stdout);
}

async function waitFor(predicate: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe.skipIf(postgresFactory().unavailable !== null)('two baton serve processes on one PostgreSQL', () => {
  it('a Yjs client and a webhook receiver on one process see an event the moment curl appends it on the other', async () => {
    const db = await freshPostgresDatabase();
    cleanups.push(() => db.drop());
    const [writer, reader] = await Promise.all([serve(db.url), serve(db.url)]);

    const hooks: { at: number; body: WebhookDelivery }[] = [];
    const receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => {
        raw += c.toString();
      });
      req.on('end', () => {
        hooks.push({ at: performance.now(), body: JSON.parse(raw) as WebhookDelivery });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    await curl('-X', 'POST', `${writer}/api/v1/contexts`, '-d', JSON.stringify({ id: 'handoff', title: 'Auth middleware' }));
    await curl(
      '-X',
      'POST',
      `${reader}/api/v1/subscriptions`,
      '-H',
      'x-baton-runtime: openclaw',
      '-d',
      JSON.stringify({ deliveryMode: 'push', endpoint: hookUrl, filter: { contextIds: ['handoff'] } }),
    );

    const doc = new Y.Doc();
    const provider = new WebsocketProvider(`${reader.replace('http', 'ws')}/yjs`, 'handoff', doc, {
      WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
      disableBc: true,
    });
    cleanups.push(() => {
      provider.destroy();
      provider.awareness.destroy();
    });
    await new Promise<void>((resolve) => provider.once('sync', () => resolve()));
    let inDoc = 0;
    doc.getArray('activity').observeDeep(() => {
      if (!inDoc && getActivityFeed(doc).length > 0) inDoc = performance.now();
    });
    // Let the reader's dispatcher claim the subscription (it does on creation; this only rules out a race in the test).
    await new Promise((r) => setTimeout(r, 200));

    const started = performance.now();
    const event = (await curl(
      '-X',
      'POST',
      `${writer}/api/v1/contexts/handoff/events`,
      '-H',
      'x-baton-actor: claude-code-7f3a',
      '-H',
      'x-baton-runtime: claude-code',
      '-d',
      JSON.stringify({ kind: 'activity', activityType: 'milestone', content: [{ type: 'text', text: 'auth middleware scaffolded' }] }),
    )) as Event;
    const appended = performance.now();
    await waitFor(() => hooks.length === 1 && inDoc > 0);

    expect(getActivityFeed(doc)).toEqual([event]);
    expect(hooks[0]?.body.event).toEqual(event);
    // "The moment": well under the 1 s safety poll, so the NOTIFY poke carried it across processes.
    expect(inDoc - started).toBeLessThan(500);
    expect((hooks[0]?.at ?? Number.POSITIVE_INFINITY) - started).toBeLessThan(500);
    process.stdout.write(
      `curl append took ${(appended - started).toFixed(0)} ms; Yjs client saw it ${(inDoc - started).toFixed(0)} ms and the webhook ${((hooks[0]?.at ?? 0) - started).toFixed(0)} ms after curl started\n`,
    );
  });
});
