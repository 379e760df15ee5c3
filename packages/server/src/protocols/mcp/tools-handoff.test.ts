import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonClient } from '../../client/baton-client.js';
import { type HubServer, startHubServer } from '../../hub-server.js';
import { createLogger } from '../../log.js';
import { tempDir } from '../../test-support/databases.js';

const text = (t: string) => [{ type: 'text' as const, text: t }];

describe('MCP handoff tools over Streamable HTTP', () => {
  let server: HubServer;
  let remove: () => void;
  let codex: Client;

  beforeAll(async () => {
    const tmp = tempDir();
    remove = tmp.remove;
    server = await startHubServer(
      { dataDir: tmp.dir, databaseUrl: undefined, host: '127.0.0.1', port: 0, token: undefined, bodyLimit: 8 << 20 },
      createLogger('silent'),
    );
    const claude = new BatonClient({ url: server.url, actor: { id: 'claude-1', runtime: 'claude-code' } });
    await claude.createContext({ id: 'ship', title: 'Ship it' });
    await claude.appendEvent('ship', { kind: 'activity', activityType: 'blocker', content: text('Staging database is down') });
    await claude.appendEvent('ship', { kind: 'note', noteType: 'decision', title: 'Roll out behind a flag', summary: 'Safer rollback' });
    await claude.appendEvent('ship', { kind: 'turn', direction: 'response', content: text('移行スクリプトは完成しました') });
    await claude.createTask('ship', { title: 'Write release notes', state: 'working' });
    codex = new Client({ name: 'codex', version: '1.0.0' });
    await codex.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { 'x-baton-actor': 'codex-1', 'x-baton-runtime': 'codex', 'x-baton-context': 'ship' } },
      }),
    );
  });
  afterAll(async () => {
    await codex.close();
    await server.close();
    remove();
  });

  it('shared_context returns the blocker, the decision and the task within the budget', async () => {
    const result = await codex.callTool({ name: 'shared_context', arguments: { tokenBudget: 300 } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      totalTokens: number;
      rendering: string;
      blockedItems: { title: string }[];
      format: string;
    };
    expect(structured.totalTokens).toBeLessThanOrEqual(300);
    expect(structured.format).toBe('markdown');
    expect(structured.blockedItems[0]?.title).toBe('Staging database is down');
    const [content] = result.content as { type: string; text: string }[];
    expect(content?.text).toBe(structured.rendering);
    expect(content?.text).toContain('Roll out behind a flag');
    expect(content?.text).toContain('Write release notes');
  });

  it('context_search finds Japanese text with a highlighted snippet', async () => {
    const result = await codex.callTool({ name: 'context_search', arguments: { query: '移行スクリプト', kind: ['turn'] } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { hits: { snippet: string; event: { contextId: string } }[] };
    expect(structured.hits).toHaveLength(1);
    expect(structured.hits[0]?.snippet).toContain('«移行»«スクリプト»');
    const bad = await codex.callTool({ name: 'context_search', arguments: { query: '…' } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]?.text).toContain('q: must contain at least one letter or digit');
  });

  it('serves team-context://current', async () => {
    const { resources } = await codex.listResources();
    expect(resources.map((r) => r.uri)).toContain('team-context://current');
    const read = await codex.readResource({ uri: 'team-context://current' });
    const first = read.contents[0] as { text: string; mimeType: string };
    expect(first.mimeType).toBe('text/markdown');
    expect(first.text).toContain('# Shared context: Ship it');
    expect(first.text).toContain('Staging database is down');
  });
});
