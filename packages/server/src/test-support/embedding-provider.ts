import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Words that mean the same thing share a dimension, so texts with no word in
 * common can still be near each other — what a real embedding model learns,
 * small enough to reason about in a test.
 */
const CONCEPTS: readonly (readonly string[])[] = [
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'vehicles', 'truck'],
  ['database', 'databases', 'postgres', 'postgresql', 'sql', 'datastore'],
  ['outage', 'crash', 'crashed', 'failure', 'failed', 'broke', 'broken', 'incident'],
  ['deploy', 'deployed', 'release', 'released', 'ship', 'shipped', 'rollout'],
  ['cat', 'cats', 'kitten', 'kittens', 'feline'],
  ['lunch', 'pizza', 'dinner', 'meal', 'sandwich'],
  ['rain', 'rainy', 'weather', 'storm', 'umbrella'],
  ['invoice', 'billing', 'payment', 'price', 'cost'],
];
const CONCEPT_OF = new Map(CONCEPTS.flatMap((words, dim) => words.map((w) => [w, dim] as const)));
/** Other words land on a hashed dimension past the concepts, weakly. */
const OTHER_WEIGHT = 0.3;
export const PROVIDER_DIMS = 32;

/** The test model's vector for `text` (not normalized: the client must do that). */
export function testEmbedding(text: string, dims = PROVIDER_DIMS): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const concept = CONCEPT_OF.get(word);
    if (concept !== undefined) {
      vector[concept % dims] = (vector[concept % dims] as number) + 1;
      continue;
    }
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619);
    const dim = CONCEPTS.length + ((hash >>> 0) % (dims - CONCEPTS.length));
    vector[dim] = (vector[dim] as number) + OTHER_WEIGHT;
  }
  // An empty or symbol-only text still gets a direction.
  if (!vector.some((x) => x !== 0)) vector[dims - 1] = 1;
  return vector;
}

export interface ProviderRequest {
  model: string;
  input: string[];
  dimensions: number | undefined;
  authorization: string | undefined;
}

/** A real HTTP server on 127.0.0.1 speaking OpenAI's `POST /v1/embeddings`. */
export interface EmbeddingProvider {
  /** The base URL to configure, ending in /v1. */
  url: string;
  /** Every request received, in order (including the ones answered with an error). */
  requests: ProviderRequest[];
  /** Every text embedded successfully. */
  embedded(): string[];
  /** While set, every request is answered with this status (and `retryAfter` seconds, if set). */
  failWith: number | null;
  retryAfter: number | null;
  /** Texts containing this are refused with 400, as a provider refuses an input that is too long. */
  refuse: string | null;
  /** Each answer waits this long first. */
  delayMs: number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

export async function startEmbeddingProvider(): Promise<EmbeddingProvider> {
  const done: string[] = [];
  const provider: EmbeddingProvider = {
    url: '',
    requests: [],
    embedded: () => [...done],
    failWith: null,
    retryAfter: null,
    refuse: null,
    delayMs: 0,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return send(res, 404, { error: { message: 'not found' } });
      const body = JSON.parse(await readBody(req)) as {
        model?: string;
        input?: string | string[];
        dimensions?: number;
        encoding_format?: string;
      };
      const input = typeof body.input === 'string' ? [body.input] : (body.input ?? []);
      provider.requests.push({ model: String(body.model), input, dimensions: body.dimensions, authorization: req.headers.authorization });
      if (provider.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, provider.delayMs));
      if (provider.failWith !== null) {
        const headers: Record<string, string> = provider.retryAfter !== null ? { 'retry-after': String(provider.retryAfter) } : {};
        return send(res, provider.failWith, { error: { message: 'the model is not loaded' } }, headers);
      }
      if (!body.model) return send(res, 400, { error: { message: 'model is required' } });
      const refuse = provider.refuse;
      if (refuse && input.some((text) => text.includes(refuse))) {
        return send(res, 400, { error: { message: 'input is too long for the model' } });
      }
      done.push(...input);
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: testEmbedding(text, body.dimensions) }));
      // Answered in reverse: clients must place vectors by `index`, not by order.
      send(res, 200, { object: 'list', model: body.model, data: data.reverse(), usage: { prompt_tokens: 0, total_tokens: 0 } });
    })().catch((error: unknown) => send(res, 500, { error: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return provider;
}

/** A base URL where nothing listens (connection refused). */
export async function deadProviderUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
