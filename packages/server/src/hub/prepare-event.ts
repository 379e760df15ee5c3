import { BatonError, type Event, NewEvent, type NewEventInput, zodIssues } from '@baton/core';
import stringify from 'safe-stable-stringify';
import type { PreparedEvent } from '../store/rows.js';
import type { Caller } from './caller.js';

export interface PrepareOptions {
  contextId: string;
  caller: Caller;
  now: number;
  newId: () => string;
}

export interface Prepared {
  event: PreparedEvent;
  /** The writer chose the id, so a stored event may already have it. */
  writerId: boolean;
  /** expiresAt came from ttlSeconds and is not part of the identity of a retry. */
  relativeExpiry: boolean;
}

/** Validates every input, naming failures by index ("events.3.content.0.text"), and completes them. */
export function prepareEvents(inputs: readonly unknown[], options: PrepareOptions, path: string | null): Prepared[] {
  const prepared: Prepared[] = [];
  const issues: { path: string; message: string }[] = [];
  inputs.forEach((input, index) => {
    const result = NewEvent.safeParse(input);
    const prefix = path === null ? [] : [path, index];
    if (!result.success) {
      issues.push(...zodIssues(result.error, prefix));
      return;
    }
    // The parsed value is a fresh object: completing it in place costs half what copying it with rest/spread did.
    const event = result.data as NewEvent & { ttlSeconds?: number };
    const { ttlSeconds, contextId, actor, id } = event;
    if (contextId !== undefined && contextId !== options.contextId) {
      issues.push({
        path: [...prefix, 'contextId'].join('.'),
        message: `is '${contextId}' but the event is being appended to '${options.contextId}'`,
      });
      return;
    }
    event.id = id ?? options.newId();
    event.contextId = options.contextId;
    event.actor = actor ?? options.caller.actor;
    if (ttlSeconds !== undefined) {
      delete event.ttlSeconds;
      if (event.kind === 'note') event.expiresAt = new Date(options.now + ttlSeconds * 1000).toISOString();
    }
    prepared.push({ event: event as PreparedEvent, writerId: id !== undefined, relativeExpiry: ttlSeconds !== undefined });
  });
  if (issues.length > 0) throw BatonError.invalid(issues, path === null ? 'event' : 'events');
  return prepared;
}

const PROJECTED = new Set(['seq', 'createdAt', 'resolved', 'resolvedBy', 'consumed', 'consumedBy']);

/** The writer-controlled part of an event, serialized canonically. */
export function identity(event: PreparedEvent | Event, ignoreExpiry: boolean): string {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) {
    if (PROJECTED.has(key) || (ignoreExpiry && key === 'expiresAt')) continue;
    out[key] = value;
  }
  return stringify(out) ?? '';
}

export function sameEvent(stored: Event, candidate: Prepared): boolean {
  return identity(stored, candidate.relativeExpiry) === identity(candidate.event, candidate.relativeExpiry);
}

export type { NewEventInput };
