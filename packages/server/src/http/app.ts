import { BatonError } from '@baton/core';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Hub } from '../hub/hub.js';
import type { Logger } from '../log.js';
import { readJson } from './body.js';
import { toHttpError } from './errors.js';
import { openApiDocument } from './openapi.js';
import { type AppEnv, requestContext } from './request-context.js';
import { isStatusResult, type RouteSpec } from './route.js';
import { checkpointRoutes } from './routes/checkpoints.js';
import { contextRoutes } from './routes/contexts.js';
import { eventRoutes } from './routes/events.js';
import { taskRoutes } from './routes/tasks.js';

export interface AppOptions {
  /** Largest request body in bytes (default 8 MiB: a 5 MB turn must fit). */
  bodyLimit?: number;
  token?: string | undefined;
  version?: string;
  log?: Logger;
}

export const DEFAULT_BODY_LIMIT = 8 * 1024 * 1024;

export const API_ROUTES: readonly RouteSpec[] = [...contextRoutes, ...eventRoutes, ...taskRoutes, ...checkpointRoutes];

/** The REST API as a fetch-style Hono app; server.ts is the only place that touches node:http. */
export function createApp(hub: Hub, options: AppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const document = openApiDocument(API_ROUTES, options.version ?? '0.0.0');

  app.onError((error, c) => {
    const { status, body } = toHttpError(error);
    if (status >= 500) options.log?.error({ err: error, path: c.req.path }, 'request failed');
    return c.json(body, status);
  });
  app.notFound((c) => {
    const { status, body } = toHttpError(new BatonError('not_found', `no route for ${c.req.method} ${c.req.path}`));
    return c.json(body, status);
  });

  app.get('/healthz', async (c) => c.json({ ok: true, store: hub.store.dialect }));

  const api = new Hono<AppEnv>();
  api.use(
    bodyLimit({
      maxSize: limit,
      onError: () => {
        throw new BatonError('payload_too_large', `the request body is over the limit of ${limit} bytes`, { details: { limit } });
      },
    }),
  );
  api.get('/openapi.json', (c) => c.json(document));
  api.use(requestContext({ token: options.token }));
  for (const route of API_ROUTES) {
    api.on(route.method.toUpperCase(), route.path, async (c) => {
      const result = await route.handler({
        hub,
        caller: c.get('caller'),
        params: c.req.param() as Record<string, string>,
        query: c.req.query(),
        body: route.body ? await readJson(c, route.bodyOptional) : undefined,
        c,
      });
      if (result instanceof Response) return result;
      if (isStatusResult(result)) return c.json(result.json as object, result.status);
      return c.json(result as object, 200);
    });
  }
  app.route('/api/v1', api);
  return app;
}
