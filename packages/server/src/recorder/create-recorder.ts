import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Actor, type ActorInput, Actor as ActorSchema, BatonError, Id, type Json, zodIssues } from '@baton/core';
import type { Hub } from '../hub/hub.js';
import { HubSink } from './hub-sink.js';
import type { RecorderLogger } from './logger.js';
import { type JournalPlace, Recorder } from './recorder.js';
import { RemoteSink } from './remote-sink.js';
import type { TurnSink } from './sink.js';
import type { CallMeta } from './types.js';
import { WorkerSink } from './worker-sink.js';

export interface RecorderOptions {
  /** A running hub (`baton serve`), e.g. http://127.0.0.1:7337. */
  url?: string;
  token?: string;
  /**
   * Embedded: open the store in this directory, on a worker thread of this
   * process (commits never run on the pipeline's thread). Only where no
   * `baton serve` owns it (DESIGN §3: one server process per SQLite file).
   */
  dataDir?: string;
  /** Embedded with PostgreSQL instead of SQLite (with `dataDir`). */
  databaseUrl?: string;
  /** Embedded: a hub this process already runs. */
  hub?: Hub;
  /** The thread every call is recorded in; created on first write when missing. */
  contextId: string;
  /** How the thread is created when it does not exist. */
  context?: { title?: string; description?: string; metadata?: Record<string, Json> };
  /** Applied to every call; a scope and the call itself override them. */
  defaults?: Omit<CallMeta, 'callId'>;
  /** Who writes the turns (default: `{ id: 'baton-recorder', runtime: 'pipeline' }`). */
  actor?: ActorInput;
  /**
   * The write-ahead journal: each turn is appended to a local file before it
   * is sent, so a prompt is durable (a process killed mid-call leaves it
   * behind) without waiting for the hub; the next recorder for the same hub
   * replays what a dead process left unstored. Default: `recorder-journal`
   * inside `dataDir`, or `baton-recorder-journal` in the OS temp directory for
   * a `url`. `false` turns it off (prompts then wait for the hub, see
   * `waitForPrompt`). Not used with `hub`.
   */
  journalDir?: string | false;
  /** Largest journal file in bytes (default 256 MiB); past it turns are not journaled and prompts wait for the hub. */
  maxJournalBytes?: number;
  /**
   * Whether the provider call waits for the hub to acknowledge its prompt.
   * Default: false when the prompt is journaled, true when it is not (no
   * journal, or one that cannot be written). Waiting costs a round trip per
   * call; a slow or failing hub delays a call by at most `promptTimeoutMs`,
   * after which the recorder stops waiting until the hub recovers.
   */
  waitForPrompt?: boolean;
  /** Default 2,000 ms. Also how long a write may run before new prompts stop waiting for it. */
  promptTimeoutMs?: number;
  /** Bound on each write request to a remote hub, or to the embedded store's worker. Default 10,000 ms. */
  writeTimeoutMs?: number;
  /** Larger turns are truncated (with a note) rather than lost. Default 5 MiB. */
  maxTurnBytes?: number;
  /** Turns kept in memory while the hub is unreachable (default 10,000); the oldest are dropped beyond this. */
  maxBufferedTurns?: number;
  /** Likewise in bytes (default 64 MiB). */
  maxBufferedBytes?: number;
  /** Where failures are logged; default pino JSON lines on stderr. */
  logger?: RecorderLogger;
}

const DEFAULT_ACTOR: ActorInput = { id: 'baton-recorder', name: 'baton recorder', runtime: 'pipeline', role: 'agent' };

/**
 * Creates a recorder writing to a hub at `url`, to a store in `dataDir`, or to
 * a `hub` in this process. Only a misconfiguration throws, and only here.
 */
export function createRecorder(options: RecorderOptions): Recorder {
  const targets = [options.url, options.dataDir, options.hub].filter((t) => t !== undefined).length;
  if (targets !== 1) {
    throw BatonError.invalid([{ path: 'url', message: 'give exactly one of url, dataDir or hub' }], 'recorder options');
  }
  const contextId = Id.safeParse(options.contextId);
  if (!contextId.success) throw BatonError.invalid(zodIssues(contextId.error, ['contextId']), 'recorder options');
  const actorResult = ActorSchema.safeParse(options.actor ?? DEFAULT_ACTOR);
  if (!actorResult.success) throw BatonError.invalid(zodIssues(actorResult.error, ['actor']), 'recorder options');
  const actor: Actor = actorResult.data;
  let sink: TurnSink;
  let journal: JournalPlace | null = null;
  if (options.url !== undefined) {
    sink = new RemoteSink({ url: options.url, token: options.token, actor, writeTimeoutMs: options.writeTimeoutMs ?? 10_000 });
    journal = { dir: join(tmpdir(), 'baton-recorder-journal'), target: `url:${options.url.replace(/\/+$/, '')}` };
  } else if (options.hub !== undefined) {
    sink = HubSink.over(options.hub, actor);
  } else {
    const dataDir = resolve(options.dataDir as string);
    sink = new WorkerSink({ dataDir, databaseUrl: options.databaseUrl, timeoutMs: options.writeTimeoutMs ?? 10_000 }, actor);
    journal = { dir: join(dataDir, 'recorder-journal'), target: options.databaseUrl ? `db:${options.databaseUrl}` : `dir:${dataDir}` };
  }
  if (options.journalDir === false) journal = null;
  else if (options.journalDir !== undefined && journal) journal.dir = resolve(options.journalDir);
  return new Recorder(sink, options, journal);
}
