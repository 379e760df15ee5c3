import type { ContentBlock, Json, TurnEvent } from '@baton/core';
import type { z } from 'zod';

/** A content block as a writer spells it (defaults such as `isError` may be left out). */
export type ContentBlockInput = z.input<typeof ContentBlock>;

/** What a call is, for the timeline. Every field is optional; `createRecorder({ defaults })` fills gaps. */
export interface CallMeta {
  /** plan, review, execute, verify, revision, critique, adjudicate, or any name. */
  phase?: string | null;
  round?: number | null;
  /** Who speaks, e.g. `claude-planner`. */
  speaker?: string | null;
  /** anthropic, openai, openrouter, … */
  provider?: string | null;
  model?: string | null;
  /** Threads this call's prompt to an earlier turn: a critique points at the plan it critiques. */
  parentId?: string | null;
  /** Further turns or tasks this call refers to: an adjudication names both critiques. */
  refs?: readonly string[];
  /** The pipeline step that makes the call; its step log can store `callId` to find the pair again. */
  stepId?: string | null;
  /** A task in the same context this call works on. */
  taskId?: string | null;
  /**
   * Names the call; its turns are `<callId>.prompt` and `<callId>.response`. Default: a new ULID.
   * Choosing it up front lets a later call point at this one before it has finished.
   */
  callId?: string;
  /** Stored on both turns. */
  metadata?: Record<string, Json>;
  visibility?: 'shared' | 'private';
}

/** The prompt: text, content blocks, or blocks with metadata (the adapters store request parameters there). */
export type PromptInput = string | readonly ContentBlockInput[] | PromptRecord;

export interface PromptRecord {
  content: string | readonly ContentBlockInput[];
  metadata?: Record<string, Json>;
}

/**
 * Token counts as the provider reported them. `inputTokens` counts the whole
 * prompt, cached parts included; the cache counts say how much of it was read
 * from or written to a prompt cache, which prices differently.
 */
export interface UsageInput {
  inputTokens?: number | null;
  outputTokens?: number | null;
  /** When absent, computed from the price table (null for models it does not list). */
  costUsd?: number | null;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** What the model answered. */
export interface ResponseRecord {
  content: string | readonly ContentBlockInput[];
  /** The model that answered, when it differs from the one asked (a dated snapshot). */
  model?: string | null;
  usage?: UsageInput | null;
  metadata?: Record<string, Json>;
}

/** Turns out of a `call`: the default reads strings as text and anything else as a JSON data block. */
export type ResponseReader<T> = (result: T) => ResponseRecord;

/** The two turns of one call, found again by its id. */
export interface Conversation {
  callId: string;
  prompt: TurnEvent | null;
  response: TurnEvent | null;
}

export interface TurnQuery {
  phase?: string | readonly string[];
  /** prompt or response. */
  role?: 'prompt' | 'response';
  stepId?: string;
  /** At most this many turns, the latest ones (default and maximum 1,000). */
  limit?: number;
  /** A page's `earlier` cursor: returns the turns before that page. */
  before?: string;
}

export interface TurnPage {
  /** Oldest first. */
  turns: TurnEvent[];
  /** Pass as `before` for the page of earlier turns; null when this page starts the thread. */
  earlier: string | null;
}

export interface RecorderStats {
  /** Calls recorded (started). */
  calls: number;
  /** Calls whose provider call failed (their error responses are recorded too). */
  providerErrors: number;
  turnsWritten: number;
  /** Refused by the hub for good (invalid data, too large, forbidden). */
  turnsRejected: number;
  /**
   * Lost to this recorder: the buffer overflowed with turns the journal does not hold,
   * or the recorder closed with turns unwritten (those stay in the journal for the next recorder).
   */
  turnsDropped: number;
  /**
   * Moved out of memory while the hub was behind by more than the buffer holds:
   * still queued, in order, and read back from the journal when their turn to be sent comes.
   */
  turnsSpilled: number;
  /** Waiting to be written or retried (spilled ones included). */
  turnsPending: number;
  /** Turns replayed from journals that exited processes left behind. */
  turnsReplayed: number;
  /** Write attempts that failed; a turn retried three times counts three. */
  writeFailures: number;
  /** Calls whose provider call started before their prompt was stored (sink slow or failing). */
  promptsNotConfirmed: number;
  /** Recording failures of any kind: failed writes, rejected and dropped turns, internal errors. */
  failures: number;
  lastError: string | null;
}
