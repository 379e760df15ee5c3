import type { SearchResult } from '@baton/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatonClient } from '../client/baton-client.js';
import { ConfigError, loadConfig } from '../config.js';
import type { ServeConfig } from '../hub-server.js';
import { tempDir } from '../test-support/databases.js';
import { deadProviderUrl, type EmbeddingProvider, startEmbeddingProvider } from '../test-support/embedding-provider.js';
import { type Cleanup, hubServerStarter } from '../test-support/hub-harness.js';
import { assertBuilt, cleanEnv, runToEnd, type ServeProcess, startServe } from '../test-support/serve-process.js';

const FAST = { embedding: { debounceMs: 10, backoffMs: 50, maxBackoffMs: 200, pollMs: 200 } };
const turn = (text: string) => ({ kind: 'turn' as const, direction: 'response' as const, content: [{ type: 'text' as const, text }] });

async function embeddedAll(client: BatonClient): Promise<void> {
  await expect
    .poll(async () => (await client.search({ q: 'anything', mode: 'semantic', limit: 1 })).semantic.index?.complete, {
      timeout: 10_000,
      interval: 50,
    })
    .toBe(true);
}

describe('semantic search over REST, MCP, the client and the CLI', () => {
  const cleanups: Cleanup[] = [];
  const startServer = hubServerStarter(cleanups, { search: FAST });
  let provider: EmbeddingProvider;
  const embeddings = (url = provider.url, dimensions?: number): Partial<ServeConfig> => ({
    embeddings: { url, model: 'test-embed', key: undefined, dimensions },
  });
  const clientOf = (url: string) => new BatonClient({ url, actor: { id: 'tester', runtime: 'claude-code' } });

  beforeAll(() => assertBuilt());
  beforeEach(async () => {
    provider = await startEmbeddingProvider();
    cleanups.push(() => provider.close());
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('serves mode on GET /search and in the client, asks for the configured dimensions, and names a bad mode', async () => {
    const server = await startServer(embeddings(provider.url, 16));
    const client = clientOf(server.url);
    await client.createContext({ id: 'ctx' });
    const { events } = await client.appendEvents('ctx', [turn('The vehicle would not start.'), turn('Lunch was pizza.')]);
    await embeddedAll(client);
    expect(provider.requests[0]).toMatchObject({ model: 'test-embed', dimensions: 16 });

    const reply = await fetch(`${server.url}/api/v1/search?q=automobile`);
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as SearchResult;
    expect(body.mode).toBe('hybrid');
    expect(body.semantic.status).toBe('used');
    expect(body.hits[0]?.event.id).toBe(events[0]?.id);

    const text = await client.search({ q: 'automobile', mode: 'text' });
    expect(text.hits).toEqual([]);
    const semantic = await client.search({ q: 'automobile', mode: 'semantic', context: 'ctx' });
    expect(semantic.hits.map((h) => h.event.id)).toEqual(events.map((e) => e.id));

    const bad = await fetch(`${server.url}/api/v1/search?q=automobile&mode=fuzzy`);
    expect(bad.status).toBe(400);
    const error = (await bad.json()) as { error: { code: string; details: { issues: { path: string }[] } } };
    expect(error.error.code).toBe('invalid_argument');
    expect(error.error.details.issues[0]?.path).toBe('mode');
  });

  it('takes mode in MCP context_search and says when semantic search was unavailable', async () => {
    const server = await startServer(embeddings());
    const client = clientOf(server.url);
    await client.createContext({ id: 'ctx' });
    await client.appendEvents('ctx', [turn('The kitten is asleep.'), turn('The invoice is late.')]);
    await embeddedAll(client);
    const mcp = new Client({ name: 'baton-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { 'x-baton-actor': 'agent' } } }),
    );
    cleanups.push(() => mcp.close());
    const result = await mcp.callTool({ name: 'context_search', arguments: { query: 'feline', mode: 'semantic', limit: 1 } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as SearchResult;
    expect(structured.mode).toBe('semantic');
    expect(structured.hits[0]?.snippet).toBe('The kitten is asleep.');
    expect((result.content as { text: string }[])[0]?.text).toContain('1 hit for "feline" (semantic)');
    const bad = await mcp.callTool({ name: 'context_search', arguments: { query: 'feline', mode: 'fuzzy' } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('mode');

    provider.failWith = 503;
    const down = await mcp.callTool({ name: 'context_search', arguments: { query: 'kitten asleep' } });
    expect((down.structuredContent as SearchResult).semantic.status).toBe('unavailable');
    expect((down.structuredContent as SearchResult).hits).toHaveLength(1);
    expect((down.content as { text: string }[])[0]?.text).toContain('semantic search unavailable, full text only');
  });

  it('never fails an append or a search when the provider is unreachable', async () => {
    const server = await startServer(embeddings(await deadProviderUrl()));
    const client = clientOf(server.url);
    await client.createContext({ id: 'ctx' });
    const { events } = await client.appendEvents('ctx', [turn('the database is slow'), turn('and the cache is cold')]);
    expect(events).toHaveLength(2);
    const reply = await fetch(`${server.url}/api/v1/search?q=database&mode=semantic`);
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as SearchResult;
    expect(body.semantic).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('ECONNREFUSED') });
    expect(body.hits.map((h) => h.event.id)).toEqual([events[0]?.id]);
  });

  it('is off by default: the provider hears nothing and semantic modes are refused', async () => {
    const server = await startServer();
    const client = clientOf(server.url);
    await client.createContext({ id: 'ctx' });
    await client.appendEvents('ctx', [turn('the database is slow')]);
    const result = await client.search({ q: 'database' });
    expect(result).toMatchObject({ mode: 'text', semantic: { status: 'off' } });
    const refused = await fetch(`${server.url}/api/v1/search?q=database&mode=hybrid`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('mode');
    expect(provider.requests).toHaveLength(0);
    expect(loadConfig({}).embeddings).toBeUndefined();
  });

  it('reads the embedding settings from the environment, requiring a model with the URL', () => {
    const config = loadConfig({
      BATON_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1',
      BATON_EMBEDDINGS_MODEL: 'nomic-embed-text',
      BATON_EMBEDDINGS_KEY: 'sk-x',
      BATON_EMBEDDINGS_DIMENSIONS: '256',
    });
    expect(config.embeddings).toEqual({ url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', key: 'sk-x', dimensions: 256 });
    const missing = (() => {
      try {
        loadConfig({ BATON_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1' });
      } catch (error) {
        return error;
      }
    })() as ConfigError;
    expect(missing).toBeInstanceOf(ConfigError);
    expect(missing.variable).toBe('BATON_EMBEDDINGS_MODEL');
    expect(() => loadConfig({ BATON_EMBEDDINGS_URL: 'ftp://x', BATON_EMBEDDINGS_MODEL: 'm' })).toThrow('BATON_EMBEDDINGS_URL');
  });

  it('runs end to end: `baton serve` with BATON_EMBEDDINGS_URL, then `baton search --mode`', async () => {
    const data = tempDir('baton-sem-');
    cleanups.push(() => data.remove());
    const serve: ServeProcess = await startServe(['--port', '0', '--data', data.dir], {
      env: cleanEnv({ BATON_EMBEDDINGS_URL: provider.url, BATON_EMBEDDINGS_MODEL: 'test-embed' }),
    });
    cleanups.push(async () => {
      await serve.stop();
    });
    const client = clientOf(serve.url);
    await client.createContext({ id: 'ctx' });
    await client.appendEvents('ctx', [turn('The release went out on Friday.'), turn('The kitten is asleep.')]);
    await embeddedAll(client);
    const run = await runToEnd(['search', '--url', serve.url, '--mode', 'semantic', '-n', '1', 'shipped'], { env: cleanEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('The release went out on Friday.');
    expect(run.stderr).toContain('1 hit (semantic)');
    const bad = await runToEnd(['search', '--url', serve.url, '--mode', 'fuzzy', 'shipped'], { env: cleanEnv() });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--mode');
  });
});
