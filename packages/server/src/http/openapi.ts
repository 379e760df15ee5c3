import { z } from 'zod';
import { ErrorCode } from './error-schema.js';
import { PathParam } from './path-params.js';
import type { RouteSpec } from './route.js';
import { SchemaComponents } from './schema-components.js';

const ErrorResponse = z.object({
  error: z.object({ code: ErrorCode, message: z.string(), details: z.record(z.string(), z.unknown()) }),
});

/** OpenAPI 3.1 (whose schemas are JSON Schema 2020-12), generated from the route list. */
export function openApiDocument(routes: readonly RouteSpec[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const components = new SchemaComponents();
  const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => components.convert(schema, io);
  const errorSchema = jsonSchema(ErrorResponse, 'output');
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters: unknown[] = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: jsonSchema(PathParam, 'input'),
    }));
    if (route.query) {
      for (const [name, field] of Object.entries(route.query.shape)) {
        const schema = jsonSchema(field as z.ZodType, 'input');
        parameters.push({ name, in: 'query', required: false, schema, ...(schema.description ? { description: schema.description } : {}) });
      }
    }
    const status = String(route.status ?? 200);
    const success = jsonSchema(route.response, 'output');
    const errors = Object.fromEntries(
      ['400', '401', '403', '404', '409', '413'].map((code) => [
        code,
        { description: 'error', content: { 'application/json': { schema: errorSchema } } },
      ]),
    );
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      parameters,
      ...(route.body
        ? {
            requestBody: {
              required: !route.bodyOptional,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
            },
          }
        : {}),
      responses: {
        [status]: { description: 'success', content: { [route.responseMediaType ?? 'application/json']: { schema: success } } },
        ...(route.idempotentRetry
          ? {
              '200': {
                description: 'a retry: every event was already stored under its id',
                content: { 'application/json': { schema: success } },
              },
            }
          : {}),
        ...errors,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'baton',
      version,
      description:
        'The context hub for AI agents. Identify yourself with X-Baton-Actor (and X-Baton-Actor-Name, X-Baton-Runtime, X-Baton-Role).',
    },
    servers: [{ url: '/api/v1' }],
    paths,
    components: { schemas: components.schemas },
  };
}
