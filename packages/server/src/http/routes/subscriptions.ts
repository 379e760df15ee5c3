import {
  ContextSubscription,
  CreatedContextSubscription,
  NewContextSubscription,
  SubscriptionAck,
  SubscriptionEventPage,
  SubscriptionEventsQuery,
} from '@baton/core';
import { z } from 'zod';
import {
  ackSubscription,
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  pullSubscriptionEvents,
} from '../../hub/subscriptions.js';
import { type RouteSpec, withStatus } from '../route.js';

export const subscriptionRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/subscriptions',
    operationId: 'createSubscription',
    summary:
      'Register a context subscription: `push` POSTs each matching event to `endpoint` (HMAC-signed, retried, at-least-once); `pull` keeps a cursor for GET …/events',
    tag: 'subscriptions',
    body: NewContextSubscription,
    response: CreatedContextSubscription,
    status: 201,
    handler: async ({ hub, caller, body }) => withStatus(201, await createSubscription(hub, body, caller)),
  },
  {
    method: 'get',
    path: '/subscriptions',
    operationId: 'listSubscriptions',
    summary: 'List the calling runtime’s subscriptions',
    tag: 'subscriptions',
    response: z.object({ subscriptions: z.array(ContextSubscription) }),
    handler: ({ hub, caller }) => listSubscriptions(hub, caller),
  },
  {
    method: 'get',
    path: '/subscriptions/:id',
    operationId: 'getSubscription',
    summary: 'Get a subscription: its cursor and delivery state',
    tag: 'subscriptions',
    response: ContextSubscription,
    handler: ({ hub, caller, params }) => getSubscription(hub, params.id as string, caller),
  },
  {
    method: 'delete',
    path: '/subscriptions/:id',
    operationId: 'deleteSubscription',
    summary: 'Delete a subscription; deliveries stop',
    tag: 'subscriptions',
    response: z.object({ deleted: z.literal(true) }),
    handler: ({ hub, caller, params }) => deleteSubscription(hub, params.id as string, caller),
  },
  {
    method: 'get',
    path: '/subscriptions/:id/events',
    operationId: 'pullSubscriptionEvents',
    summary: 'Pull the events that matched after the acknowledged cursor (or `after`); acknowledge with POST …/ack',
    tag: 'subscriptions',
    query: SubscriptionEventsQuery,
    response: SubscriptionEventPage,
    handler: ({ hub, caller, params, query }) => pullSubscriptionEvents(hub, params.id as string, query, caller),
  },
  {
    method: 'post',
    path: '/subscriptions/:id/ack',
    operationId: 'ackSubscription',
    summary: 'Acknowledge a pull subscription up to `seq` (its `nextAfter`); the cursor never moves back',
    tag: 'subscriptions',
    body: SubscriptionAck,
    response: ContextSubscription,
    handler: ({ hub, caller, params, body }) => ackSubscription(hub, params.id as string, body, caller),
  },
];
