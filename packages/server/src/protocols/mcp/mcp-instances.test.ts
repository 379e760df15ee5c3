import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { BatonClient } from '../../client/baton-client.js';
import { startHubServer } from '../../hub-server.js';
import { createLogger } from '../../log.js';
import { freshPostgresDatabase, postgresFactory } from '../../test-support/databases.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe.skipIf(postgresFactory().unavailable !== null)('MCP subscriptions across instances on PostgreSQL', () => {
  it('a session on instance B is told of a write made through instance A', async () => {
    const db = await freshPostgresDatabase();
    cleanups.push(() => db.drop());
    const config = { dataDir: '/nonexistent', databaseUrl: db.url, host: '127.0.0.1', port: 0, token: undefined, bodyLimit: 8 << 20 };
    const a = await startHubServer(config, createLogger('silent'));
    cleanups.push(() => a.close());
    const b = await startHubServer(config, createLogger('silent'));
    cleanups.push(() => b.close());

    const writer = new BatonClient({ url: a.url, actor: { id: 'codex-1', runtime: 'codex' } });
    await writer.createContext({ id: 'shared-plan' });

    const watcher = new Client({ name: 'watcher', version: '1.0.0' });
    await watcher.connect(
      new StreamableHTTPClientTransport(new URL(`${b.url}/mcp`), { requestInit: { headers: { 'x-baton-actor': 'claude-1' } } }),
    );
    cleanups.push(() => watcher.close());
    const updated: string[] = [];
    watcher.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    const uri = 'baton://contexts/shared-plan/activity';
    await watcher.subscribeResource({ uri });

    await writer.appendEvent('shared-plan', { kind: 'activity', activityType: 'decision', content: [{ type: 'text', text: 'use PG' }] });
    const deadline = Date.now() + 10_000;
    while (!updated.includes(uri) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(updated).toContain(uri);
  });
});
