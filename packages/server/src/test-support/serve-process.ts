import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built binary, as `npm install baton` runs it; tests that spawn it need `npm run build` first. */
export const BATON_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'main.js');

export function assertBuilt(): void {
  if (!existsSync(BATON_BIN)) throw new Error(`${BATON_BIN} is missing: run \`npm run build\` before these tests`);
}

/** The environment without any BATON_* setting of the machine running the tests, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('BATON_')) env[key] = value;
  return { ...env, BATON_LOG_LEVEL: 'warn', ...extra };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface BatonProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
}

/** Runs `baton <args>` and collects its output. */
export function runBaton(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): BatonProcess {
  const child = spawn(process.execPath, [BATON_BIN, ...args], {
    env: options.env ?? cleanEnv(),
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs a command that ends by itself; resolves with its exit and output. */
export async function runToEnd(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<Exit & { stdout: string; stderr: string }> {
  const run = runBaton(args, options);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  const exit = await run.exited;
  clearTimeout(timer);
  return { ...exit, stdout: run.stdout(), stderr: run.stderr() };
}

export interface ServeProcess extends BatonProcess {
  /** The URL `baton serve` printed. */
  url: string;
  /** Sends `signal` and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

const LISTENING = /baton listening on (http:\/\/\S+)/;

/** Starts `baton serve <args>` and resolves once it prints the URL it listens on. */
export async function startServe(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<ServeProcess> {
  const run = runBaton(['serve', ...args], options);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      run.child.kill('SIGKILL');
      reject(new Error(`baton serve printed no URL within 20 s; stderr:\n${run.stderr()}`));
    }, 20_000);
    const check = () => {
      const match = LISTENING.exec(run.stdout());
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve(match[1]);
    };
    run.child.stdout?.on('data', check);
    void run.exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`baton serve exited (${exit.code ?? exit.signal}) before listening; stderr:\n${run.stderr()}`));
    });
  });
  return {
    ...run,
    url,
    stop: async (signal = 'SIGTERM') => {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill(signal);
      return run.exited;
    },
  };
}
