import { BatonError, type Event, type EventQueryInput, type TurnEvent } from '@baton/core';
import type { TurnSink } from './sink.js';
import { promptIdOf, responseIdOf } from './turns.js';
import type { Conversation, TurnPage, TurnQuery } from './types.js';

/** reference/003: a thread is capped at 1,000 turns per read; longer threads return their tail and a cursor. */
export const MAX_TURNS_PER_PAGE = 1000;

/**
 * A thread's turns, oldest first, optionally only some phases, one role or one
 * step. Built on the hub's event listing (kind=turn, tail=N, before=cursor), so
 * the hub needs nothing recorder-specific.
 */
export async function listTurns(sink: TurnSink, contextId: string, query: TurnQuery = {}): Promise<TurnPage> {
  const limit = query.limit ?? MAX_TURNS_PER_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TURNS_PER_PAGE) {
    throw BatonError.invalid([{ path: 'limit', message: `must be an integer from 1 to ${MAX_TURNS_PER_PAGE}` }], 'turn query');
  }
  const phases = query.phase === undefined ? [] : typeof query.phase === 'string' ? [query.phase] : [...query.phase];
  const request: EventQueryInput = { kind: 'turn', tail: limit };
  if (query.before !== undefined) request.before = parseCursor(query.before);
  if (phases.length > 0) request.phase = phases.join(',');
  if (query.role !== undefined) request.direction = query.role;
  if (query.stepId !== undefined) request.stepId = query.stepId;
  const page = await sink.listEvents(contextId, request);
  return {
    turns: page.events.filter(isTurn),
    earlier: page.hasMore && page.prevBefore !== null ? String(page.prevBefore) : null,
  };
}

/** A call's prompt and response by the call's id (what a step log stores to link to its pair). */
export async function conversation(sink: TurnSink, contextId: string, callId: string): Promise<Conversation> {
  const [prompt, response] = await Promise.all([sink.getEvent(promptIdOf(callId)), sink.getEvent(responseIdOf(callId))]);
  const mine = (event: Event | null): TurnEvent | null => (event && isTurn(event) && event.contextId === contextId ? event : null);
  return { callId, prompt: mine(prompt), response: mine(response) };
}

function isTurn(event: Event): event is TurnEvent {
  return event.kind === 'turn';
}

function parseCursor(cursor: string): number {
  if (!/^[1-9]\d{0,15}$/.test(cursor)) {
    throw BatonError.invalid([{ path: 'before', message: "must be a page's `earlier` cursor" }], 'turn query');
  }
  return Number(cursor);
}
