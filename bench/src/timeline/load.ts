import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  expectStatus: number;
}

export interface LoadResult {
  client: 'node' | 'wrk';
  requests: number;
  errors: number;
  warmupRequests: number;
  seconds: number;
  perSecond: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
}

export type LoadClient = 'node' | 'wrk';

/**
 * BATON_BENCH_HTTP_CLIENT picks the load generator: `wrk` (C, lighter on the
 * shared cores) when it is installed, else `node`; both run as separate
 * processes from the server.
 */
export function loadClient(env: NodeJS.ProcessEnv = process.env): LoadClient {
  const wanted = env.BATON_BENCH_HTTP_CLIENT;
  if (wanted === 'node' || wanted === 'wrk') return wanted;
  if (wanted) throw new Error(`BATON_BENCH_HTTP_CLIENT must be 'node' or 'wrk', not '${wanted}'`);
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is "not installed".
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'node' : 'wrk';
  }
}

export function runLoad(client: LoadClient, spec: LoadSpec): Promise<LoadResult> {
  return client === 'wrk' ? runWrk(spec) : runNode(spec);
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

async function runNode(spec: LoadSpec): Promise<LoadResult> {
  const out = await run(process.execPath, ['--import', 'tsx', join(here, 'load-client.ts'), JSON.stringify(spec)]);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as LoadResult;
}

const lua = (s: string) => `[==[${s}]==]`;

async function runWrk(spec: LoadSpec): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-wrk-'));
  try {
    const script = join(dir, 'request.lua');
    const lines = [`wrk.method = ${lua(spec.method)}`];
    for (const [name, value] of Object.entries(spec.headers)) lines.push(`wrk.headers[ ${lua(name)} ] = ${lua(value)}`);
    if (spec.body !== undefined) lines.push(`wrk.body = ${lua(spec.body)}`);
    writeFileSync(script, `${lines.join('\n')}\n`);
    // wrk takes whole seconds.
    const base = ['-t', '1', '-c', String(spec.concurrency), '-s', script, '--latency', spec.url];
    let warmupRequests = 0;
    if (spec.warmupSeconds > 0)
      warmupRequests = parseWrk(await run('wrk', ['-d', `${Math.max(1, Math.round(spec.warmupSeconds))}s`, ...base])).requests;
    const result = parseWrk(await run('wrk', ['-d', `${Math.max(1, Math.round(spec.seconds))}s`, ...base]));
    return { ...result, warmupRequests };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parseWrk(out: string): LoadResult {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(out);
  if (!total?.[1] || !total[2] || !total[3]) throw new Error(`unexpected wrk output:\n${out}`);
  const seconds = duration(Number(total[2]), total[3]) / 1000;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  // wrk counts 2xx and 3xx alike; the spec's status is what we expect, the rest are errors.
  const requests = Number(total[1]) - non2xx;
  const pct = (p: string) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return m?.[1] && m[2] ? duration(Number(m[1]), m[2]) : Number.NaN;
  };
  return {
    client: 'wrk',
    requests,
    errors: non2xx + socketErrors,
    warmupRequests: 0,
    seconds,
    perSecond: requests / seconds,
    p50: pct('50'),
    p99: pct('99'),
  };
}

/** wrk's duration units, in ms. */
function duration(value: number, unit: string): number {
  return unit === 'us' ? value / 1000 : unit === 's' ? value * 1000 : unit === 'm' ? value * 60_000 : value;
}
