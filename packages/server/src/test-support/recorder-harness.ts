import type { Event, TurnEvent } from '@baton/core';
import { afterAll, beforeAll } from 'vitest';
import { type FakeProvider, type FakeReply, startFakeProvider } from '../../../../examples/fake-provider.js';
import { DEFAULT_BODY_LIMIT } from '../http/app.js';
import { localCaller } from '../hub/caller.js';
import type { Hub } from '../hub/hub.js';
import { type HubServer, startHubServer } from '../hub-server.js';
import { createLogger } from '../log.js';
import { createRecorder, type Recorder } from '../recorder/index.js';
import type { RecorderLogger } from '../recorder/logger.js';
import { tempDir } from './databases.js';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}

/** A recorder logger that keeps what it is told, so tests can assert that failures were logged. */
export function memoryLogger(): RecorderLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (fields: object, message: string) => {
    entries.push({ level, fields: fields as Record<string, unknown>, message });
  };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A real `baton serve` stack (SQLite in a temp dir, HTTP on 127.0.0.1 port 0). */
export interface TestHub {
  url: string;
  hub: Hub;
  server: HubServer;
  dataDir: string;
  /** Every event of a context, oldest first, read through the hub. */
  events(contextId: string): Promise<Event[]>;
  turns(contextId: string): Promise<TurnEvent[]>;
  close(): Promise<void>;
}

/** Every turn of a context, oldest first, read through a hub. */
export async function hubTurns(hub: Hub, contextId: string): Promise<TurnEvent[]> {
  const caller = localCaller({ id: 'test', name: null, runtime: null, role: 'user' });
  const all: TurnEvent[] = [];
  for (let after = 0; ; ) {
    const page = await hub.listEvents(contextId, { kind: 'turn', after, limit: 1000 }, caller);
    all.push(...page.events.filter((e): e is TurnEvent => e.kind === 'turn'));
    if (!page.hasMore) return all;
    after = page.nextAfter;
  }
}

export async function startTestHub(options: { port?: number; dataDir?: string } = {}): Promise<TestHub> {
  const tmp = options.dataDir ? null : tempDir('baton-recorder-');
  const dataDir = options.dataDir ?? (tmp?.dir as string);
  const server = await startHubServer(
    { dataDir, databaseUrl: undefined, host: '127.0.0.1', port: options.port ?? 0, token: undefined, bodyLimit: DEFAULT_BODY_LIMIT },
    createLogger('silent'),
  );
  const caller = localCaller({ id: 'test', name: null, runtime: null, role: 'user' });
  const events = async (contextId: string): Promise<Event[]> => {
    const all: Event[] = [];
    for (let after = 0; ; ) {
      const page = await server.hub.listEvents(contextId, { after, limit: 1000 }, caller);
      all.push(...page.events);
      if (!page.hasMore) return all;
      after = page.nextAfter;
    }
  };
  return {
    url: server.url,
    hub: server.hub,
    server,
    dataDir,
    events,
    turns: async (contextId) => (await events(contextId)).filter((e): e is TurnEvent => e.kind === 'turn'),
    close: async () => {
      await server.close();
      tmp?.remove();
    },
  };
}

/** A local URL where nothing listens: connections are refused at once. */
export async function unreachableUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A test hub and a fake model provider shared by the tests of one file, for driving the official SDKs through a recorder. */
export interface ProviderHarness {
  /** Base URLs for the SDKs, and the requests the provider received. */
  readonly fake: FakeProvider;
  /**
   * Scripts the provider's answer and opens a recorder on a new context
   * (`<prefix>-<n>`); `turns()` closes the recorder and reads back what it stored.
   */
  thread(prefix: string, reply: FakeReply): { rec: Recorder; turns: () => Promise<TurnEvent[]> };
}

/** Starts the hub and the provider before the file's tests and closes both after them. */
export function useProviderHarness(): ProviderHarness {
  let hub: TestHub | undefined;
  let fake: FakeProvider | undefined;
  let reply: FakeReply = {};
  let threads = 0;
  beforeAll(async () => {
    hub = await startTestHub();
    fake = await startFakeProvider(() => reply);
  });
  afterAll(async () => {
    await fake?.close();
    await hub?.close();
  });
  const started = () => {
    if (!hub || !fake) throw new Error('the provider harness starts in beforeAll: use it inside a test');
    return { hub, fake };
  };
  return {
    get fake() {
      return started().fake;
    },
    thread(prefix, next) {
      const { hub } = started();
      reply = next;
      const contextId = `${prefix}-${++threads}`;
      const rec = createRecorder({ url: hub.url, contextId, logger: memoryLogger() });
      return {
        rec,
        turns: async () => {
          await rec.close();
          return hub.turns(contextId);
        },
      };
    },
  };
}
