import { Agent, request } from 'node:http';
import type { LoadResult, LoadSpec } from './load.js';

/**
 * The Node load generator, run as its own process so it does not share an
 * event loop with the server: `concurrency` keep-alive connections, each
 * sending the next request as soon as the last response has been read.
 * Prints one JSON LoadResult on stdout.
 */
const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const target = new URL(spec.url);
const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
const headers: Record<string, string | number> = { ...spec.headers };
if (body) headers['content-length'] = body.length;

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: target.hostname, port: target.port, path: target.pathname + target.search, method: spec.method, headers },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function worker(until: number, latencies: number[], counts: { ok: number; errors: number }): Promise<void> {
  while (performance.now() < until) {
    const t0 = performance.now();
    const status = await once().catch(() => 0);
    latencies.push(performance.now() - t0);
    if (status === spec.expectStatus) counts.ok += 1;
    else counts.errors += 1;
  }
}

async function main(): Promise<void> {
  // Warm the connections and the server's code paths before the clock starts.
  const warm = { ok: 0, errors: 0 };
  const until = performance.now() + spec.warmupSeconds * 1000;
  await Promise.all(Array.from({ length: spec.concurrency }, () => worker(until, [], warm)));
  const latencies: number[] = [];
  const counts = { ok: 0, errors: 0 };
  const t0 = performance.now();
  const end = t0 + spec.seconds * 1000;
  await Promise.all(Array.from({ length: spec.concurrency }, () => worker(end, latencies, counts)));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? Number.NaN;
  const result: LoadResult = {
    client: 'node',
    requests: counts.ok,
    errors: counts.errors,
    warmupRequests: warm.ok,
    seconds,
    perSecond: counts.ok / seconds,
    p50: at(50),
    p99: at(99),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  agent.destroy();
}

await main();
