import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface Served {
  url: string;
  /** CPU seconds (user + system) the server process has used so far; NaN where /proc is missing. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** The real `baton serve` binary (the built dist) on a free port, over the given data directory. */
export function startBaton(dataDir: string): Promise<Served> {
  // The package's entry is dist/index.js; the binary sits beside it.
  const bin = join(dirname(createRequire(import.meta.url).resolve('baton')), 'cli', 'main.js');
  return startChild(process.execPath, [bin, 'serve', '--port', '0', '--data', dataDir], /listening on (http:\/\/\S+)/);
}

/** The bare @hono/node-server reference handler. */
export function startBare(): Promise<Served> {
  return startChild(process.execPath, ['--import', 'tsx', join(here, 'bare-server.ts')], /listening on (http:\/\/\S+)/);
}

/** The official MCP SDK's server with a no-op tool, over Streamable HTTP (bench/src/mcp/noop-server.ts). */
export function startNoopMcpHttp(): Promise<Served> {
  return startChild(
    process.execPath,
    ['--import', 'tsx', join(here, '..', 'mcp', 'noop-server.ts'), '--http'],
    /listening on (http:\/\/\S+)/,
  );
}

/** Children still running, killed if the benchmark exits early (an error, Ctrl-C). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130));
}

function startChild(command: string, args: string[], ready: RegExp): Promise<Served> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BATON_LOG_LEVEL: 'warn' } });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-8192);
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => fail(new Error(`${args.join(' ')} did not start in 60 s`)), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${stderr}`));
    };
    const early = (code: number | null) => fail(new Error(`${args.join(' ')} exited with ${code}`));
    child.once('exit', early);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = ready.exec(stdout);
      if (!match?.[1]) return;
      clearTimeout(timer);
      child.off('exit', early);
      // Nothing reads stdout from here on; keep the pipe drained.
      child.stdout?.removeAllListeners('data').resume();
      resolve({ url: match[1], cpuSeconds: () => cpuSeconds(child.pid), stop: () => stop(child) });
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** utime + stime from /proc/<pid>/stat (Linux), at the usual 100 ticks per second. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}
