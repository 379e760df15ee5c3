import { request as httpRequest } from 'node:http';
import type { Context, Event, Task } from '@baton/core';
import { DEFAULT_BODY_LIMIT } from '../http/app.js';
import { type HubServer, startHubServer } from '../hub-server.js';
import { createLogger } from '../log.js';
import { freshPostgresDatabase, type StoreFactory, tempDir } from './databases.js';

export interface ErrorReply {
  error: { code: string; message: string; details: Record<string, unknown> & { issues?: { path: string; message: string }[] } };
}

export interface Reply<T> {
  status: number;
  contentType: string | null;
  body: T;
}

export interface SendOptions {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (bytes or text). */
  raw?: Uint8Array | string;
  headers?: Record<string, string>;
}

/** A real hub server on 127.0.0.1 port 0 over a fresh store, with a small fetch-based client. */
export interface ApiHarness {
  url: string;
  hub: HubServer;
  send<T = ErrorReply>(method: string, path: string, options?: SendOptions): Promise<Reply<T>>;
  /** Sends a body through node:http so the test controls framing (content-length or chunked). */
  sendStream(path: string, chunks: AsyncIterable<Uint8Array>, headers?: Record<string, string>): Promise<Reply<ErrorReply>>;
  /** Everything stored, as ids and counters, to assert that a rejected request stored nothing. */
  stored(): Promise<unknown>;
  allEvents(contextId: string): Promise<Event[]>;
  close(): Promise<void>;
}

export async function startApiServer(factory: StoreFactory): Promise<ApiHarness> {
  const tmp = tempDir('baton-api-');
  const db = factory.name === 'postgres' ? await freshPostgresDatabase() : null;
  const hub = await startHubServer(
    { dataDir: tmp.dir, databaseUrl: db?.url, host: '127.0.0.1', port: 0, token: undefined, bodyLimit: DEFAULT_BODY_LIMIT },
    createLogger('silent'),
  );
  const send = async <T>(method: string, path: string, options: SendOptions = {}): Promise<Reply<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    let body: Uint8Array | string | undefined = options.raw;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(hub.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    return { status: response.status, contentType, body: (contentType?.includes('json') ? JSON.parse(text) : text) as T };
  };
  const allEvents = async (contextId: string): Promise<Event[]> => {
    const events: Event[] = [];
    for (let after = 0; ; ) {
      const page = await send<{ events: Event[]; nextAfter: number; hasMore: boolean }>(
        'GET',
        `/api/v1/contexts/${contextId}/events?after=${after}&limit=1000`,
      );
      if (page.status !== 200) throw new Error(`listing events failed: ${JSON.stringify(page.body)}`);
      events.push(...page.body.events);
      if (!page.body.hasMore) return events;
      after = page.body.nextAfter;
    }
  };
  return {
    url: hub.url,
    hub,
    send,
    sendStream: (path, chunks, headers = {}) => streamRequest(hub.url + path, chunks, headers),
    allEvents,
    stored: async () => {
      const list = await send<{ contexts: Context[] }>('GET', '/api/v1/contexts?limit=1000');
      const contexts = [...list.body.contexts].sort((a, b) => a.id.localeCompare(b.id));
      const out = [];
      for (const c of contexts) {
        const tasks = await send<{ tasks: Task[] }>('GET', `/api/v1/contexts/${c.id}/tasks?limit=1000`);
        const events = await allEvents(c.id);
        out.push({
          context: `${c.id} ${c.title} ${c.eventCount} ${c.lastSeq}`,
          events: events.map((e) => `${e.seq} ${e.id}`),
          tasks: tasks.body.tasks.map((t) => `${t.id} ${t.state}`),
        });
      }
      return out;
    },
    close: async () => {
      await hub.close();
      await db?.drop();
      tmp.remove();
    },
  };
}

function streamRequest(url: string, chunks: AsyncIterable<Uint8Array>, headers: Record<string, string>): Promise<Reply<ErrorReply>> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null, body: JSON.parse(text) }),
      );
    });
    // The server may answer 413 and close before the whole body is written: that is the point.
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
    void (async () => {
      for await (const chunk of chunks) {
        if (req.destroyed) return;
        if (!req.write(chunk)) {
          await new Promise((done) => {
            req.once('drain', done);
            req.once('close', done);
          });
        }
      }
      req.end();
    })().catch(reject);
  });
}
