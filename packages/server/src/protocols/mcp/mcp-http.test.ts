import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../http/app.js';
import { listen } from '../../http/server.js';
import { localCaller } from '../../hub/caller.js';
import { Hub } from '../../hub/hub.js';
import { type HubServer, startHubServer } from '../../hub-server.js';
import { createLogger } from '../../log.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { tempDir } from '../../test-support/databases.js';
import { type AgentIdentity, runMcpSuite } from './mcp.case.js';
import { mountMcp } from './mcp-http.js';

async function startHub(token?: string): Promise<{ server: HubServer; remove: () => void }> {
  const tmp = tempDir();
  const server = await startHubServer(
    { dataDir: tmp.dir, databaseUrl: undefined, host: '127.0.0.1', port: 0, token, bodyLimit: 8 << 20 },
    createLogger('silent'),
  );
  return { server, remove: tmp.remove };
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'baton-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

function identityHeaders(identity: AgentIdentity): Record<string, string> {
  return {
    'x-baton-actor': identity.agent,
    'x-baton-runtime': identity.runtime,
    ...(identity.context ? { 'x-baton-context': identity.context } : {}),
  };
}

runMcpSuite('Streamable HTTP', async () => {
  const { server, remove } = await startHub();
  return {
    hubUrl: server.url,
    connect: (identity) => connect(`${server.url}/mcp`, identityHeaders(identity)),
    close: async () => {
      await server.close();
      remove();
    },
  };
});

const human = localCaller({ id: 'tester', name: null, runtime: null, role: 'user' });

describe('MCP at /mcp', () => {
  let hub: { server: HubServer; remove: () => void };
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub.server.close();
    hub.remove();
  });

  it('takes the identity and default context from query parameters', async () => {
    await hub.server.hub.createContext({ id: 'q-ctx' }, human);
    const client = await connect(`${hub.server.url}/mcp?actor=erin&runtime=codex&context=q-ctx`, {});
    const result = await client.callTool({ name: 'log_activity', arguments: { activityType: 'agent_action', text: 'via query' } });
    const id = (result.structuredContent as { id: string }).id;
    const stored = await hub.server.hub.getEvent(id, human);
    expect(stored).toMatchObject({ contextId: 'q-ctx', actor: { id: 'erin', runtime: 'codex' } });
    await client.close();
  });

  it("names an unnamed session after the client's own name", async () => {
    const client = await connect(`${hub.server.url}/mcp?context=q-ctx`, {});
    const result = await client.callTool({ name: 'log_activity', arguments: { activityType: 'agent_action', text: 'anonymous' } });
    const page = await hub.server.hub.listEvents('q-ctx', { tail: 1 }, human);
    expect(page.events[0]?.id).toBe((result.structuredContent as { id: string }).id);
    expect(page.events[0]?.actor.id).toBe('baton-test');
    await client.close();
  });

  it('refuses a Host or Origin other than localhost (DNS rebinding)', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '1' } },
    });
    const post = (headers: Record<string, string>) =>
      fetch(`${hub.server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: initialize,
      });
    // fetch will not forge Host; node:http can.
    const { request } = await import('node:http');
    const forged = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${hub.server.url}/mcp`,
        {
          method: 'POST',
          headers: { host: 'attacker.example:7337', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end(initialize);
    });
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('attacker.example') },
    });
    const fromPage = await post({ origin: 'https://attacker.example' });
    expect(fromPage.status).toBe(403);
    const local = await post({ origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    expect(local.headers.get('mcp-session-id')).toBeTruthy();
  });

  it('answers an unknown session with 404 and requests without one with 400', async () => {
    const unknown = await fetch(`${hub.server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'gone' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    expect((await fetch(`${hub.server.url}/mcp`)).status).toBe(400);
  });

  it('ends the session when the client terminates it', async () => {
    const before = hub.server.mcp.sessionCount;
    const transport = new StreamableHTTPClientTransport(new URL(`${hub.server.url}/mcp`));
    const client = new Client({ name: 'short', version: '1' });
    await client.connect(transport);
    expect(hub.server.mcp.sessionCount).toBe(before + 1);
    await transport.terminateSession();
    await client.close();
    expect(hub.server.mcp.sessionCount).toBe(before);
  });

  it('makes room for a new session by closing the least recently used one', async () => {
    const tmp = tempDir();
    const store = openSqliteStore({ dataDir: tmp.dir });
    await store.migrate();
    const app = createApp(new Hub(store));
    const mcp = mountMcp(app, new Hub(store), { localhostOnly: true, maxSessions: 2 });
    const server = await listen(app, '127.0.0.1', 0);
    try {
      const [a, b] = [await connect(`${server.url}/mcp`, {}), await connect(`${server.url}/mcp`, {})];
      await a.ping();
      const c = await connect(`${server.url}/mcp`, {});
      expect(mcp.sessionCount).toBe(2);
      await expect(b.ping()).rejects.toThrow(/Session not found/);
      await a.ping();
      await c.ping();
    } finally {
      await mcp.close();
      await server.close();
      await store.close();
      tmp.remove();
    }
  });

  it('requires the bearer token when the hub has one', async () => {
    const secured = await startHub('a-token-of-sixteen-chars');
    try {
      await expect(connect(`${secured.server.url}/mcp`, {})).rejects.toThrow(/401|unauthenticated/i);
      const client = await connect(`${secured.server.url}/mcp`, {
        authorization: 'Bearer a-token-of-sixteen-chars',
        'x-baton-actor': 'alice',
      });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      await secured.server.close();
      secured.remove();
    }
  });
});
