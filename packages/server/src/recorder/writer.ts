import { BatonError, type NewContextInput, type NewEventInput } from '@baton/core';
import type { JournalRef } from './journal.js';
import type { RecorderLogger } from './logger.js';
import { type TurnBatch, type TurnSink, turnFromJson } from './sink.js';

/**
 * What became of one turn handed to the writer:
 * - `stored`: the sink committed it;
 * - `deferred`: not stored yet, kept in memory and retried (the sink failed or is stalled);
 * - `rejected`: the sink refused it for good (invalid, too large); logged and counted;
 * - `dropped`: the buffer was full or the recorder closed before it could be stored.
 */
export type WriteOutcome = 'stored' | 'deferred' | 'rejected' | 'dropped';

export interface WriterOptions {
  contextId: string;
  /** How the context is created when it does not exist yet. */
  context: NewContextInput;
  batchMaxTurns: number;
  batchMaxBytes: number;
  maxBufferedTurns: number;
  maxBufferedBytes: number;
  /** A write running longer than this counts as stalled: new turns stop waiting for it. */
  stallMs: number;
  /** How long a non-urgent turn may wait for an urgent one to share its request. */
  lingerMs: number;
  retryMinMs: number;
  retryMaxMs: number;
}

/** What the writer tells and asks its owner (the recorder's journal follows it). */
export interface WriterHooks {
  /** Every turn handed over so far is stored or settled for good. */
  idle(): void;
  /** Turns the journal holds were dropped from memory before they could be stored. */
  dropped(): void;
  /** A journaled turn's bytes, for one moved out of memory; null when they cannot be read. */
  read(at: JournalRef): Uint8Array | null;
}

export interface WriterCounters {
  written: number;
  rejected: number;
  dropped: number;
  /** Turns moved out of memory, to be read back from the journal when their turn to be sent comes. */
  spilled: number;
  /** Write attempts that failed (each retry counts). */
  writeFailures: number;
}

interface Entry {
  /**
   * The turn in the form its sink prefers: an object, or its JSON bytes (kept
   * off the JS heap); null once moved out of memory, read back from `at` to be sent.
   */
  payload: NewEventInput | Uint8Array | null;
  /** Where the journal holds the turn, when it does. */
  at: JournalRef | null;
  id: string;
  bytes: number;
  settle: ((outcome: WriteOutcome) => void) | null;
}

/** Codes that retrying cannot fix: the turn itself is wrong, or this recorder may not write. */
const PERMANENT = new Set(['invalid_argument', 'payload_too_large', 'conflict', 'forbidden', 'unauthenticated', 'not_found']);

/**
 * The recorder's only path to the sink: one ordered queue, written in batches
 * by one loop, so turns are stored in the order they were recorded (a
 * response never lands before its prompt). A sink that fails or stalls pauses
 * the loop with exponential backoff; turns wait in a bounded buffer and are
 * retried with the same ids, which the hub turns into no-ops when a "failed"
 * write had in fact committed. Nothing here ever throws to the caller.
 */
export class TurnWriter {
  readonly counters: WriterCounters = { written: 0, rejected: 0, dropped: 0, spilled: 0, writeFailures: 0 };
  lastError: string | null = null;
  readonly #sink: TurnSink;
  readonly #options: WriterOptions;
  readonly #log: RecorderLogger;
  readonly #hooks: WriterHooks | null;
  readonly #queue: Entry[] = [];
  /** Bytes and count of the queued turns held in memory (not moved out to the journal). */
  #queuedBytes = 0;
  #resident = 0;
  /** Entries before this index are in flight or moved out of memory: where the next move out starts looking. */
  #movedUpTo = 0;
  /** Entries at the head of the queue that the current write is sending. */
  #inFlight = 0;
  #writeStartedAt = 0;
  /** Entries to send one by one, to isolate a turn the sink rejects from the rest of its batch. */
  #solo = 0;
  #running = false;
  #soon: NodeJS.Timeout | null = null;
  #failures = 0;
  #retryTimer: NodeJS.Timeout | null = null;
  #closed = false;
  /** flush() callers: told true when the queue empties, false when a write fails. */
  #waiters: ((done: boolean) => void)[] = [];
  #lastDropLog = 0;
  #lastRejectLog = 0;

  constructor(sink: TurnSink, options: WriterOptions, log: RecorderLogger, hooks: WriterHooks | null = null) {
    this.#sink = sink;
    this.#options = options;
    this.#log = log;
    this.#hooks = hooks;
  }

  get pending(): number {
    return this.#queue.length;
  }

  /**
   * Queues a turn; the promise settles (never rejects) once its fate is known
   * or it stops being worth waiting for. An `urgent` turn (a prompt) is sent
   * at once; others (responses) wait up to `lingerMs` for the next prompt, so
   * back-to-back calls cost one round trip each rather than two.
   */
  enqueue(
    id: string,
    payload: NewEventInput | Uint8Array,
    bytes: number,
    urgent: boolean,
    at: JournalRef | null = null,
  ): Promise<WriteOutcome> {
    if (this.#closed) {
      this.#drop(1, 'the recorder is closed');
      return Promise.resolve('dropped');
    }
    return new Promise((resolve) => {
      this.#makeRoom(bytes);
      const entry: Entry = { payload, at, id, bytes, settle: resolve };
      this.#queue.push(entry);
      this.#queuedBytes += bytes;
      this.#resident++;
      if (this.#retryTimer || this.#stalled()) {
        entry.settle = null;
        resolve('deferred');
      }
      if (urgent) this.#kick();
      else this.#kickSoon();
    });
  }

  /**
   * Waits until every queued turn is stored (true). Resolves false after
   * `timeoutMs`, or as soon as a write fails: a pipeline finishing while its
   * hub is down must not hang on it. A paused writer retries at once.
   */
  async flush(timeoutMs: number): Promise<boolean> {
    if (this.#queue.length === 0) return true;
    if (this.#retryTimer) {
      clearTimeout(this.#retryTimer);
      this.#retryTimer = null;
    }
    let timer: NodeJS.Timeout | undefined;
    const settled = new Promise<boolean>((resolve) => {
      this.#waiters.push(resolve);
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    this.#kick();
    const done = await settled;
    clearTimeout(timer);
    return done && this.#queue.length === 0;
  }

  /** Flushes for up to `timeoutMs`, then stops; turns still unwritten are counted as dropped. */
  async close(timeoutMs: number): Promise<void> {
    await this.flush(timeoutMs);
    this.#closed = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    const left = this.#queue.length - this.#inFlight;
    if (left > 0) {
      const lost = this.#queue.splice(this.#inFlight);
      for (const entry of lost) {
        this.#forget(entry);
        entry.settle?.('dropped');
      }
      this.#drop(
        left,
        'the recorder closed before they could be written',
        lost.some((e) => e.at !== null),
      );
    }
  }

  #stalled(): boolean {
    return this.#inFlight > 0 && performance.now() - this.#writeStartedAt > this.#options.stallMs;
  }

  #kickSoon(): void {
    if (this.#soon) return;
    this.#soon = setTimeout(() => {
      this.#soon = null;
      this.#kick();
    }, this.#options.lingerMs);
  }

  #kick(): void {
    if (this.#soon) {
      clearTimeout(this.#soon);
      this.#soon = null;
    }
    if (this.#running || this.#retryTimer || this.#closed || this.#queue.length === 0) return;
    this.#running = true;
    void this.#run().finally(() => {
      this.#running = false;
      if (this.#queue.length === 0) {
        this.#hooks?.idle();
        for (const wake of this.#waiters.splice(0)) wake(true);
      } else if (!this.#retryTimer && !this.#closed) this.#kick();
    });
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0 && !this.#retryTimer && !this.#closed) {
      const batch = this.#takeBatch();
      this.#inFlight = batch.length;
      this.#writeStartedAt = performance.now();
      try {
        await this.#write(batch);
      } finally {
        this.#inFlight = 0;
      }
    }
  }

  #takeBatch(): Entry[] {
    if (this.#solo > 0) {
      this.#solo--;
      return this.#queue.slice(0, 1);
    }
    let bytes = 0;
    let count = 0;
    for (const entry of this.#queue) {
      if (count >= this.#options.batchMaxTurns || (count > 0 && bytes + entry.bytes > this.#options.batchMaxBytes)) break;
      bytes += entry.bytes;
      count++;
    }
    return this.#queue.slice(0, count);
  }

  async #write(batch: Entry[]): Promise<void> {
    const payloads: (NewEventInput | Uint8Array)[] = [];
    const unreadable = new Set<Entry>();
    for (const entry of batch) {
      const payload = entry.payload ?? (entry.at && this.#hooks?.read(entry.at));
      if (payload) payloads.push(payload);
      else unreadable.add(entry);
    }
    const turns = toBatch(payloads);
    try {
      try {
        if (payloads.length > 0) await this.#sink.append(this.#options.contextId, turns);
      } catch (error) {
        if (!isMissingContext(error)) throw error;
        await this.#sink.ensureContext(this.#options.contextId, this.#options.context);
        await this.#sink.append(this.#options.contextId, turns);
      }
    } catch (error) {
      this.#failed(batch, error);
      return;
    }
    this.#remove(batch.length);
    this.counters.written += payloads.length;
    for (const entry of batch) entry.settle?.(unreadable.has(entry) ? 'dropped' : 'stored');
    if (unreadable.size > 0) this.#drop(unreadable.size, 'turns could not be read back from the journal', true);
    if (this.#failures > 0) {
      this.#log.info({ failures: this.#failures, pending: this.#queue.length }, 'recording recovered: the sink accepts turns again');
      this.#failures = 0;
    }
  }

  #failed(batch: Entry[], error: unknown): void {
    this.counters.writeFailures++;
    this.lastError = describe(error);
    // Entries before the cursor may now stay in memory: the next move out starts from the head.
    this.#movedUpTo = 0;
    if (this.#closed) {
      // A write still in flight when the recorder closed: no retry; the journal keeps these turns for the next recorder.
      this.#remove(batch.length);
      for (const entry of batch) entry.settle?.('dropped');
      this.#drop(
        batch.length,
        'the recorder closed before they could be written',
        batch.some((e) => e.at !== null),
      );
      return;
    }
    if (isPermanent(error)) {
      if (batch.length > 1) {
        this.#solo = batch.length;
        return;
      }
      const [entry] = batch;
      this.#remove(1);
      this.counters.rejected++;
      entry?.settle?.('rejected');
      // The first few individually, then a summary at most every 10 s: a bad token rejects every turn.
      if (this.counters.rejected <= 5 || Date.now() - this.#lastRejectLog > 10_000) {
        this.#lastRejectLog = Date.now();
        this.#log.error(
          { turnId: entry?.id, err: this.lastError, totalRejected: this.counters.rejected },
          'a turn was rejected and will not be recorded',
        );
      }
      return;
    }
    this.#failures++;
    const delay = Math.min(this.#options.retryMaxMs, this.#options.retryMinMs * 2 ** (this.#failures - 1));
    for (const entry of this.#queue) {
      entry.settle?.('deferred');
      entry.settle = null;
    }
    for (const wake of this.#waiters.splice(0)) wake(false);
    const fields = { err: this.lastError, pending: this.#queue.length, retryInMs: delay, sink: this.#sink.kind };
    if (this.#failures === 1) this.#log.warn(fields, 'recording is failing; turns are kept in memory and retried');
    else this.#log.debug(fields, 'recording still failing');
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#kick();
    }, delay);
    // Retries must not keep a finished pipeline alive; close() flushes what it can.
    this.#retryTimer.unref();
  }

  #remove(count: number): void {
    for (const entry of this.#queue.splice(0, count)) this.#forget(entry);
    this.#movedUpTo = Math.max(0, this.#movedUpTo - count);
  }

  /** An entry leaves the queue, or its payload leaves memory. */
  #forget(entry: Entry): void {
    if (entry.payload === null) return;
    this.#queuedBytes -= entry.bytes;
    this.#resident--;
  }

  /**
   * Makes room for `bytes` more in memory: the oldest turns not being written
   * move out to the journal, which already holds them, and are read back when
   * their turn to be sent comes, so order and count are kept. Only a turn the
   * journal does not hold is dropped.
   */
  #makeRoom(bytes: number): void {
    const full = () => this.#resident + 1 > this.#options.maxBufferedTurns || this.#queuedBytes + bytes > this.#options.maxBufferedBytes;
    let dropped = 0;
    let i = Math.max(this.#inFlight, this.#movedUpTo);
    while (i < this.#queue.length && full()) {
      const entry = this.#queue[i] as Entry;
      if (entry.payload === null) {
        i++;
      } else if (entry.at) {
        this.#forget(entry);
        entry.payload = null;
        this.counters.spilled++;
        i++;
      } else {
        this.#queue.splice(i, 1);
        this.#forget(entry);
        entry.settle?.('dropped');
        dropped++;
      }
    }
    this.#movedUpTo = i;
    // Only turns the journal does not hold are dropped here: the file has nothing to keep for them.
    if (dropped > 0) this.#drop(dropped, 'the buffer of unwritten turns is full', false);
  }

  /** Counts and logs lost turns; `held`: the journal holds some of them, so its file must be kept for the next recorder. */
  #drop(count: number, reason: string, held = false): void {
    this.counters.dropped += count;
    if (held) this.#hooks?.dropped();
    const now = Date.now();
    // One line per 10 s at most: a dead hub under a busy pipeline must not flood stderr.
    if (now - this.#lastDropLog < 10_000) return;
    this.#lastDropLog = now;
    this.#log.warn({ dropped: count, totalDropped: this.counters.dropped }, `turns dropped: ${reason}`);
  }
}

/** A batch in one form: JSON bytes when every turn is held so (the usual case), objects otherwise. */
function toBatch(payloads: readonly (NewEventInput | Uint8Array)[]): TurnBatch {
  const json: Uint8Array[] = [];
  for (const payload of payloads) if (payload instanceof Uint8Array) json.push(payload);
  if (json.length === payloads.length) return { json };
  return { turns: payloads.map((payload) => (payload instanceof Uint8Array ? turnFromJson(payload) : payload)) };
}

function isMissingContext(error: unknown): boolean {
  return error instanceof BatonError && error.code === 'not_found' && error.details?.kind === 'context';
}

function isPermanent(error: unknown): boolean {
  return error instanceof BatonError && PERMANENT.has(error.code);
}

function describe(error: unknown): string {
  if (error instanceof BatonError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
