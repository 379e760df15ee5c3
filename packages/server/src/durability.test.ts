import type { Event } from '@baton/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, postgresFactory, tempDir } from './test-support/databases.js';
import { assertBuilt, type ServeProcess, startServe } from './test-support/serve-process.js';

const CONTEXTS = ['durable-a', 'durable-b', 'durable-c'];
const WRITERS = 8;
const ROUNDS = 2;
/**
 * Each round kills the server once this many appends are acknowledged, or
 * after ROUND_MS once at least MIN_ACKS are (a loaded machine is slow).
 */
const ACKS_PER_ROUND = 1500;
const MIN_ACKS = 300;
const ROUND_MS = 4000;
const GIVE_UP_MS = 30_000;

interface Acked {
  contextId: string;
  text: string;
}

interface RoundStats {
  acked: number;
  ms: number;
  cutOff: number;
}

/**
 * DESIGN §3: the SQL event log is the source of truth. Every append the hub
 * acknowledged with a 2xx must survive `kill -9` of the process: a real
 * `baton serve`, concurrent writers, the kill mid-stream, a restart on the
 * same data, and everything read back.
 */
async function writeUntilKilled(server: ServeProcess, acked: Map<string, Acked>, round: number): Promise<RoundStats> {
  const started = performance.now();
  const before = acked.size;
  let cutOff = 0;
  let stop = false;
  const unexpected: string[] = [];
  const writer = async (w: number) => {
    for (let n = 0; !stop; n++) {
      const contextId = CONTEXTS[(w + n) % CONTEXTS.length] as string;
      const size = n % 3 === 0 ? 1 + ((w * 7 + n) % 50) : 1;
      const events = Array.from({ length: size }, (_, k) => {
        const text = `r${round} w${w} n${n} k${k} ${n % 40 === 0 ? 'x'.repeat(64 * 1024) : ''}`;
        // Half carry writer-chosen ids, half get server ids: both must be durable.
        const id = (n + k) % 2 === 0 ? { id: `r${round}-w${w}-n${n}-k${k}` } : {};
        return {
          ...id,
          kind: k % 2 ? 'activity' : 'turn',
          ...(k % 2 ? { activityType: 'agent_action' } : { direction: 'prompt' }),
          content: [{ type: 'text', text }],
        };
      });
      const body = size === 1 ? events[0] : { events };
      let reply: Response;
      let json: Event | { events: Event[] };
      try {
        reply = await fetch(`${server.url}/api/v1/contexts/${contextId}/events`, { method: 'POST', body: JSON.stringify(body) });
        json = (await reply.json()) as Event | { events: Event[] };
      } catch {
        // The server died with this request in flight: it was never acknowledged.
        cutOff++;
        return;
      }
      if (reply.status !== 201 && reply.status !== 200) {
        unexpected.push(`${reply.status} ${JSON.stringify(json).slice(0, 300)}`);
        stop = true;
        return;
      }
      const stored = 'events' in json ? json.events : [json];
      stored.forEach((event, k) => {
        const content = event.content[0];
        acked.set(event.id, { contextId, text: content?.type === 'text' ? content.text : '' });
        expect(content?.type === 'text' && content.text).toBe(events[k]?.content[0]?.text);
      });
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  const enough = () => {
    const count = acked.size - before;
    const elapsed = performance.now() - started;
    return count >= ACKS_PER_ROUND || (count >= MIN_ACKS && elapsed >= ROUND_MS) || elapsed >= GIVE_UP_MS;
  };
  while (!enough() && !stop) await new Promise((resolve) => setTimeout(resolve, 10));
  const ms = performance.now() - started;
  server.child.kill('SIGKILL');
  const exit = await server.exited;
  stop = true;
  await Promise.all(writers);
  expect(unexpected).toEqual([]);
  expect(exit.signal).toBe('SIGKILL');
  return { acked: acked.size - before, ms, cutOff };
}

async function readAll(url: string, contextId: string): Promise<Event[]> {
  const events: Event[] = [];
  for (let after = 0; ; ) {
    const reply = await fetch(`${url}/api/v1/contexts/${contextId}/events?after=${after}&limit=1000`);
    expect(reply.status).toBe(200);
    const page = (await reply.json()) as { events: Event[]; nextAfter: number; hasMore: boolean };
    events.push(...page.events);
    if (!page.hasMore) return events;
    after = page.nextAfter;
  }
}

const targets = [
  { name: 'sqlite', unavailable: null as string | null },
  { name: 'postgres', unavailable: postgresFactory().unavailable },
];

describe('durability: acknowledged appends survive kill -9', () => {
  const running: ServeProcess[] = [];
  const cleanups: (() => unknown)[] = [];
  beforeAll(() => assertBuilt());
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  for (const target of targets) {
    it.skipIf(target.unavailable !== null)(
      `${target.name}: concurrent writers, kill -9 mid-stream, restart, read back`,
      async () => {
        let storeArgs: string[];
        if (target.name === 'sqlite') {
          const tmp = tempDir('baton-durable-');
          cleanups.push(tmp.remove);
          storeArgs = ['--data', tmp.dir];
        } else {
          const db = await freshPostgresDatabase();
          cleanups.push(db.drop);
          storeArgs = ['--db', db.url];
        }
        const start = async () => {
          const server = await startServe(['--port', '0', ...storeArgs]);
          running.push(server);
          return server;
        };

        let server = await start();
        for (const id of CONTEXTS) {
          expect((await fetch(`${server.url}/api/v1/contexts`, { method: 'POST', body: JSON.stringify({ id }) })).status).toBe(201);
        }
        const acked = new Map<string, Acked>();
        const stats: RoundStats[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          stats.push(await writeUntilKilled(server, acked, round));
          server = await start();
        }

        const seen = new Map<string, Event>();
        const seqs: number[] = [];
        for (const contextId of CONTEXTS) {
          const events = await readAll(server.url, contextId);
          const contextSeqs = events.map((e) => e.seq);
          for (let i = 1; i < contextSeqs.length; i++) expect(contextSeqs[i]).toBeGreaterThan(contextSeqs[i - 1] as number);
          for (const event of events) {
            expect(seen.has(event.id), `duplicate id ${event.id}`).toBe(false);
            seen.set(event.id, event);
          }
          seqs.push(...contextSeqs);
        }
        expect(new Set(seqs).size).toBe(seqs.length);
        const missing = [...acked].filter(([id, want]) => {
          const got = seen.get(id);
          const content = got?.content[0];
          return !got || got.contextId !== want.contextId || content?.type !== 'text' || content.text !== want.text;
        });
        expect(missing.map(([id]) => id)).toEqual([]);
        for (const round of stats) expect(round.acked).toBeGreaterThanOrEqual(MIN_ACKS);

        // The log goes on after the crash, never reusing a seq.
        const next = await fetch(`${server.url}/api/v1/contexts/${CONTEXTS[0]}/events`, {
          method: 'POST',
          body: JSON.stringify({ kind: 'note', noteType: 'status', title: 'after the crash' }),
        });
        expect(next.status).toBe(201);
        expect(((await next.json()) as Event).seq).toBeGreaterThan(Math.max(...seqs));
        expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });

        const summary = stats.map(
          (s) => `${s.acked} acked in ${Math.round(s.ms)} ms (${Math.round((s.acked / s.ms) * 1000)}/s), ${s.cutOff} cut off`,
        );
        process.stderr.write(`durability ${target.name}: ${summary.join('; ')}; ${seen.size} stored, ${acked.size} acknowledged\n`);
      },
      180_000,
    );
  }
});
