import { BatonError } from '@baton/core';
import { Hono } from 'hono';
import type { Hub } from '../hub/hub.js';
import type { Logger } from '../log.js';
import { readJson } from './body.js';
import { toHttpError } from './errors.js';
import { openApiDocument } from './openapi.js';
import { checkParams } from './path-params.js';
import { type AppEnv, requestContext } from './request-context.js';
import { isStatusResult, type RouteSpec } from './route.js';
import { checkpointRoutes } from './routes/checkpoints.js';
import { contextRoutes } from './routes/contexts.js';
import { eventRoutes } from './routes/events.js';
import { handoffRoutes } from './routes/handoff.js';
import { runtimeRoutes } from './routes/runtimes.js';
import { searchRoutes } from './routes/search.js';
import { subscriptionRoutes } from './routes/subscriptions.js';
import { taskRoutes } from './routes/tasks.js';
import { webAssets } from './static.js';

export interface AppOptions {
  /** Largest request body in bytes (default 8 MiB: a 5 MB turn must fit). */
  bodyLimit?: number;
  token?: string | undefined;
  version?: string;
  log?: Logger;
  /** Directory of the built web UI served at `/` (default: this package's dist/web); false serves none. */
  webRoot?: string | false;
}

export const DEFAULT_BODY_LIMIT = 8 * 1024 * 1024;

export const API_ROUTES: readonly RouteSpec[] = [
  ...contextRoutes,
  ...eventRoutes,
  ...taskRoutes,
  ...checkpointRoutes,
  ...subscriptionRoutes,
  ...searchRoutes,
  ...handoffRoutes,
  ...runtimeRoutes,
];

/** The REST API as a fetch-style Hono app; server.ts is the only place that touches node:http. */
export function createApp(hub: Hub, options: AppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const document = openApiDocument(API_ROUTES, options.version ?? '0.0.0');

  app.onError((error, c) => {
    const { status, body } = toHttpError(error);
    // A client that hung up mid-request is not a server failure; nobody reads this reply.
    if (c.req.raw.signal.aborted) options.log?.debug({ path: c.req.path }, 'client went away');
    else if (status >= 500) options.log?.error({ err: error, path: c.req.path }, 'request failed');
    return c.json(body, status);
  });
  const web = options.webRoot === false ? null : webAssets(options.webRoot);
  app.notFound(async (c) => {
    // Whatever no route claimed may be a page or an asset of the web UI.
    const page = await web?.serve(c.req.method, c.req.path);
    if (page) return page;
    const { status, body } = toHttpError(new BatonError('not_found', `no route for ${c.req.method} ${c.req.path}`));
    return c.json(body, status);
  });

  app.get('/healthz', async (c) => c.json({ ok: true, store: hub.store.dialect }));

  const api = new Hono<AppEnv>();
  api.get('/openapi.json', (c) => c.json(document));
  api.use(requestContext({ token: options.token }));
  for (const route of API_ROUTES) {
    api.on(route.method.toUpperCase(), route.path, async (c) => {
      const result = await route.handler({
        hub,
        caller: c.get('caller'),
        params: checkParams(c.req.param() as Record<string, string>),
        query: queryOf(c.req.queries()),
        // Bodies are read (and held to the limit) only by routes that take one.
        body: route.body ? await readJson(c, limit, route.bodyOptional) : undefined,
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

/**
 * A repeated parameter (`kind=turn&kind=note`) means the same as the list
 * `kind=turn,note`; a repeated single-valued one (`limit=1&limit=2`) then
 * fails validation instead of one value silently winning.
 */
function queryOf(queries: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(queries).map(([key, values]) => [key, values.join(',')]));
}
