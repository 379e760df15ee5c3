import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BatonClient } from '../../client/baton-client.js';
import { tempDir } from '../../test-support/databases.js';
import { type AgentIdentity, type McpHarness, runMcpSuite, TOOL_NAMES } from './mcp.case.js';

/**
 * `baton mcp` as a coding agent runs it: the built CLI, spawned by the SDK's
 * StdioClientTransport, finding (or starting) a real hub on a free port with a
 * temp data directory. Each `baton mcp` logs the pid of a hub it starts
 * (`hubPid` on stderr); the tests stop those hubs when done.
 */
const BIN = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopAll(pids: Iterable<number>): Promise<void> {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 5000;
  while ([...pids].some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
}

/** A hub URL nobody serves yet and a data dir for the hub `baton mcp` will start there. */
interface StdioHarness extends McpHarness {
  hubPids: Set<number>;
  stderr: string[];
  /** `baton mcp` with these arguments (after `baton`) and extra environment. */
  spawn(args: string[], env?: Record<string, string>): Promise<Client>;
}

async function isolatedHub(): Promise<StdioHarness> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const data = tempDir('baton-mcp-');
  const hubPids = new Set<number>();
  const stderr: string[] = [];
  const clients: Client[] = [];
  const spawnMcp = async (args: string[], env: Record<string, string> = {}): Promise<Client> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, ...args],
      env: { ...process.env, ...env, BATON_URL: url, BATON_DATA: data.dir, BATON_LOG_LEVEL: 'info' } as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderr.push(text);
      for (const match of text.matchAll(/"hubPid":(\d+)/g)) hubPids.add(Number(match[1]));
    });
    const client = new Client({ name: 'baton-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  return {
    hubUrl: url,
    hubPids,
    stderr,
    connect(identity: AgentIdentity) {
      const args = ['mcp', '--agent', identity.agent, '--runtime', identity.runtime];
      if (identity.context) args.push('--context', identity.context);
      return spawnMcp(args);
    },
    spawn: spawnMcp,
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await stopAll(hubPids);
      data.remove();
    },
  };
}

runMcpSuite('stdio', isolatedHub);

describe('baton mcp', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()?.();
  });

  it('lets two agents starting at the same moment share one hub', async () => {
    const harness = await isolatedHub();
    cleanups.push(() => harness.close());
    const [a, b] = await Promise.all([
      harness.connect({ agent: 'first', runtime: 'claude-code' }),
      harness.connect({ agent: 'second', runtime: 'codex' }),
    ]);
    expect(harness.hubPids.size).toBeGreaterThanOrEqual(1);
    await a.callTool({ name: 'create_context', arguments: { id: 'shared', title: 'Shared' } });
    const seen = await b.callTool({ name: 'list_contexts', arguments: {} });
    expect((seen.structuredContent as { contexts: { id: string }[] }).contexts.map((c) => c.id)).toEqual(['shared']);
    // Whoever lost the port bind has exited: exactly one hub serves both.
    const deadline = Date.now() + 10_000;
    while ([...harness.hubPids].filter(alive).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect([...harness.hubPids].filter(alive)).toHaveLength(1);
  });

  it('writes only JSON-RPC to stdout', async () => {
    const harness = await isolatedHub();
    cleanups.push(() => harness.close());
    // Start the hub first, so this process's own output is all there is to look at.
    await (await harness.connect({ agent: 'warmup', runtime: 'codex' })).close();
    const child = spawn(process.execPath, [BIN, 'mcp', '--agent', 'raw'], {
      env: { ...process.env, BATON_URL: harness.hubUrl, BATON_LOG_LEVEL: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const deadline = Date.now() + 10_000;
    while (!stdout.includes('"id":2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    const messages = lines.map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result: { tools?: { name: string }[] } });
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(messages[1]?.result.tools?.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
  });

  it('fails with a clear message when no hub answers and it may not start one', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const child = spawn(process.execPath, [BIN, 'mcp', '--no-start', '--url', url], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`no baton hub answers at ${url}`);
  });
});

/** The configuration snippets of the README, as a user would paste them. */
function docSnippets() {
  const doc = readFileSync(fileURLToPath(new URL('../../../../../README.md', import.meta.url)), 'utf8');
  const claudeStdio = /^claude mcp add baton -- baton (.+)$/m.exec(doc)?.[1]?.split(' ');
  const claudeHttp = /^claude mcp add --transport http baton (\S+) \\\n(.+)$/m.exec(doc);
  const codexArgs = /^args = (\[.*\])$/m.exec(doc)?.[1];
  const json = [...doc.matchAll(/```json\n([\s\S]*?)```/g)]
    .map(
      (m) =>
        JSON.parse(m[1] as string) as {
          mcpServers?: { baton: { command?: string; args?: string[]; env?: Record<string, string>; url?: string } };
        },
    )
    .filter((j): j is Required<typeof j> => j.mcpServers !== undefined);
  const stdioJson = json.find((j) => j.mcpServers.baton.command)?.mcpServers.baton;
  const urlJson = json.find((j) => j.mcpServers.baton.url)?.mcpServers.baton;
  if (!claudeStdio || !claudeHttp || !codexArgs || !stdioJson?.args || !urlJson?.url)
    throw new Error('README.md lost an MCP configuration snippet');
  const headers = Object.fromEntries([...(claudeHttp[2] ?? '').matchAll(/--header "([^:]+): ([^"]+)"/g)].map((m) => [m[1], m[2]]));
  return {
    stdio: [
      { client: 'claude code', args: claudeStdio, env: {} },
      { client: 'codex', args: JSON.parse(codexArgs) as string[], env: {} },
      { client: 'json', args: stdioJson.args, env: stdioJson.env ?? {} },
    ],
    http: [
      { client: 'claude code', url: claudeHttp[1] as string, headers: headers as Record<string, string> },
      { client: 'json', url: urlJson.url, headers: {} },
    ],
  };
}

describe('README MCP snippets', () => {
  it('configures clients with arguments that work as written', async () => {
    const snippets = docSnippets();
    const harness = await isolatedHub();
    try {
      const written: { id: string; expected: string }[] = [];
      const first = await harness.spawn(snippets.stdio[0]?.args ?? []);
      await first.callTool({ name: 'create_context', arguments: { id: 'plan-42', title: 'Plan 42' } });
      const clients = [first, ...(await Promise.all(snippets.stdio.slice(1).map((s) => harness.spawn(s.args, s.env))))];
      for (const [i, snippet] of snippets.stdio.entries()) {
        const client = clients[i] as Client;
        const result = await client.callTool({
          name: 'log_activity',
          arguments: { activityType: 'agent_action', text: `from ${snippet.client}` },
        });
        written.push({
          id: (result.structuredContent as { id: string }).id,
          expected: snippet.args[snippet.args.indexOf('--agent') + 1] ?? '',
        });
      }
      for (const snippet of snippets.http) {
        const given = new URL(snippet.url);
        const url = new URL(`${given.pathname}${given.search}`, harness.hubUrl);
        const client = new Client({ name: 'baton-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: snippet.headers } }));
        const result = await client.callTool({
          name: 'log_activity',
          arguments: { activityType: 'agent_action', text: `from ${snippet.client}` },
        });
        written.push({
          id: (result.structuredContent as { id: string }).id,
          expected: snippet.headers['X-Baton-Actor'] ?? given.searchParams.get('actor') ?? '',
        });
        await client.close();
      }
      const rest = new BatonClient({ url: harness.hubUrl });
      for (const { id, expected } of written) {
        const event = await rest.getEvent(id);
        expect(event.contextId).toBe('plan-42');
        expect(event.actor.id).toBe(expected);
        expect(event.actor.runtime).not.toBeNull();
      }
      expect(written.map((w) => w.expected)).toEqual(['claude', 'codex', 'cursor', 'claude', 'cursor']);
    } finally {
      await harness.close();
    }
  });
});
