import { createHmac } from 'node:crypto';
import type { Event, WebhookDelivery } from '@baton/core';
import { VERSION } from '../version.js';

/** `sha256=<hex HMAC-SHA256 of the raw body>`, as GitHub signs its webhooks. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface WebhookRequest {
  endpoint: string;
  subscriptionId: string;
  secret: string;
  event: Event;
  /** 1 for the first try of this event, counting every retry after. */
  attempt: number;
}

/** A delivery the receiver did not accept; `message` says why, for the subscription's lastError. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
}

/**
 * POSTs one event. Success is any 2xx; redirects are not followed (a
 * webhook that moved must be registered again), so a 3xx is a failure like
 * any other status, a timeout or a refused connection.
 */
export async function postWebhook(request: WebhookRequest, options: { timeoutMs: number; signal: AbortSignal }): Promise<void> {
  const delivery: WebhookDelivery = { subscriptionId: request.subscriptionId, event: request.event };
  const body = JSON.stringify(delivery);
  let response: Response;
  try {
    response = await fetch(request.endpoint, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/json',
        'user-agent': `baton/${VERSION}`,
        'x-baton-subscription': request.subscriptionId,
        'x-baton-event-id': request.event.id,
        'idempotency-key': request.event.id,
        'x-baton-delivery-attempt': String(request.attempt),
        'x-baton-signature': signBody(request.secret, body),
      },
      body,
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
    });
  } catch (error) {
    if (options.signal.aborted) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms`
        : (cause?.code ?? cause?.message ?? String(error));
    throw new DeliveryError(`POST ${request.endpoint} failed: ${reason}`);
  }
  // Drain the body so the connection can be reused; its content does not matter.
  await response.arrayBuffer().catch(() => undefined);
  if (response.status < 200 || response.status > 299) {
    throw new DeliveryError(`POST ${request.endpoint} answered ${response.status}`);
  }
}

/**
 * Exponential backoff with jitter: between half and all of base·2^(attempt−1),
 * capped, so retries grow but many subscriptions failing at once spread out.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
