import { randomUUID } from 'node:crypto';
import { BatonError, type Event } from '@baton/core';
import type { Logger } from '../log.js';
import type { EmbeddingProgress, EventVector, Store } from '../store/store.js';
import type { Embedder, EmbeddingFailure } from './embedder.js';
import { eventPassages } from './passages.js';

export interface EmbeddingIndexerOptions {
  log?: Logger;
  /** This instance's lease name (default: a random id). */
  owner?: string;
  /** Events read per batch (default 64). */
  batchEvents?: number;
  /** Texts per provider request (default 64). */
  inputsPerRequest?: number;
  /** After an append, wait this long for more (default 250 ms). */
  debounceMs?: number;
  /** How long a claim to embed lasts unless renewed (default 60 s). */
  leaseMs?: number;
  /** Look for work this often when nothing pokes (default 30 s): other instances' appends, an expired lease. */
  pollMs?: number;
  /** First retry after a provider failure (default 1 s), doubling up to `maxBackoffMs` (default 5 min). */
  backoffMs?: number;
  maxBackoffMs?: number;
  now?: () => number;
}

interface Batch {
  range: { afterSeq: number; upToSeq: number };
  events: Event[];
  direction: 'new' | 'backfill';
}

/**
 * Embeds the event log in the background, off the append path: appends
 * only poke it. New events go first (upward from where the space started),
 * then older ones are backfilled (downward to the first event), so a large
 * store becomes semantically searchable from its newest events back.
 *
 * When the provider fails the indexer waits and retries (exponential
 * backoff with jitter, Retry-After honoured); appends and full-text search
 * never notice. Instances sharing PostgreSQL take turns through a lease in
 * `embedding_spaces`, so only one pays for each batch; should two overlap
 * (a lease expiring mid-batch), the second's vectors are discarded, as the
 * coverage no longer borders their range, and inserts ignore duplicates.
 */
export class EmbeddingIndexer {
  readonly embedder: Embedder;
  readonly #store: Store;
  readonly #log: Logger | undefined;
  readonly #owner: string;
  readonly #batchEvents: number;
  readonly #inputsPerRequest: number;
  readonly #debounceMs: number;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #backoffMs: number;
  readonly #maxBackoffMs: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = true;
  #failures = 0;
  #cleaned = false;
  #backfilling = false;
  /** The last failure, null once a batch succeeds again. */
  lastError: BatonError | null = null;

  constructor(store: Store, embedder: Embedder, options: EmbeddingIndexerOptions = {}) {
    this.#store = store;
    this.embedder = embedder;
    this.#log = options.log;
    this.#owner = options.owner ?? randomUUID();
    this.#batchEvents = options.batchEvents ?? 64;
    this.#inputsPerRequest = options.inputsPerRequest ?? 64;
    this.#debounceMs = options.debounceMs ?? 250;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#pollMs = options.pollMs ?? 30_000;
    this.#backoffMs = options.backoffMs ?? 1_000;
    this.#maxBackoffMs = options.maxBackoffMs ?? 300_000;
    this.#now = options.now ?? Date.now;
  }

  /** Starts following the log (call `poke` on appends). */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Something was appended: embed it soon (unless backing off after a failure). */
  poke(): void {
    if (this.#failures === 0) this.#schedule(this.#debounceMs);
  }

  progress(): Promise<EmbeddingProgress> {
    return this.#store.embeddingProgress(this.embedder.space);
  }

  /** Stops, waits for a batch in flight, and hands the lease back. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
    await this.#store.write((tx) => tx.releaseEmbedding(this.embedder.space, this.#owner)).catch(() => {});
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    if (this.#running) {
      // A run in progress looks again when it ends.
      if (delayMs <= this.#debounceMs) this.#again = true;
      return;
    }
    const at = this.#now() + delayMs;
    if (this.#timer && this.#timerAt <= at) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#running = this.#run().then((next) => {
        this.#running = null;
        this.#schedule(next);
      });
    }, delayMs);
    this.#timer.unref();
  }

  /** Embeds until caught up or failing; returns when to look again. */
  async #run(): Promise<number> {
    let next = this.#pollMs;
    try {
      this.#again = false;
      while (!this.#stopped) {
        const progress = await this.#store.write((tx) =>
          tx.claimEmbedding(this.embedder.space, this.#owner, this.#now(), this.#now() + this.#leaseMs),
        );
        // Another instance is embedding: look again when its lease may have lapsed.
        if (!progress) break;
        const batch = await this.#nextBatch(progress);
        if (!batch) {
          await this.#finish(progress);
          break;
        }
        await this.#embedBatch(batch, progress);
      }
      if (this.#failures > 0) this.#log?.info({ space: this.embedder.space }, 'embedding provider reachable again');
      this.#failures = 0;
      this.lastError = null;
      if (this.#again) next = this.#debounceMs;
    } catch (error) {
      if (this.#stopped) return next;
      const failure = error instanceof BatonError ? error : new BatonError('internal', String(error), { cause: error });
      this.lastError = failure;
      this.#failures += 1;
      const base = Math.min(this.#maxBackoffMs, this.#backoffMs * 2 ** (this.#failures - 1));
      const asked = (failure.details as EmbeddingFailure | undefined)?.retryAfterMs;
      next = Math.min(this.#maxBackoffMs, Math.max(asked ?? 0, Math.round(base * (0.8 + Math.random() * 0.4))));
      this.#log?.warn(
        { space: this.embedder.space, err: failure.message, attempt: this.#failures, retryInMs: next },
        'embedding failed; appends and full-text search are unaffected, retrying',
      );
    }
    return next;
  }

  /** New events first; then backfill, newest of the older ones first. */
  async #nextBatch(progress: EmbeddingProgress): Promise<Batch | null> {
    const limit = this.#batchEvents;
    if (progress.indexedSeq < progress.headSeq) {
      const events = await this.#store.listEvents({ afterSeq: progress.indexedSeq, viewerKey: null, order: 'asc', limit });
      // Seq order is commit order: every event up to the head read before listing is committed.
      const upToSeq = events.length === limit ? (events.at(-1) as Event).seq : progress.headSeq;
      return { range: { afterSeq: progress.indexedSeq, upToSeq }, events, direction: 'new' };
    }
    if (progress.fromSeq > 0) {
      const events = await this.#store.listEvents({ beforeSeq: progress.fromSeq + 1, viewerKey: null, order: 'desc', limit });
      const afterSeq = events.length === limit ? (events.at(-1) as Event).seq - 1 : 0;
      if (!this.#backfilling) {
        this.#backfilling = true;
        this.#log?.info({ space: this.embedder.space, fromSeq: progress.fromSeq }, 'embedding older events (backfill), newest first');
      }
      return { range: { afterSeq, upToSeq: progress.fromSeq }, events, direction: 'backfill' };
    }
    return null;
  }

  async #embedBatch(batch: Batch, progress: EmbeddingProgress): Promise<void> {
    const inputs: { seq: number; chunk: number; text: string }[] = [];
    for (const event of batch.events) {
      eventPassages(event).forEach((text, chunk) => {
        if (text) inputs.push({ seq: event.seq, chunk, text });
      });
    }
    const vectors: EventVector[] = [];
    for (let i = 0; i < inputs.length; i += this.#inputsPerRequest) {
      const slice = inputs.slice(i, i + this.#inputsPerRequest);
      const embedded = await this.#embedSlice(slice.map((input) => input.text));
      slice.forEach((input, k) => {
        const vector = embedded[k];
        if (vector) vectors.push({ seq: input.seq, chunk: input.chunk, vector });
        else
          this.#log?.warn({ space: this.embedder.space, seq: input.seq, chunk: input.chunk }, 'the provider refused this passage; skipped');
      });
    }
    const dims = vectors[0]?.vector.length;
    if (dims !== undefined && progress.dims !== null && dims !== progress.dims) {
      this.#log?.warn(
        { space: this.embedder.space, dims, was: progress.dims },
        'the model now returns vectors of another length: embedding every event again',
      );
      await this.#store.write((tx) => tx.resetEmbedding(this.embedder.space));
      return;
    }
    const added = await this.#store.write((tx) => tx.storeVectors(this.embedder.space, batch.range, vectors, this.#now()));
    this.lastError = null;
    this.#log?.debug({ space: this.embedder.space, ...batch.range, direction: batch.direction, vectors: added }, 'embedded');
  }

  /**
   * Embeds texts in one request. When the provider refuses the input (400,
   * 413, 422), each text is tried alone and the refused ones come back
   * undefined, so one bad passage cannot stall the indexer; if it refuses
   * every one, the trouble is not the input, and the batch fails.
   */
  async #embedSlice(texts: string[]): Promise<(Float32Array | undefined)[]> {
    try {
      return await this.embedder.embed(texts);
    } catch (error) {
      if (!(error instanceof BatonError) || error.code !== 'invalid_argument') throw error;
      const out: (Float32Array | undefined)[] = [];
      let refused = 0;
      for (const text of texts) {
        try {
          out.push((await this.embedder.embed([text]))[0]);
        } catch (single) {
          if (!(single instanceof BatonError) || single.code !== 'invalid_argument') throw single;
          out.push(undefined);
          refused += 1;
        }
      }
      if (refused === texts.length) throw error;
      return out;
    }
  }

  /** Caught up: once per process, forget the vectors of models no longer in use. */
  async #finish(progress: EmbeddingProgress): Promise<void> {
    if (this.#cleaned) return;
    this.#cleaned = true;
    const dropped = await this.#store.write((tx) => tx.dropOtherEmbeddings(this.embedder.space));
    if (dropped > 0) this.#log?.info({ space: this.embedder.space, dropped }, 'dropped the vectors of models no longer in use');
    this.#log?.info({ space: this.embedder.space, events: progress.headSeq }, 'every event is embedded');
  }
}
