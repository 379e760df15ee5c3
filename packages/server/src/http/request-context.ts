import { timingSafeEqual } from 'node:crypto';
import { Actor, BatonError, zodIssues } from '@baton/core';
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { ANONYMOUS_ACTOR, type Caller, localCaller } from '../hub/caller.js';

export interface RequestContextOptions {
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string | undefined;
}

export type AppEnv = { Variables: { caller: Caller } };

/** What identifies a request: its headers (lower-case names) and, for WebSockets from browsers, its query. */
export interface RequestIdentity {
  headers: Record<string, string | undefined>;
  query?: URLSearchParams;
}

/**
 * Establishes who is asking, once per request: the identity headers name the
 * actor, and the bearer token (when the server requires one) grants scopes.
 * Access checks live in the hub and read only this.
 */
export function requestContext(options: RequestContextOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // node's parsed headers when served by @hono/node-server (already lower-case, no web Headers built).
    const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
    const headers = incoming ? (incoming.headers as Record<string, string | undefined>) : c.req.header();
    c.set('caller', resolveCaller({ headers }, options.token));
    await next();
  };
}

/**
 * The Caller for a request, for HTTP and WebSocket upgrades alike. Browsers
 * cannot set headers on a WebSocket, so there the query may carry `token`,
 * `actor`, `actorName`, `runtime` and `role` instead.
 */
export function resolveCaller(request: RequestIdentity, token: string | undefined): Caller {
  const header = (name: string, param: string) => request.headers[name] ?? request.query?.get(param) ?? undefined;
  if (token) {
    const auth = request.headers.authorization;
    const presented = auth?.startsWith('Bearer ') ? auth.slice(7) : (request.query?.get('token') ?? '');
    const given = Buffer.from(presented);
    const expected = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new BatonError('unauthenticated', 'send Authorization: Bearer <token> with a token this server accepts');
    }
  }
  const id = header('x-baton-actor', 'actor');
  if (id === undefined) return localCaller(ANONYMOUS_ACTOR);
  const parsed = Actor.safeParse({
    id,
    name: header('x-baton-actor-name', 'actorName') ?? null,
    runtime: header('x-baton-runtime', 'runtime') ?? null,
    role: header('x-baton-role', 'role') ?? 'agent',
  });
  if (!parsed.success) {
    const names: Record<string, string> = {
      id: 'X-Baton-Actor',
      name: 'X-Baton-Actor-Name',
      runtime: 'X-Baton-Runtime',
      role: 'X-Baton-Role',
    };
    throw BatonError.invalid(
      zodIssues(parsed.error).map((i) => ({ ...i, path: names[i.path] ?? i.path })),
      'identity headers',
    );
  }
  return localCaller(parsed.data);
}
