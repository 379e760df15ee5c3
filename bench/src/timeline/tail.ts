import { Hub, localCaller, openSqliteStore } from 'baton';
import type { BenchScale } from '../scale.js';
import { type LoadClient, loadClient, runLoad } from './load.js';
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
  /** Reads the load generator made in the timed run, and which one it was. */
  httpRequests: number;
  client: LoadClient;
  /** Server CPU time per read, µs. */
  serverCpuMicros: number;
}

const ACTOR = { id: 'claude-code-7f3a', name: 'Claude Code', runtime: 'claude-code', role: 'agent' } as const;

const summarize = (samples: number[]): Latency => ({ p50: percentile(samples, 50), p99: percentile(samples, 99) });

/**
 * The newest 100 events of one context in a large store, three ways: the
 * hub in-process, `GET …/events?tail=100` on the real `baton serve` driven
 * by the load generator (wrk, else Node) from another process, one request
 * at a time, and the bare SQL query on better-sqlite3 (the floor). Each
 * after a warm-up, so all three read from a warm page cache.
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
  try {
    const url = `${server.url}/api/v1/contexts/${contextId}/events?tail=100`;
    const headers = { 'x-baton-actor': ACTOR.id, 'x-baton-actor-name': ACTOR.name, 'x-baton-runtime': ACTOR.runtime };
    const first = await fetch(url, { headers });
    if (first.status !== 200) throw new Error(`GET tail returned ${first.status}: ${await first.text()}`);
    const responseBytes = (await first.arrayBuffer()).byteLength;
    // One connection, one request at a time, from a separate load-generator process.
    const client = loadClient();
    const cpu0 = server.cpuSeconds();
    const load = await runLoad(client, {
      url,
      method: 'GET',
      headers,
      concurrency: 1,
      seconds: scale.pick(2, 10),
      warmupSeconds: 1,
      expectStatus: 200,
    });
    if (load.errors > 0) throw new Error(`${load.errors} tail reads failed`);
    const serverCpuMicros = ((server.cpuSeconds() - cpu0) * 1e6) / (load.requests + load.warmupRequests);
    return {
      iterations,
      hub: summarize(hubSamples),
      http: { p50: load.p50, p99: load.p99 },
      httpRequests: load.requests,
      client,
      serverCpuMicros,
      raw: summarize(rawSamples),
      responseBytes,
    };
  } finally {
    await server.stop();
  }
}
