import type { Context as HonoContext } from 'hono';
import type { z } from 'zod';
import type { Caller } from '../hub/caller.js';
import type { Hub } from '../hub/hub.js';

export interface RouteInput {
  hub: Hub;
  caller: Caller;
  params: Record<string, string>;
  query: Record<string, string>;
  /** The parsed JSON body (routes with `body` only). */
  body: unknown;
  c: HonoContext;
}

/** What a handler returns: a JSON value (200), or a status with one. */
export type RouteResult = unknown | { status: 200 | 201 | 202; json: unknown } | Response;

/**
 * One REST operation: its handler and the schemas that document it. The same
 * list registers the Hono routes and generates /api/v1/openapi.json, so the
 * document cannot drift from what is served. Handlers pass raw input to the
 * hub, which validates with these same schemas.
 */
export interface RouteSpec {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Hono-style path below /api/v1, e.g. `/contexts/:id`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body may be left out (it is then `{}`). */
  bodyOptional?: boolean;
  response: z.ZodType;
  /** The success status (default 200). */
  status?: 200 | 201 | 202;
  /** Also answered with 200 when a retry with the same ids stored nothing new. */
  idempotentRetry?: boolean;
  /** The success response's media type, when it is not JSON. */
  responseMediaType?: string;
  handler: (input: RouteInput) => Promise<RouteResult>;
}

export function withStatus(status: 200 | 201 | 202, json: unknown): RouteResult {
  return { status, json };
}

export function isStatusResult(value: unknown): value is { status: 200 | 201 | 202; json: unknown } {
  return typeof value === 'object' && value !== null && 'status' in value && 'json' in value && Object.keys(value).length === 2;
}
