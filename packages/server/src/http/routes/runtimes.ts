import { CAPABILITY_SUPPORT, Id, NewRuntime, parseWith, Runtime, Task } from '@baton/core';
import { z } from 'zod';
import { type RouteSpec, withStatus } from '../route.js';

const Match = z.object({
  runtime: z.string(),
  capable: z.boolean(),
  native: z.array(z.string()),
  viaApi: z.array(z.string()),
  missing: z.array(z.string()),
});
const MatchQuery = z.strictObject({ task: Id });
const QueueQuery = z.strictObject({ context: Id.optional() });
const ClaimBody = z.strictObject({ runtime: Id, message: z.string().max(100_000).optional() });

export const runtimeRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/runtimes',
    operationId: 'registerRuntime',
    summary: `Register a runtime (or replace its capability matrix): each capability ${CAPABILITY_SUPPORT.join(', ')}`,
    tag: 'runtimes',
    body: NewRuntime,
    response: Runtime,
    status: 201,
    handler: async ({ hub, caller, body }) => withStatus(201, await hub.handoff.registerRuntime(body, caller)),
  },
  {
    method: 'get',
    path: '/runtimes',
    operationId: 'listRuntimes',
    summary: 'The registered runtimes with their capability matrices',
    tag: 'runtimes',
    response: z.object({ runtimes: z.array(Runtime) }),
    handler: async ({ hub, caller }) => ({ runtimes: await hub.handoff.listRuntimes(caller) }),
  },
  {
    method: 'get',
    path: '/runtimes/match',
    operationId: 'matchRuntimes',
    summary: 'The runtimes that can take a task (all its requiredCapabilities native or via-api), best first, then those that cannot',
    tag: 'runtimes',
    query: MatchQuery,
    response: z.object({ task: Task, matches: z.array(Match) }),
    handler: ({ hub, caller, query }) => {
      const { task } = parseWith(MatchQuery, query, 'query');
      return hub.handoff.matchRuntimes(task, caller);
    },
  },
  {
    method: 'get',
    path: '/runtimes/:id',
    operationId: 'getRuntime',
    summary: 'One runtime',
    tag: 'runtimes',
    response: Runtime,
    handler: ({ hub, caller, params }) => hub.handoff.getRuntime(params.id as string, caller),
  },
  {
    method: 'delete',
    path: '/runtimes/:id',
    operationId: 'deleteRuntime',
    summary: 'Unregister a runtime',
    tag: 'runtimes',
    response: z.object({ deleted: z.literal(true) }),
    handler: async ({ hub, caller, params }) => {
      await hub.handoff.deleteRuntime(params.id as string, caller);
      return { deleted: true };
    },
  },
  {
    method: 'get',
    path: '/runtimes/:id/queue',
    operationId: 'runtimeQueue',
    summary: 'Submitted tasks this runtime can take (tasks needing what it lacks wait for another runtime)',
    tag: 'runtimes',
    query: QueueQuery,
    response: z.object({ tasks: z.array(Task) }),
    handler: ({ hub, caller, params, query }) =>
      hub.handoff.runtimeQueue(params.id as string, parseWith(QueueQuery, query, 'query'), caller),
  },
  {
    method: 'post',
    path: '/tasks/:id/claim',
    operationId: 'claimTask',
    summary: 'A runtime takes a task (→ working); refused with 409, naming the capable runtimes, when it lacks a required capability',
    tag: 'runtimes',
    body: ClaimBody,
    response: Task,
    handler: ({ hub, caller, params, body }) => hub.handoff.claimTask(params.id as string, body, caller),
  },
];
