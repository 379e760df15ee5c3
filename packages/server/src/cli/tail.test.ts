import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BatonClient } from '../client/baton-client.js';
import { type HubServer, startHubServer } from '../hub-server.js';
import { createLogger } from '../log.js';
import { tempDir } from '../test-support/databases.js';

const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let server: HubServer;
beforeAll(async () => {
  const tmp = tempDir();
  server = await startHubServer(
    { dataDir: tmp.dir, databaseUrl: undefined, host: '127.0.0.1', port: 0, token: undefined, bodyLimit: 8 << 20 },
    createLogger('silent'),
  );
  return async () => {
    await server.close();
    tmp.remove();
  };
});

function tail(args: string[]): { child: ChildProcess; lines: string[]; waitFor: (re: RegExp) => Promise<string> } {
  const child = spawn(process.execPath, [BIN, 'tail', '--url', server.url, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => {
    child.kill('SIGKILL');
  });
  const lines: string[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  const waitFor = async (re: RegExp) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const hit = lines.find((l) => re.test(l));
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no line matched ${re}; got ${JSON.stringify(lines)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { child, lines, waitFor };
}

async function started(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('following')) resolve();
    });
  });
}

describe('baton tail', () => {
  it('prints each new event as a readable line, filtered by context and type', async () => {
    const client = new BatonClient({ url: server.url, actor: { id: 'claude', runtime: 'claude-code' } });
    await client.createContext({ id: 'tail-a' });
    await client.createContext({ id: 'tail-b' });
    const everything = tail([]);
    const blockers = tail(['--context', 'tail-a', '--type', 'blocker']);
    await Promise.all([started(everything.child), started(blockers.child)]);
    await client.appendEvent('tail-b', { kind: 'activity', activityType: 'blocker', content: [{ type: 'text', text: 'elsewhere' }] });
    await client.appendEvent('tail-a', { kind: 'activity', activityType: 'milestone', content: [{ type: 'text', text: 'tests green' }] });
    await client.appendEvent('tail-a', { kind: 'activity', activityType: 'blocker', content: [{ type: 'text', text: 'need API key' }] });
    const line = await everything.waitFor(/need API key/);
    expect(line).toMatch(/tail-a claude@claude-code blocker need API key$/);
    await everything.waitFor(/milestone tests green/);
    await blockers.waitFor(/need API key/);
    expect(blockers.lines.filter(Boolean)).toHaveLength(1);
  });

  it('replays history with --since 0 and prints JSON with --json', async () => {
    const client = new BatonClient({ url: server.url });
    await client.createContext({ id: 'tail-j' });
    const note = await client.appendEvent('tail-j', { kind: 'note', noteType: 'decision', title: 'Use Postgres in prod' });
    const json = tail(['--since', '0', '--context', 'tail-j', '--json']);
    const line = await json.waitFor(/Use Postgres in prod/);
    expect(JSON.parse(line)).toMatchObject({ id: note.id, kind: 'note', title: 'Use Postgres in prod' });
  });

  it('rejects an unknown type with a clear message', async () => {
    const child = spawn(process.execPath, [BIN, 'tail', '--type', 'bogus'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('unknown --type bogus');
  });
});
