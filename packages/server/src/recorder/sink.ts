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
 * Where the recorder's turns go: a hub over HTTP (`RemoteSink`) or a hub in
 * this process (`HubSink`). Every member may throw; the recorder's writer is
 * the one place that decides what a failure means for the pipeline (nothing).
 */
export interface TurnSink {
  /** 'remote' or 'embedded', for logs and stats. */
  readonly kind: 'remote' | 'embedded';
  /**
   * Appends turns in one transaction. Turns carry writer-chosen ids, so a
   * retry stores nothing twice. `serialized` holds the same turns as JSON
   * when the recorder already has it (for its journal); a sink may send it as is.
   */
  append(contextId: string, turns: readonly NewEventInput[], serialized?: readonly string[]): Promise<void>;
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
