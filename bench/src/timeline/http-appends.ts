import type { BenchScale } from '../scale.js';
import { activityEvent, seeded } from './events.js';
import { type LoadClient, type LoadResult, type LoadSpec, loadClient, runLoad } from './load.js';
import { type Served, startBare, startBaton } from './processes.js';
import { scratchDir } from './sqlite-files.js';
import { median } from './stats.js';

export interface Measured extends LoadResult {
  /** Server CPU time per request, µs: steadier than throughput on a shared machine. */
  serverCpuMicros: number;
}

export interface HttpAppendRow {
  concurrency: number;
  baton: Measured[];
  bare: Measured[];
}

export interface HttpAppendResult {
  client: LoadClient;
  seconds: number;
  reps: number;
  rows: HttpAppendRow[];
  /** Events the server stored, and the 201s the client counted (stored may be more: requests in flight at the end). */
  stored: number;
  acknowledged: number;
}

const HEADERS = {
  'content-type': 'application/json',
  'x-baton-actor': 'claude-code-7f3a',
  'x-baton-actor-name': 'Claude Code',
  'x-baton-runtime': 'claude-code',
};

/**
 * Single-event appends over HTTP: the real `baton serve` (SQLite, fresh data
 * directory) and the bare @hono/node-server reference, each in its own
 * process, driven by a separate load-generator process on 127.0.0.1 with
 * keep-alive connections. Server and client share the machine's cores.
 */
export async function httpAppendBench(scale: BenchScale): Promise<HttpAppendResult> {
  const client = loadClient();
  const seconds = scale.pick(1, 5);
  const reps = scale.pick(1, 3);
  const scratch = scratchDir('http');
  const baton = await startBaton(scratch.dir);
  const bare = await startBare();
  try {
    const created = await fetch(`${baton.url}/api/v1/contexts`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ title: 'http appends' }),
    });
    const context = (await created.json()) as { id: string };
    const body = JSON.stringify(activityEvent(seeded(7), []));
    const spec = (url: string, concurrency: number) => ({
      url,
      method: 'POST' as const,
      headers: HEADERS,
      body,
      concurrency,
      seconds,
      warmupSeconds: scale.pick(0.5, 1),
      expectStatus: 201,
    });
    const rows: HttpAppendRow[] = [];
    let acknowledged = 0;
    for (const concurrency of [1, 32]) {
      const row: HttpAppendRow = { concurrency, baton: [], bare: [] };
      for (let rep = 0; rep < reps; rep++) {
        const result = await measure(baton, client, spec(`${baton.url}/api/v1/contexts/${context.id}/events`, concurrency));
        if (result.errors > 0) throw new Error(`${result.errors} appends failed at concurrency ${concurrency}`);
        acknowledged += result.requests + result.warmupRequests;
        row.baton.push(result);
        row.bare.push(await measure(bare, client, spec(`${bare.url}/events`, concurrency)));
      }
      rows.push(row);
    }
    const after = (await (await fetch(`${baton.url}/api/v1/contexts/${context.id}`, { headers: HEADERS })).json()) as {
      eventCount: number;
    };
    return { client, seconds, reps, rows, stored: after.eventCount, acknowledged };
  } finally {
    await baton.stop();
    await bare.stop();
    scratch.remove();
  }
}

async function measure(server: Served, client: LoadClient, spec: LoadSpec): Promise<Measured> {
  const before = server.cpuSeconds();
  const result = await runLoad(client, spec);
  const cpu = server.cpuSeconds() - before;
  return { ...result, serverCpuMicros: (cpu * 1e6) / (result.requests + result.warmupRequests) };
}

export const medianCpu = (results: readonly Measured[]) => median(results.map((r) => r.serverCpuMicros));
export const medianRate = (results: readonly LoadResult[]) => median(results.map((r) => r.perSecond));
export const medianP99 = (results: readonly LoadResult[]) => median(results.map((r) => r.p99));
