import { SharedContextQuery, SharedContextResponse, StateEntry, StatePut } from '@baton/core';
import { z } from 'zod';
import type { RouteSpec } from '../route.js';

const StateQuery = z.strictObject({
  prefix: z.string().describe('user:<userId>, team, task:<taskId> or thread:<contextId>'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
const Deleted = z.object({ deleted: z.literal(true) });

export const handoffRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/contexts/:id/shared',
    operationId: 'getSharedContext',
    summary:
      'What a starting agent needs, ranked and cut to `tokenBudget` (o200k_base tokens): blockers, decisions, active tasks, identity, focus, recent activity',
    tag: 'handoff',
    query: SharedContextQuery,
    response: SharedContextResponse,
    handler: ({ hub, caller, params, query }) => hub.handoff.sharedContext(params.id as string, query, caller),
  },
  {
    method: 'get',
    path: '/state',
    operationId: 'listState',
    summary: 'Scoped state under one prefix: user:<userId>, team, task:<taskId> or thread:<contextId>',
    tag: 'handoff',
    query: StateQuery,
    response: z.object({ entries: z.array(StateEntry) }),
    handler: ({ hub, caller, query }) => hub.handoff.listState(query, caller),
  },
  {
    method: 'get',
    path: '/state/:id',
    operationId: 'getState',
    summary: 'One state entry by key (user:<userId>:<name>, team:<name>, task:<taskId>:<name>, thread:<contextId>:<name>)',
    tag: 'handoff',
    response: StateEntry,
    handler: ({ hub, caller, params }) => hub.handoff.getState(params.id as string, caller),
  },
  {
    method: 'post',
    path: '/state/:id',
    operationId: 'putState',
    summary: 'Set a state entry `{ "value": … }` (any JSON), replacing the previous value',
    tag: 'handoff',
    body: StatePut,
    response: StateEntry,
    handler: ({ hub, caller, params, body }) => hub.handoff.putState(params.id as string, body, caller),
  },
  {
    method: 'delete',
    path: '/state/:id',
    operationId: 'deleteState',
    summary: 'Delete a state entry',
    tag: 'handoff',
    response: Deleted,
    handler: async ({ hub, caller, params }) => {
      await hub.handoff.deleteState(params.id as string, caller);
      return { deleted: true };
    },
  },
];
