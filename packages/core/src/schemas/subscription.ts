import { z } from 'zod';
import { Actor } from './actor.js';
import { Event } from './event.js';
import { LiveFilter } from './live.js';
import { Id, Timestamp } from './primitives.js';

/**
 * Context subscriptions (reference/002 `ContextSubscription`): a runtime
 * registers a LiveFilter once and either has matching events pushed to a
 * webhook or pulls them from its cursor. The reference's `scopes`,
 * `relevanceTags` and `minUrgency` are the filter's `scopes`, `tags` and
 * `minUrgency`; the runtime is the caller's identity.
 */
export const DELIVERY_MODES = ['push', 'pull'] as const;
export const DeliveryMode = z.enum(DELIVERY_MODES);
export type DeliveryMode = z.infer<typeof DeliveryMode>;

/** Only http(s) endpoints: the server must not be turned into a file or gopher client. */
export const WebhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(2048, 'must be at most 2048 characters');

export const NewContextSubscription = z
  .strictObject({
    id: Id.optional(),
    filter: LiveFilter.default({}),
    deliveryMode: DeliveryMode,
    /** Where push deliveries are POSTed (push only). */
    endpoint: WebhookUrl.optional(),
    /** The HMAC key for X-Baton-Signature (push only); generated when left out and returned once. */
    secret: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
    /** Deliver events after this seq; left out: only events written from now on. */
    since: z.number().int().nonnegative().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.deliveryMode === 'push' && value.endpoint === undefined) {
      ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'is required when deliveryMode is push' });
    }
    if (value.deliveryMode === 'pull') {
      for (const field of ['endpoint', 'secret'] as const) {
        if (value[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is only for deliveryMode push' });
      }
    }
  });
export type NewContextSubscription = z.infer<typeof NewContextSubscription>;
export type NewContextSubscriptionInput = z.input<typeof NewContextSubscription>;

/** `failing`: the last delivery exhausted its retries; the cursor stays put and delivery is retried later. */
export const SubscriptionStatus = z.enum(['active', 'failing']);

export const ContextSubscription = z.strictObject({
  id: Id,
  /** Who registered it; its private events are the only private events it receives. */
  owner: Actor,
  filter: LiveFilter,
  deliveryMode: DeliveryMode,
  endpoint: z.string().nullable(),
  /** Push: the seq of the last delivered event. Pull: the seq last acknowledged. */
  cursor: z.number().int().nonnegative(),
  status: SubscriptionStatus,
  /** Consecutive failed delivery rounds (push). */
  failures: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  lastDeliveredAt: Timestamp.nullable(),
  /** When a failing push subscription is tried again. */
  retryAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ContextSubscription = z.infer<typeof ContextSubscription>;

/** The answer to creating one: the only time the webhook secret is shown. */
export const CreatedContextSubscription = z.strictObject({
  ...ContextSubscription.shape,
  secret: z.string().nullable(),
});
export type CreatedContextSubscription = z.infer<typeof CreatedContextSubscription>;

export const SubscriptionEventsQuery = z.strictObject({
  /** Events after this seq; defaults to the subscription's acknowledged cursor. */
  after: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const SubscriptionEventPage = z.strictObject({
  events: z.array(Event),
  /** The seq the server has looked through: pass it as `after`, and acknowledge it when done. */
  nextAfter: z.number().int().nonnegative(),
  /** More events may match after nextAfter: ask again right away. */
  hasMore: z.boolean(),
  /** The acknowledged cursor. */
  cursor: z.number().int().nonnegative(),
});
export type SubscriptionEventPage = z.infer<typeof SubscriptionEventPage>;

export const SubscriptionAck = z.strictObject({
  /** Everything up to this seq has been handled; the cursor never moves back. */
  seq: z.number().int().nonnegative(),
});

/** The JSON body POSTed to a push subscription's endpoint (signed: X-Baton-Signature). */
export const WebhookDelivery = z.strictObject({ subscriptionId: Id, event: Event });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
