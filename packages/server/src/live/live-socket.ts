import type { Duplex } from 'node:stream';
import { BatonError, type Event, LIVE_CLOSE_CODES, LiveClientMessage, type LiveFilter, parseWith } from '@baton/core';
import type { WebSocket } from 'ws';
import { authorize, type Caller, viewerKey } from '../hub/caller.js';
import { errorMessage } from './close-codes.js';
import type { EventTail } from './event-tail.js';
import { Subscription } from './subscription.js';

export interface LiveSocketOptions {
  /** Past this many bytes queued on the socket, a subscription is told to resync (default 4 MiB). */
  maxBuffered?: number;
  /** Heartbeat interval in ms (default 15 s); two missed pongs close the socket. */
  heartbeatMs?: number;
  /** Most subscriptions one socket may hold (default 100). */
  maxSubscriptions?: number;
}

/** Each event's JSON, made once while the event is in the tail's ring. */
const encoded = new WeakMap<Event, string>();
/** The `event` messages built in this tick, by event and subscription id (JSON-encoded). */
let built = new Map<Event, Map<string, Buffer>>();
const forget = () => {
  built = new Map();
};

/**
 * The bytes of the `event` message for `event` on subscription `subId`.
 * One tail wake-up sends an event to every subscriber in the same tick, and
 * subscribers that share a subscription id (the web UI's tabs, the CLI, most
 * clients) share one Buffer, which every socket writes without a copy. The
 * messages are kept for that tick only, so a thousand distinct ids cannot
 * pin a thousand copies of the whole ring.
 */
function eventMessage(event: Event, subId: string): Buffer {
  let json = encoded.get(event);
  if (json === undefined) {
    json = JSON.stringify(event);
    encoded.set(event, json);
  }
  if (built.size === 0) process.nextTick(forget);
  let bySub = built.get(event);
  if (bySub === undefined) {
    bySub = new Map();
    built.set(event, bySub);
  }
  let message = bySub.get(subId);
  if (message === undefined) {
    message = Buffer.from(`{"type":"event","sub":${subId},"event":${json}}`);
    bySub.set(subId, message);
  }
  return message;
}

/**
 * One client connection to /api/v1/live: its subscriptions, its heartbeat,
 * its backpressure. Protocol messages are defined in @baton/core (live.ts).
 */
export function serveLiveSocket(
  ws: WebSocket,
  caller: Caller,
  tail: EventTail,
  options: LiveSocketOptions = {},
  /** The connection under `ws`; when given, the events of one tail wake-up leave in one write. */
  stream?: Duplex,
): void {
  const maxBuffered = options.maxBuffered ?? 4 * 1024 * 1024;
  const maxSubscriptions = options.maxSubscriptions ?? 100;
  const subscriptions = new Map<string, Subscription>();
  let alive = true;

  const send = (message: string) => {
    if (ws.readyState === ws.OPEN) ws.send(message);
  };

  // A tail wake-up hands every subscriber its events in one synchronous pass.
  // Corking until the next tick turns one write per event per socket into
  // one write per socket: the system call, not the bytes, was the cost. A
  // large batch is flushed every `flushAt` bytes, so that what stays queued
  // (ws.bufferedAmount, the slow-consumer check) is what the kernel would
  // not take, as without the cork, give or take one flush.
  const flushAt = Math.min(64 * 1024, maxBuffered / 4);
  let corked = false;
  const uncork = () => {
    corked = false;
    stream?.uncork();
  };
  const sendEvent = (message: Buffer) => {
    if (stream && !corked) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    ws.send(message, { binary: false });
    if (stream && stream.writableLength >= flushAt) {
      stream.uncork();
      stream.cork();
    }
  };

  const heartbeat = setInterval(() => {
    if (!alive) {
      ws.close(LIVE_CLOSE_CODES.heartbeatTimeout, 'no pong to two heartbeats');
      return;
    }
    alive = false;
    ws.ping();
    send(JSON.stringify({ type: 'heartbeat', head: tail.head }));
  }, options.heartbeatMs ?? 15_000);
  ws.on('pong', () => {
    alive = true;
  });

  const subscribe = (id: string, filter: LiveFilter, since: number | undefined) => {
    for (const contextId of filter.contextIds ?? []) authorize(caller, 'read', contextId);
    authorize(caller, 'read');
    const scoped: LiveFilter = caller.contextIds && !filter.contextIds ? { ...filter, contextIds: [...caller.contextIds] } : filter;
    if (subscriptions.has(id))
      throw BatonError.invalid([{ path: 'id', message: `subscription '${id}' already exists on this connection` }], 'message');
    if (subscriptions.size >= maxSubscriptions) {
      throw BatonError.invalid([{ path: 'id', message: `at most ${maxSubscriptions} subscriptions per connection` }], 'message');
    }
    const subId = JSON.stringify(id);
    send(JSON.stringify({ type: 'subscribed', id, head: tail.head }));
    const subscription = new Subscription(tail, scoped, viewerKey(caller), since, {
      event: (event) => {
        if (ws.readyState !== ws.OPEN) return false;
        if (ws.bufferedAmount > maxBuffered) return false;
        sendEvent(eventMessage(event, subId));
        return true;
      },
      caughtUp: (seq) => send(JSON.stringify({ type: 'caught_up', sub: id, seq })),
      overflow: (after) => {
        subscriptions.delete(id);
        send(JSON.stringify({ type: 'resync', sub: id, after, reason: 'the subscriber fell behind; subscribe again with since = after' }));
        // A client that does not read at all would otherwise grow the buffer with resyncs.
        if (ws.bufferedAmount > maxBuffered * 4) ws.close(LIVE_CLOSE_CODES.tooSlow, 'the client is not reading');
      },
      failed: (error) => {
        subscriptions.delete(id);
        send(errorMessage(error, id));
      },
    });
    subscriptions.set(id, subscription);
  };

  ws.on('message', (data, isBinary) => {
    let id: string | undefined;
    try {
      if (isBinary) throw BatonError.invalid([{ path: '', message: 'send JSON text frames' }], 'message');
      let raw: unknown;
      try {
        raw = JSON.parse(data.toString());
      } catch {
        throw BatonError.invalid([{ path: '', message: 'the message is not valid JSON' }], 'message');
      }
      if (typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string') id = raw.id;
      const message = parseWith(LiveClientMessage, raw, 'message');
      if (message.type === 'subscribe') subscribe(message.id, message.filter, message.since);
      else {
        subscriptions.get(message.id)?.close();
        subscriptions.delete(message.id);
        send(JSON.stringify({ type: 'unsubscribed', id: message.id }));
      }
    } catch (error) {
      send(errorMessage(error, id));
    }
  });

  ws.on('close', () => {
    clearInterval(heartbeat);
    for (const subscription of subscriptions.values()) subscription.close();
    subscriptions.clear();
  });
  ws.on('error', () => ws.terminate());
}
