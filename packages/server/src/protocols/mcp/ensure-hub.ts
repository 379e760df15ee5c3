import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '@baton/core';
import { isLoopback } from '../../config.js';
import type { Logger } from '../../log.js';

export interface HubStarter {
  /** The `baton` CLI entry point (dist/cli/main.js), run with this Node. */
  cli: string;
  /** The data directory the started hub uses; its log goes to `hub.log` there. */
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

export interface EnsureHubOptions {
  url: string;
  /** How to start a hub when none answers; null never starts one. */
  start: HubStarter | null;
  log: Logger;
  /** Give up after this long (default 20 s: a first start migrates a new database). */
  timeoutMs?: number;
}

export interface FoundHub {
  url: string;
  /** The pid of the `baton serve` this call started and that is now serving, if any. */
  startedPid: number | null;
}

const POLL_MS = 100;
/** A started hub that exited is given this long for a rival's hub to answer before starting another. */
const RIVAL_GRACE_MS = 3000;
const MAX_STARTS = 3;

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
    if (!response.ok) return false;
    return ((await response.json()) as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}

function startHub(url: URL, starter: HubStarter): { pid: number; exited: () => boolean } {
  mkdirSync(starter.dataDir, { recursive: true });
  const logFile = openSync(join(starter.dataDir, 'hub.log'), 'a');
  // 'localhost' may resolve to ::1 or 127.0.0.1; bind the one every client reaches.
  const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  // Detached in its own process group, with no tie to our stdio: the hub outlives this agent and serves the next.
  const child = spawn(process.execPath, [starter.cli, 'serve', '--host', host, '--port', port], {
    detached: true,
    stdio: ['ignore', logFile, logFile],
    env: starter.env,
  });
  closeSync(logFile);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  child.once('error', () => {
    exited = true;
  });
  child.unref();
  return { pid: child.pid ?? -1, exited: () => exited };
}

/**
 * Finds the hub at `url`, or starts `baton serve` for it in the background and
 * waits until it answers. Two agents starting at once may both start one:
 * the second to bind the port fails (EADDRINUSE) and exits, and both find
 * the winner on the next poll. A start that dies before anyone answers (a
 * lost race on a fresh database, say) is retried.
 */
export async function ensureHub(options: EnsureHubOptions): Promise<FoundHub> {
  const url = options.url.replace(/\/+$/, '');
  if (await answers(url)) return { url, startedPid: null };
  const parsed = new URL(url);
  if (!options.start || !isLoopback(parsed.hostname)) {
    throw new BatonError('unavailable', `no baton hub answers at ${url}; start one there with \`baton serve\`, or point BATON_URL at one`);
  }
  const timeoutMs = options.timeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  let starts = 0;
  while (Date.now() < deadline && starts < MAX_STARTS) {
    const child = startHub(parsed, options.start);
    starts += 1;
    options.log.info({ hubPid: child.pid, url, dataDir: options.start.dataDir }, 'started baton serve in the background');
    let exitedAt: number | null = null;
    while (Date.now() < deadline) {
      if (await answers(url)) {
        const serving = !child.exited();
        if (!serving) options.log.info({ hubPid: child.pid }, 'another process started the hub first; using it');
        return { url, startedPid: serving ? child.pid : null };
      }
      if (child.exited()) {
        exitedAt ??= Date.now();
        if (Date.now() - exitedAt > RIVAL_GRACE_MS) break;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  throw new BatonError(
    'unavailable',
    `started baton serve for ${url} but it did not answer within ${Math.round(timeoutMs / 1000)} s; see ${join(options.start.dataDir, 'hub.log')}`,
  );
}
