import { Worker } from 'node:worker_threads';
import {
  type Actor,
  BatonError,
  type ErrorCode,
  type Event,
  type EventPage,
  type EventQueryInput,
  type NewContextInput,
} from '@baton/core';
import type { TurnBatch, TurnSink } from './sink.js';

/** What `WorkerSink` asks its worker (`embedded-worker`). */
type WorkerAsk =
  | { op: 'append'; contextId: string; batch: TurnBatch }
  | { op: 'ensureContext'; contextId: string; init: NewContextInput }
  | { op: 'listEvents'; contextId: string; query: EventQueryInput }
  | { op: 'getEvent'; eventId: string }
  | { op: 'close' };

export type WorkerRequest = WorkerAsk & { id: number };

/** The worker's answer: a value, or a BatonError's parts. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { code: ErrorCode; message: string; details?: Record<string, unknown> | undefined } };

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/**
 * The embedded store (`createRecorder({ dataDir })`) run on a worker thread:
 * the pipeline's thread only posts each batch's JSON bytes, and the worker
 * validates, commits and indexes them. The worker keeps the process alive
 * only while an answer is awaited, so an idle recorder never holds up a
 * finished pipeline.
 */
export class WorkerSink implements TurnSink {
  readonly kind = 'embedded';
  readonly prefers = 'json';
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #failure: Error | null = null;

  constructor(config: { dataDir: string; databaseUrl?: string | undefined }, actor: Actor) {
    // No flags of the pipeline's own (`--input-type`, loaders) carried over: the worker runs baton's code only.
    const options = { workerData: { dataDir: config.dataDir, databaseUrl: config.databaseUrl, actor }, execArgv: [] };
    // From the built package the worker is a .js file; run from the TypeScript sources (the tests), it loads through tsx.
    this.#worker = import.meta.url.endsWith('.ts')
      ? new Worker(
          `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./embedded-worker.ts', import.meta.url).href)}); })`,
          { ...options, eval: true },
        )
      : new Worker(new URL('./embedded-worker.js', import.meta.url), options);
    this.#worker.unref();
    this.#worker.on('message', (reply: WorkerReply) => this.#settle(reply));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`the recorder's store worker exited (code ${code})`)));
  }

  append(contextId: string, batch: TurnBatch): Promise<void> {
    return this.#ask({ op: 'append', contextId, batch }) as Promise<void>;
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
    try {
      if (!this.#failure) await this.#ask({ op: 'close' });
    } finally {
      await this.#worker.terminate();
    }
  }

  #ask(request: WorkerAsk): Promise<unknown> {
    if (this.#failure) return Promise.reject(new BatonError('unavailable', this.#failure.message, { cause: this.#failure }));
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) this.#worker.ref();
      this.#worker.postMessage({ ...request, id });
    });
  }

  #settle(reply: WorkerReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(new BatonError(reply.error.code, reply.error.message, { details: reply.error.details }));
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(new BatonError('unavailable', error.message, { cause: error }));
    this.#pending.clear();
  }
}
