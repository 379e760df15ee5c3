import {
  BatonError,
  type ErrorCode,
  type Event,
  type EventPage,
  type EventQueryInput,
  type NewContextInput,
  type NewEventInput,
} from '@baton/core';

/**
 * Turns to append, in order: as objects, or each as the UTF-8 bytes of one
 * JSON object (surrounding whitespace, such as the journal's newline, allowed).
 */
export type TurnBatch = { readonly turns: readonly NewEventInput[] } | { readonly json: readonly Uint8Array[] };

/** The turns of a batch as objects, parsing JSON bytes when that is the form it holds. */
export function turnsOf(batch: TurnBatch): readonly NewEventInput[] {
  return 'turns' in batch ? batch.turns : batch.json.map(turnFromJson);
}

/** One turn from its JSON bytes. */
export function turnFromJson(bytes: Uint8Array): NewEventInput {
  return JSON.parse(decoder.decode(bytes)) as NewEventInput;
}

const decoder = new TextDecoder();

/**
 * Where the recorder's turns go: a hub over HTTP (`RemoteSink`) or a hub in
 * this process (`HubSink`). Every member may throw; the recorder's writer is
 * the one place that decides what a failure means for the pipeline (nothing).
 */
export interface TurnSink {
  /** 'remote' or 'embedded', for logs and stats. */
  readonly kind: 'remote' | 'embedded';
  /**
   * Which form `append` takes with the least work: JSON bytes (a remote hub
   * gets them as the request body) or turn objects (a hub in this process).
   * The recorder keeps only that form of each queued turn.
   */
  readonly prefers: 'json' | 'turns';
  /**
   * Appends turns in one transaction. Turns carry writer-chosen ids, so a
   * retry stores nothing twice. Either form is accepted whatever `prefers` says.
   */
  append(contextId: string, batch: TurnBatch): Promise<void>;
  /** Creates the context unless it exists. */
  ensureContext(contextId: string, init: NewContextInput): Promise<void>;
  listEvents(contextId: string, query: EventQueryInput): Promise<EventPage>;
  /** The event, or null when there is none with this id. */
  getEvent(id: string): Promise<Event | null>;
  close(): Promise<void>;
}

/** Runs `call`; a BatonError with `code` is an expected answer (a context that exists, an event that does not) and gives null. */
export async function unless<T>(code: ErrorCode, call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof BatonError && error.code === code) return null;
    throw error;
  }
}
