import { type Actor, BatonError } from '@baton/core';
import { privacyKey } from '../store/rows.js';

export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Who is asking, as every surface establishes it once per request (HTTP
 * middleware, MCP session, A2A call) and the hub checks it (DESIGN §6).
 */
export interface Caller {
  actor: Actor;
  scopes: ReadonlySet<Scope>;
  /** Contexts this caller may touch; null means all. */
  contextIds: ReadonlySet<string> | null;
}

export function localCaller(actor: Actor): Caller {
  return { actor, scopes: new Set(SCOPES), contextIds: null };
}

export const ANONYMOUS_ACTOR: Actor = { id: 'anonymous', name: null, runtime: null, role: 'user' };

export function authorize(caller: Caller, scope: Scope, contextId?: string | null): void {
  if (!caller.scopes.has(scope)) {
    throw new BatonError('forbidden', `this request needs the '${scope}' scope`, { details: { scope } });
  }
  if (contextId && caller.contextIds && !caller.contextIds.has(contextId)) {
    throw new BatonError('forbidden', `this request may not access context '${contextId}'`, { details: { contextId } });
  }
}

/** Private events are visible to the runtime that wrote them and to no one else. */
export function viewerKey(caller: Caller): string {
  return privacyKey(caller.actor);
}
