import { timingSafeEqual } from 'node:crypto';
import { Actor, BatonError, zodIssues } from '@baton/core';
import type { MiddlewareHandler } from 'hono';
import { ANONYMOUS_ACTOR, type Caller, localCaller } from '../hub/caller.js';

export interface RequestContextOptions {
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string | undefined;
}

export type AppEnv = { Variables: { caller: Caller } };

/**
 * Establishes who is asking, once per request: the identity headers name the
 * actor, and the bearer token (when the server requires one) grants scopes.
 * Access checks live in the hub and read only this.
 */
export function requestContext(options: RequestContextOptions): MiddlewareHandler<AppEnv> {
  const expected = options.token ? Buffer.from(options.token) : null;
  return async (c, next) => {
    if (expected) {
      const header = c.req.header('authorization') ?? '';
      const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new BatonError('unauthenticated', 'send Authorization: Bearer <token> with a token this server accepts');
      }
    }
    c.set('caller', localCaller(actorFromHeaders(c.req.header())));
    await next();
  };
}

function actorFromHeaders(headers: Record<string, string>): Actor {
  const id = headers['x-baton-actor'];
  if (id === undefined) return ANONYMOUS_ACTOR;
  const parsed = Actor.safeParse({
    id,
    name: headers['x-baton-actor-name'] ?? null,
    runtime: headers['x-baton-runtime'] ?? null,
    role: headers['x-baton-role'] ?? 'agent',
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
  return parsed.data;
}
