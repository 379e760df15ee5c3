import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { complete, errorEvent, sse, WIRE } from './fake-provider-wire.js';

/**
 * A local stand-in for the Anthropic and OpenAI APIs, speaking their wire
 * formats (JSON bodies and server-sent events) on 127.0.0.1, so the official
 * SDKs can be pointed at it with `baseURL`. Each request is answered by a
 * script; the defaults echo the last user message.
 *
 *   POST /v1/messages           Anthropic Messages (JSON, or SSE with `stream: true`)
 *   POST /v1/chat/completions   OpenAI Chat Completions (JSON, or SSE chunks + [DONE])
 *   POST /v1/responses          OpenAI Responses (JSON, or `response.*` SSE events)
 */
export type FakeApi = 'anthropic' | 'chat' | 'responses';

export interface FakeRequest {
  api: FakeApi;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent.
  body: any;
}

export interface FakeReply {
  text?: string;
  thinking?: string;
  toolCalls?: { id: string; name: string; input: unknown }[];
  model?: string;
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** Answer with this HTTP error instead. */
  error?: { status: number; type: string; message: string };
  /** Never answer; the request stays open until the server closes. */
  hang?: boolean;
  /** Streams: cut the connection after this many events. */
  breakAfterEvents?: number;
  /** Streams: send the provider's error event after this many events. */
  errorEventAfter?: number;
  delayMs?: number;
}

export type FakeScript = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeProvider {
  url: string;
  /** For `new Anthropic({ baseURL })`. */
  anthropicBaseURL: string;
  /** For `new OpenAI({ baseURL })`. */
  openaiBaseURL: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

const ROUTES: Record<string, FakeApi> = { '/v1/messages': 'anthropic', '/v1/chat/completions': 'chat', '/v1/responses': 'responses' };

export async function startFakeProvider(script: FakeScript = () => ({})): Promise<FakeProvider> {
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const api = ROUTES[new URL(req.url ?? '/', 'http://x').pathname];
    if (req.method !== 'POST' || !api) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { type: 'not_found_error', message: 'no such route' } }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const request: FakeRequest = { api, body };
    requests.push(request);
    const reply = await script(request);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.hang) return;
    if (reply.error) {
      const { status, type, message } = reply.error;
      const payload =
        api === 'anthropic' ? { type: 'error', error: { type, message } } : { error: { type, message, code: type, param: null } };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      return;
    }
    const answer = complete(reply, body);
    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_fake', 'x-request-id': 'req_fake' });
      res.end(JSON.stringify(WIRE[api].json(answer, body)));
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': 'req_fake',
      'x-request-id': 'req_fake',
    });
    const events = WIRE[api].events(answer, body);
    for (const [i, event] of events.entries()) {
      if (reply.breakAfterEvents !== undefined && i >= reply.breakAfterEvents) {
        // End the TCP connection mid-body (after what was written so far has gone out): the client sees a broken stream.
        res.socket?.end();
        return;
      }
      if (reply.errorEventAfter !== undefined && i === reply.errorEventAfter) {
        res.end(sse(api === 'anthropic' ? 'error' : null, errorEvent(api)));
        return;
      }
      await new Promise((resolve) => res.write(sse(event.event, event.data), resolve));
    }
    res.end(api === 'chat' ? 'data: [DONE]\n\n' : '');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    anthropicBaseURL: url,
    openaiBaseURL: `${url}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
