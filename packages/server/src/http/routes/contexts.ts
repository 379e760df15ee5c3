import { Context, ContextPatch, ContextQuery, NewContext } from '@baton/core';
import { z } from 'zod';
import { type RouteSpec, withStatus } from '../route.js';

const ContextList = z.object({ contexts: z.array(Context), nextCursor: z.string().nullable() });
const Deleted = z.object({ deleted: z.object({ events: z.number(), tasks: z.number(), checkpoints: z.number() }) });

export const contextRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/contexts',
    operationId: 'createContext',
    summary: 'Create a context (a plan, a thread, a room)',
    tag: 'contexts',
    body: NewContext,
    response: Context,
    status: 201,
    handler: async ({ hub, caller, body }) => withStatus(201, await hub.createContext(body, caller)),
  },
  {
    method: 'get',
    path: '/contexts',
    operationId: 'listContexts',
    summary: 'List contexts, most recently updated first',
    tag: 'contexts',
    query: ContextQuery,
    response: ContextList,
    handler: ({ hub, caller, query }) => hub.listContexts(query, caller),
  },
  {
    method: 'get',
    path: '/contexts/:id',
    operationId: 'getContext',
    summary: 'Get a context',
    tag: 'contexts',
    response: Context,
    handler: ({ hub, caller, params }) => hub.getContext(params.id as string, caller),
  },
  {
    method: 'patch',
    path: '/contexts/:id',
    operationId: 'updateContext',
    summary: 'Change a context’s title, description, parent or metadata',
    tag: 'contexts',
    body: ContextPatch,
    response: Context,
    handler: ({ hub, caller, params, body }) => hub.updateContext(params.id as string, body, caller),
  },
  {
    method: 'delete',
    path: '/contexts/:id',
    operationId: 'deleteContext',
    summary: 'Delete a context with its events, tasks and checkpoints',
    tag: 'contexts',
    response: Deleted,
    handler: async ({ hub, caller, params }) => ({ deleted: await hub.deleteContext(params.id as string, caller) }),
  },
];
