import { Worker } from 'node:worker_threads';
import {
  type Actor,
  BatonError,
  type ErrorCode,
  type Event,
  type EventPage,
  type EventQueryInput,
  type NewContextInput,
  type NewEventInput,
} from '@baton/core';
import { joinedJson } from '../client/joined-json.js';
import type { TurnBatch, TurnSink } from './sink.js';

/** A batch as the worker receives it: objects, or the bytes of one JSON array of them. */
export type WorkerBatch = { turns: readonly NewEventInput[] } | { array: Uint8Array };

/** What `WorkerSink` asks its worker (`embedded-worker`). */
type WorkerAsk =
  | { op: 'append'; contextId: string; batch: WorkerBatch }
  | { op: 'ensureContext'; contextId: string; init: NewContextInput }
  | { op: 'listEvents'; contextId: string; query: EventQueryInput }
  | { op: 'getEvent'; eventId: string }
  | { op: 'close' };

export type WorkerRequest = WorkerAsk & { id: number };

/** The worker's answer: a value, or a BatonError's parts. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { code: ErrorCode; message: string; details?: Record<string, unknown> | undefined } };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface WorkerSinkOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** How long one request may take before it counts as failed (the writer then retries). */
  timeoutMs: number;
}

/**
 * The embedded store (`createRecorder({ dataDir })`) run on a worker thread:
 * the pipeline's thread only posts each batch's JSON bytes, and the worker
 * validates, commits and indexes them. The worker keeps the process alive
 * only while an answer is awaited, and each answer is awaited at most
 * `timeoutMs`, so the recorder never holds up a finished pipeline. A worker
 * that dies is started again on the next request.
 */
export class WorkerSink implements TurnSink {
  readonly kind = 'embedded';
  readonly prefers = 'json';
  readonly #options: WorkerSinkOptions;
  readonly #actor: Actor;
  #worker: Worker | null = null;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #closed = false;

  constructor(options: WorkerSinkOptions, actor: Actor) {
    this.#options = options;
    this.#actor = actor;
    this.#start();
  }

  append(contextId: string, batch: TurnBatch): Promise<void> {
    // The turns' JSON joined into one buffer: one copy to the worker, one parse there.
    const sent: WorkerBatch = 'turns' in batch ? { turns: batch.turns } : { array: joinedJson(batch.json) };
    return this.#ask({ op: 'append', contextId, batch: sent }) as Promise<void>;
  }

  ensureContext(contextId: string, init: NewContextInput): Promise<void> {
    return this.#ask({ op: 'ensureContext', contextId, init }) as Promise<void>;
  }

  listEvents(contextId: string, query: EventQueryInput): Promise<EventPage> {
    return this.#ask({ op: 'listEvents', contextId, query }) as Promise<EventPage>;
  }

  getEvent(id: string): Promise<Event | null> {
    return this.#ask({ op: 'getEvent', eventId: id }) as Promise<Event | null>;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.#worker) await this.#ask({ op: 'close' });
    } finally {
      this.#closed = true;
      await this.#worker?.terminate();
      this.#worker = null;
    }
  }

  #start(): Worker {
    const { dataDir, databaseUrl } = this.#options;
    // No flags of the pipeline's own (`--input-type`, loaders) carried over: the worker runs baton's code only.
    const options = { workerData: { dataDir, databaseUrl, actor: this.#actor }, execArgv: [] };
    // From the built package the worker is a .js file; run from the TypeScript sources (the tests), it loads through tsx.
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(
          `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./embedded-worker.ts', import.meta.url).href)}); })`,
          { ...options, eval: true },
        )
      : new Worker(new URL('./embedded-worker.js', import.meta.url), options);
    worker.unref();
    worker.on('message', (reply: WorkerReply) => this.#settle(reply));
    worker.on('error', (error) => this.#lost(worker, error));
    worker.on('exit', (code) => this.#lost(worker, new Error(`the recorder's store worker exited (code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  #ask(request: WorkerAsk): Promise<unknown> {
    if (this.#closed) return Promise.reject(new BatonError('unavailable', 'the recorder is closed'));
    const worker = this.#worker ?? this.#start();
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#take(id)?.reject(new BatonError('unavailable', `the recorder's store did not answer within ${this.#options.timeoutMs} ms`));
        // A store stuck this long is replaced: SQLite rolls back whatever it had open, and the writer retries by id.
        if (this.#worker === worker) void worker.terminate();
      }, this.#options.timeoutMs);
      timer.unref();
      this.#pending.set(id, { resolve, reject, timer });
      if (this.#pending.size === 1) worker.ref();
      try {
        worker.postMessage({ ...request, id });
      } catch (error) {
        this.#take(id)?.reject(
          new BatonError('internal', `the recorder's store could not be asked: ${(error as Error).message}`, { cause: error }),
        );
      }
    });
  }

  #settle(reply: WorkerReply): void {
    const pending = this.#take(reply.id);
    if (!pending) return; // answered after its timeout
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(new BatonError(reply.error.code, reply.error.message, { details: reply.error.details }));
  }

  /** Ends the wait for request `id`: the worker no longer holds the process open once nothing is awaited. */
  #take(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    if (!pending) return undefined;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if (this.#pending.size === 0) this.#worker?.unref();
    return pending;
  }

  /** The worker failed or exited: what it was asked fails (the writer retries), and the next request starts a new one. */
  #lost(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = null;
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new BatonError('unavailable', error.message, { cause: error }));
    }
    this.#pending.clear();
  }
}
