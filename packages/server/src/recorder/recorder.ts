import { AsyncLocalStorage } from 'node:async_hooks';
import { BatonError, type Json, NewTurn, zodIssues } from '@baton/core';
import { newId } from '../hub/ids.js';
import type { RecorderOptions } from './create-recorder.js';
import { claimOrphans, jsonLine, type OrphanJournal, releaseClaimed, removeClaimed, TurnJournal } from './journal.js';
import { defaultRecorderLogger, type RecorderLogger } from './logger.js';
import type { TurnSink } from './sink.js';
import { conversation, listTurns } from './thread-queries.js';
import { type BuiltTurn, buildErrorResponse, buildPrompt, buildResponse, promptIdOf, type ResolvedCall, responseIdOf } from './turns.js';
import type { CallMeta, Conversation, PromptInput, RecorderStats, ResponseReader, ResponseRecord, TurnPage, TurnQuery } from './types.js';
import { TurnWriter } from './writer.js';

/** One call in progress; `call` drives it for you, adapters and event-driven pipelines drive it by hand. */
export interface PendingCall {
  readonly callId: string;
  readonly promptId: string;
  readonly responseId: string;
  /** Settles (never rejects) once the prompt is stored, or once it is no longer worth waiting for. */
  readonly ready: Promise<void>;
  /** Records the response. Only the first of `respond` and `fail` counts. */
  respond(record: ResponseRecord): void;
  /** Records a synthetic error response carrying the failure, after whatever part of the answer arrived. */
  fail(error: unknown, partial?: ResponseRecord | null): void;
}

/** Where a recorder's journal lives and which hub its turns are for. */
export interface JournalPlace {
  dir: string;
  target: string;
}

interface ScopeFrame {
  meta: CallMeta;
  /** A callId given to a scope names its first call only. */
  callId: string | undefined;
}

/**
 * Records every model call a pipeline makes as a prompt turn and a response
 * turn. Recording never throws into the pipeline and never changes what a call
 * returns or throws: failures are logged, counted in `stats()`, and swallowed.
 */
export class Recorder {
  readonly contextId: string;
  readonly #sink: TurnSink;
  readonly #writer: TurnWriter;
  readonly #log: RecorderLogger;
  readonly #defaults: Omit<CallMeta, 'callId'>;
  readonly #waitForPrompt: boolean | undefined;
  readonly #journal: TurnJournal | null;
  readonly #promptTimeoutMs: number;
  readonly #maxTurnBytes: number;
  readonly #scopes = new AsyncLocalStorage<ScopeFrame>();
  #calls = 0;
  #providerErrors = 0;
  #promptsNotConfirmed = 0;
  #rejectedLocally = 0;
  #internalErrors = 0;
  #lastError: string | null = null;
  #closing: Promise<void> | null = null;
  #replaying: Promise<void> = Promise.resolve();
  #replayed = 0;

  constructor(sink: TurnSink, options: RecorderOptions, journal: JournalPlace | null = null) {
    this.contextId = options.contextId;
    this.#sink = sink;
    this.#log = options.logger ?? defaultRecorderLogger();
    this.#defaults = options.defaults ?? {};
    this.#waitForPrompt = options.waitForPrompt;
    const context = { title: options.context?.title ?? options.contextId, ...options.context };
    this.#journal = journal
      ? TurnJournal.open(
          journal.dir,
          { target: journal.target, contextId: options.contextId, context },
          options.maxJournalBytes ?? 256 * 1024 * 1024,
          this.#log,
        )
      : null;
    this.#promptTimeoutMs = options.promptTimeoutMs ?? 2000;
    this.#maxTurnBytes = options.maxTurnBytes ?? 5 * 1024 * 1024;
    this.#writer = new TurnWriter(
      sink,
      {
        contextId: options.contextId,
        context,
        batchMaxTurns: 200,
        batchMaxBytes: 4 * 1024 * 1024,
        maxBufferedTurns: options.maxBufferedTurns ?? 10_000,
        maxBufferedBytes: options.maxBufferedBytes ?? 64 * 1024 * 1024,
        stallMs: this.#promptTimeoutMs,
        // A response waits this long for the next call's prompt to share a request; a real
        // pipeline's next call usually comes sooner, and a kill meanwhile costs only that response.
        lingerMs: 20,
        retryMinMs: 250,
        retryMaxMs: 10_000,
      },
      this.#log,
      this.#journal && {
        idle: () => this.#journal?.settled(),
        dropped: () => this.#journal?.keepAll(),
        read: (at) => this.#journal?.read(at) ?? null,
      },
    );
    if (journal) this.#replaying = this.#replay(claimOrphans(journal.dir, journal.target, this.#log));
  }

  /** The journal file this recorder writes ahead to, or null when it has none. */
  get journalPath(): string | null {
    return this.#journal?.path ?? null;
  }

  /** A fresh call id (a ULID), to name a call before it starts: `recorder.call({ callId }, …)`. */
  newCallId(): string {
    return newId();
  }

  /**
   * Runs `run` (the provider call) between its two turns: the prompt before,
   * the response after (read from the result by `read`), or, when `run` throws,
   * a synthetic error response, after which the same error is rethrown.
   */
  async call<T>(meta: CallMeta, prompt: PromptInput, run: () => T | PromiseLike<T>, read?: ResponseReader<T>): Promise<T> {
    const pending = this.start(meta, prompt);
    await pending.ready;
    let result: T;
    try {
      result = await run();
    } catch (error) {
      pending.fail(error);
      throw error;
    }
    let record: ResponseRecord;
    try {
      record = (read ?? readResult)(result as T);
    } catch (error) {
      this.#internalError(error, 'the response reader threw; the result is recorded as data instead');
      record = readResult(result);
    }
    pending.respond(record);
    return result;
  }

  /**
   * Starts a call: its prompt is written now. `base` holds defaults that a
   * surrounding `scope` overrides (the adapters pass a wrapped client's meta).
   */
  start(meta: CallMeta, prompt: PromptInput, base: CallMeta = {}): PendingCall {
    this.#calls++;
    const call = this.#resolve(meta, base);
    const startedAt = performance.now();
    let settled = false;
    const finish = (build: () => BuiltTurn) => {
      if (settled) return;
      settled = true;
      this.#submit(build, false);
    };
    const { stored, journaled } = this.#submit(() => buildPrompt(call, prompt, this.#maxTurnBytes), true);
    const wait = this.#waitForPrompt ?? !journaled;
    return {
      callId: call.callId,
      promptId: promptIdOf(call.callId),
      responseId: responseIdOf(call.callId),
      ready: wait ? this.#awaitPrompt(stored) : Promise.resolve(),
      respond: (record) => finish(() => buildResponse(call, record, performance.now() - startedAt, this.#maxTurnBytes)),
      fail: (error, partial = null) => {
        if (!settled) this.#providerErrors++;
        finish(() => buildErrorResponse(call, error, partial, performance.now() - startedAt, this.#maxTurnBytes));
      },
    };
  }

  /** Runs `fn` with `meta` applied to every call made inside it, adapters' calls included. */
  scope<T>(meta: CallMeta, fn: () => T): T {
    const parent = this.#scopes.getStore();
    const { callId, ...rest } = meta;
    return this.#scopes.run({ meta: { ...parent?.meta, ...rest }, callId }, fn);
  }

  /**
   * The thread's turns, oldest first: the latest `limit` (≤ 1,000), and a cursor for earlier pages.
   * Reads wait (up to `promptTimeoutMs`) for this recorder's queued turns, so they see its own calls.
   */
  async listTurns(query: TurnQuery = {}): Promise<TurnPage> {
    await this.#writer.flush(this.#promptTimeoutMs);
    return listTurns(this.#sink, this.contextId, query);
  }

  /** The turns a pipeline step produced. */
  listStep(stepId: string, query: Omit<TurnQuery, 'stepId'> = {}): Promise<TurnPage> {
    return this.listTurns({ ...query, stepId });
  }

  /** A call's prompt and response, by the call's id. */
  async conversation(callId: string): Promise<Conversation> {
    await this.#writer.flush(this.#promptTimeoutMs);
    return conversation(this.#sink, this.contextId, callId);
  }

  stats(): RecorderStats {
    const w = this.#writer.counters;
    const rejected = w.rejected + this.#rejectedLocally;
    return {
      calls: this.#calls,
      providerErrors: this.#providerErrors,
      turnsWritten: w.written,
      turnsRejected: rejected,
      turnsDropped: w.dropped,
      turnsSpilled: w.spilled,
      turnsPending: this.#writer.pending,
      turnsReplayed: this.#replayed,
      writeFailures: w.writeFailures,
      promptsNotConfirmed: this.#promptsNotConfirmed,
      failures: w.writeFailures + rejected + w.dropped + this.#internalErrors,
      lastError: this.#lastError ?? this.#writer.lastError,
    };
  }

  /** Waits until every recorded turn is stored (true), or `timeoutMs` passes (false). */
  flush(timeoutMs = 5000): Promise<boolean> {
    return this.#writer.flush(timeoutMs);
  }

  /** Flushes for up to `timeoutMs`, then releases the sink. Turns recorded after this are dropped. */
  close(timeoutMs = 5000): Promise<void> {
    this.#closing ??= (async () => {
      await this.#writer.close(timeoutMs);
      this.#journal?.close(this.#writer.pending === 0);
      // A replay still waiting for the hub gives its journal back for a later recorder.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.#replaying, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      try {
        await this.#sink.close();
      } catch (error) {
        this.#internalError(error, 'closing the sink failed');
      }
    })();
    return this.#closing;
  }

  #resolve(meta: CallMeta, base: CallMeta): ResolvedCall {
    const frame = this.#scopes.getStore();
    let callId = meta.callId;
    if (callId === undefined && frame?.callId !== undefined) {
      callId = frame.callId;
      frame.callId = undefined;
    }
    const m: CallMeta = { ...this.#defaults, ...base, ...frame?.meta, ...meta };
    return {
      callId: callId ?? newId(),
      phase: m.phase ?? null,
      round: m.round ?? null,
      speaker: m.speaker ?? null,
      provider: m.provider ?? null,
      model: m.model ?? null,
      parentId: m.parentId ?? null,
      refs: [...(m.refs ?? [])],
      stepId: m.stepId ?? null,
      taskId: m.taskId ?? null,
      metadata: { ...this.#defaults.metadata, ...base.metadata, ...frame?.meta.metadata, ...meta.metadata },
      visibility: m.visibility ?? 'shared',
    };
  }

  /**
   * Builds, checks, journals and queues one turn: `journaled` once it is in
   * the journal, `stored` (true) once the sink has it. Never throws: every
   * failure is logged and counted.
   */
  #submit(build: () => BuiltTurn, urgent: boolean): { stored: Promise<boolean>; journaled: boolean } {
    const dropped = { stored: Promise.resolve(false), journaled: false };
    let built: BuiltTurn;
    try {
      built = build();
    } catch (error) {
      this.#internalError(error, 'building a turn failed; it is not recorded');
      return dropped;
    }
    // Checked here with the hub's own schema, so a bad field costs no round trip and cannot spoil a batch.
    const checked = NewTurn.safeParse(built.turn);
    if (!checked.success) {
      this.#rejectedLocally++;
      const issues = zodIssues(checked.error);
      this.#lastError = `invalid turn: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
      this.#log.error({ turnId: built.turn.id, issues }, 'a turn is invalid and will not be recorded');
      return dropped;
    }
    // Serialized once, to bytes outside the JS heap: the journal line and, for a remote hub, the
    // request body. Queued turns then cost the garbage collector almost nothing to keep.
    const line = this.#journal || this.#sink.prefers === 'json' ? jsonLine(built.turn) : null;
    const at = (line && this.#journal?.write(line)) ?? null;
    const journaled = at !== null;
    const payload = line && this.#sink.prefers === 'json' ? line : built.turn;
    const stored = this.#writer.enqueue(built.turn.id, payload, built.bytes, urgent, at).then((outcome) => outcome === 'stored');
    return { stored, journaled };
  }

  async #awaitPrompt(stored: Promise<boolean>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.#promptTimeoutMs);
    });
    const ok = await Promise.race([stored, timeout]);
    clearTimeout(timer);
    if (!ok) this.#promptsNotConfirmed++;
  }

  /**
   * Stores the turns of journals that exited processes left behind, oldest
   * first, in batches of up to 200 turns and 4 MB (the hub takes 8 MiB
   * bodies), sent as the JSON lines they were journaled as; retried with
   * backoff while the hub is unreachable, and given back for a later recorder
   * when this one closes first.
   */
  async #replay(orphans: OrphanJournal[]): Promise<void> {
    for (const orphan of orphans) {
      let delay = 250;
      for (let done = 0; done < orphan.lines.length; ) {
        if (this.#closing) {
          releaseClaimed(orphan.path);
          return;
        }
        let end = done;
        for (let bytes = 0; end < Math.min(orphan.lines.length, done + 200); end++) {
          bytes += (orphan.lines[end] as Buffer).byteLength;
          if (bytes > REPLAY_BATCH_BYTES && end > done) break;
        }
        const batch = orphan.lines.slice(done, end);
        try {
          await this.#replayBatch(orphan, batch);
          done += batch.length;
          this.#replayed += batch.length;
          delay = 250;
        } catch (error) {
          this.#log.debug({ err: String(error), path: orphan.path, retryInMs: delay }, 'replaying a recorder journal failed; retrying');
          await new Promise((resolve) => setTimeout(resolve, delay).unref());
          delay = Math.min(delay * 2, 10_000);
        }
      }
      removeClaimed(orphan.path);
    }
  }

  async #replayBatch(orphan: OrphanJournal, batch: Buffer[]): Promise<void> {
    const { contextId, context } = orphan.header;
    try {
      await this.#sink.append(contextId, { json: batch });
    } catch (error) {
      if (error instanceof BatonError && error.code === 'not_found' && error.details?.kind === 'context') {
        await this.#sink.ensureContext(contextId, context);
        await this.#sink.append(contextId, { json: batch });
      } else if (error instanceof BatonError && REFUSED.has(error.code) && batch.length > 1) {
        // Isolate the turn the hub refuses; the rest still go in.
        for (const line of batch) await this.#replayBatch(orphan, [line]);
      } else if (error instanceof BatonError && REFUSED.has(error.code)) {
        this.#log.error({ err: error.message, path: orphan.path }, 'a journaled turn was refused by the hub; it is skipped');
      } else {
        throw error;
      }
    }
  }

  #internalError(error: unknown, message: string): void {
    this.#internalErrors++;
    this.#lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.#log.error({ err: this.#lastError }, message);
  }
}

const REPLAY_BATCH_BYTES = 4 * 1024 * 1024;
/** What the hub answers for a journaled turn that no retry will store: skipped, after the rest of its batch is saved. */
const REFUSED = new Set(['invalid_argument', 'conflict', 'payload_too_large']);

/** The default reader: a string is text; anything else is kept as JSON data. */
function readResult(result: unknown): ResponseRecord {
  if (typeof result === 'string') return { content: result };
  if (result === undefined || result === null) return { content: [] };
  try {
    const data = JSON.parse(JSON.stringify(result)) as Json;
    return { content: [{ type: 'data', data }] };
  } catch {
    return { content: String(result) };
  }
}
