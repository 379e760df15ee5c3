import { Agent, get } from 'node:http';
import { Hub, localCaller, openSqliteStore } from 'baton';
import type { BenchScale } from '../scale.js';
import { startBaton } from './processes.js';
import { rawConnection } from './sqlite-files.js';
import { percentile, sampleLatency } from './stats.js';

export interface Latency {
  p50: number;
  p99: number;
}

export interface TailResult {
  iterations: number;
  hub: Latency;
  http: Latency;
  raw: Latency;
  /** Bytes of one HTTP response. */
  responseBytes: number;
}

const ACTOR = { id: 'claude-code-7f3a', name: 'Claude Code', runtime: 'claude-code', role: 'agent' } as const;

const summarize = (samples: number[]): Latency => ({ p50: percentile(samples, 50), p99: percentile(samples, 99) });

/**
 * The newest 100 events of one context in a large store, three ways: the
 * hub in-process, `GET …/events?tail=100` on the real `baton serve` from
 * another process, and the bare SQL query on better-sqlite3 (the floor).
 * Each after a warm-up, so all three read from a warm page cache.
 */
export async function tailBench(scale: BenchScale, dir: string, file: string, contextId: string): Promise<TailResult> {
  const iterations = scale.pick(300, 2000);
  const warmup = scale.pick(50, 200);

  const raw = rawConnection(file, { readonly: true });
  const query = raw.prepare(
    `SELECT seq, id, context_id, kind, type, direction, phase, round, step_id, actor_id, task_id, parent_id, created_at, body, projection
     FROM events WHERE context_id = ? AND (private_to IS NULL OR private_to = ?) ORDER BY seq DESC LIMIT 101`,
  );
  const runRaw = () => query.all(contextId, ACTOR.runtime);
  for (let i = 0; i < warmup; i++) runRaw();
  const rawSamples = await sampleLatency(iterations, runRaw);
  raw.close();

  const store = openSqliteStore({ dataDir: dir });
  const hub = new Hub(store);
  const caller = localCaller(ACTOR);
  const runHub = () => hub.listEvents(contextId, { tail: '100' }, caller);
  for (let i = 0; i < warmup; i++) await runHub();
  const hubSamples = await sampleLatency(iterations, runHub);
  await store.close();

  const server = await startBaton(dir);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${server.url}/api/v1/contexts/${contextId}/events?tail=100`);
  let responseBytes = 0;
  const runHttp = () =>
    new Promise<void>((resolve, reject) => {
      get(
        url,
        { agent, headers: { 'x-baton-actor': ACTOR.id, 'x-baton-actor-name': ACTOR.name, 'x-baton-runtime': ACTOR.runtime } },
        (res) => {
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
          });
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`GET tail returned ${res.statusCode}`));
            responseBytes = size;
            resolve();
          });
        },
      ).on('error', reject);
    });
  try {
    for (let i = 0; i < warmup; i++) await runHttp();
    const httpSamples = await sampleLatency(iterations, runHttp);
    return { iterations, hub: summarize(hubSamples), http: summarize(httpSamples), raw: summarize(rawSamples), responseBytes };
  } finally {
    agent.destroy();
    await server.stop();
  }
}
