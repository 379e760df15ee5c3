import type { Json } from '@baton/core';
import type { PendingCall } from '../recorder.js';
import type { PromptRecord, ResponseRecord } from '../types.js';

/**
 * The members of the SDKs' `APIPromise` (Anthropic and OpenAI share the
 * Stainless runtime) that a recorded call forwards. Declared here rather than
 * imported: the SDKs stay dev dependencies, and the adapters depend on
 * structure, not on a package.
 */
export interface ApiPromiseLike<T> extends PromiseLike<T> {
  withResponse(): Promise<{ data: T; response: Response }>;
  asResponse(): Promise<Response>;
  _thenUnwrap<U>(transform: (data: T, props: unknown) => U): ApiPromiseLike<U>;
}

/** Rebuilds a streamed answer from its events. */
export interface StreamAccumulator {
  add(event: unknown): void;
  /** The provider said the answer is finished (message_stop, finish_reason, response.completed). */
  readonly complete: boolean;
  /** What the provider said went wrong, when the stream carried an error event the SDK passed on. */
  readonly error?: Error | null;
  record(): ResponseRecord;
}

/** How one SDK method's requests and results become turns. */
export interface Endpoint {
  provider: string;
  model(body: unknown): string | null;
  prompt(body: unknown): PromptRecord;
  streaming(body: unknown): boolean;
  response(data: unknown): ResponseRecord;
  accumulator(): StreamAccumulator;
}

type Create = (this: unknown, body: unknown, options?: unknown) => ApiPromiseLike<unknown>;

export interface RecordingContext {
  start(model: string | null, prompt: PromptRecord): PendingCall;
}

/**
 * Wraps an SDK `create`: the prompt is recorded (and, by default, stored)
 * before the original `create` is called, and the result comes back as an
 * `APIPromise` look-alike whose value and errors are the SDK's own.
 */
export function recordedCreate(original: Create, resource: object, endpoint: Endpoint, context: RecordingContext): Create {
  return function create(body: unknown, options?: unknown) {
    let prompt: PromptRecord;
    try {
      prompt = endpoint.prompt(body);
    } catch {
      prompt = rawPrompt(body);
    }
    const pending = context.start(
      safely(() => endpoint.model(body), null),
      prompt,
    );
    const box = pending.ready.then(() => ({ call: original.call(resource, body, options) }));
    const streaming = safely(() => endpoint.streaming(body), false);
    let tapped = false;
    const outcome: Outcome = {
      tap: (data) => {
        if (tapped) return data;
        tapped = true;
        try {
          if (streaming && data !== null && typeof data === 'object') instrumentStream(data, endpoint.accumulator(), pending);
          else pending.respond(endpoint.response(data));
        } catch (error) {
          pending.fail(error);
        }
        return data;
      },
      fail: (error) => pending.fail(error),
      raw: (response) => {
        if (tapped) return;
        tapped = true;
        pending.respond({
          content: [],
          metadata: { rawResponse: { status: response.status, note: 'the caller read the raw HTTP response' } },
        });
      },
    };
    return new RecordedApiPromise(box, outcome);
  };
}

interface Outcome {
  tap(data: unknown): unknown;
  fail(error: unknown): void;
  raw(response: Response): void;
}

/**
 * Lazy like the SDK's APIPromise: the body is parsed when the caller asks for
 * it (then/await, withResponse), never twice, and `asResponse()` leaves it
 * unread. Errors are recorded, then rethrown as the very same objects.
 */
export class RecordedApiPromise<T> extends Promise<T> {
  static override get [Symbol.species]() {
    return Promise;
  }
  readonly #box: Promise<{ call: ApiPromiseLike<T> }>;
  readonly #outcome: Outcome;
  #data: Promise<T> | undefined;

  constructor(box: Promise<{ call: ApiPromiseLike<T> }>, outcome: Outcome) {
    super((resolve) => resolve(undefined as T));
    this.#box = box;
    this.#outcome = outcome;
    // The SDK's promise rejects unobserved too when nobody awaits it; this one must not add a second report.
    box.catch(() => {});
  }

  #parse(): Promise<T> {
    this.#data ??= this.#box
      .then(({ call }) => call.then((data) => this.#outcome.tap(data) as T))
      .catch((error: unknown) => this.#rethrow(error));
    return this.#data;
  }

  #rethrow(error: unknown): never {
    this.#outcome.fail(error);
    throw error;
  }

  // biome-ignore lint/suspicious/noThenProperty: this is a promise: it must be awaitable exactly like the SDK's APIPromise it stands for.
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#parse().then(onfulfilled, onrejected);
  }

  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#parse().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parse().finally(onfinally);
  }

  async withResponse(): Promise<{ data: T; response: Response }> {
    try {
      const { call } = await this.#box;
      const result = await call.withResponse();
      return { ...result, data: this.#outcome.tap(result.data) as T };
    } catch (error) {
      return this.#rethrow(error);
    }
  }

  async asResponse(): Promise<Response> {
    try {
      const { call } = await this.#box;
      const response = await call.asResponse();
      this.#outcome.raw(response);
      return response;
    } catch (error) {
      return this.#rethrow(error);
    }
  }

  /** Used by the SDKs' own helpers (`parse()`): the transform sees the recorded data. */
  _thenUnwrap<U>(transform: (data: T, props: unknown) => U): RecordedApiPromise<U> {
    const box = this.#box.then(({ call }) => ({ call: call._thenUnwrap((data, props) => transform(this.#outcome.tap(data) as T, props)) }));
    return new RecordedApiPromise<U>(box, {
      tap: (data) => data,
      fail: (error) => this.#outcome.fail(error),
      raw: (r) => this.#outcome.raw(r),
    });
  }
}

/**
 * Records a stream when it ends: as the response when the provider finished
 * it, as a failure (with what had arrived) when it broke or the caller left
 * early. Events pass through untouched. Both SDKs keep the stream's source in
 * an `iterator` property that `[Symbol.asyncIterator]`, `tee()` and
 * `toReadableStream()` all read, so observing it there sees every consumer.
 */
export function instrumentStream(stream: object, accumulator: StreamAccumulator, pending: PendingCall): void {
  const own = Object.getOwnPropertyDescriptor(stream, 'iterator');
  if (own && typeof own.value === 'function') {
    const source = own.value as () => AsyncIterator<unknown>;
    Object.defineProperty(stream, 'iterator', { ...own, value: () => observe(source.call(stream), accumulator, pending) });
    return;
  }
  const iterate = (stream as { [Symbol.asyncIterator]?: () => AsyncIterator<unknown> })[Symbol.asyncIterator];
  if (typeof iterate !== 'function') {
    pending.respond({ content: [], metadata: { note: 'the SDK returned a stream the recorder cannot observe' } });
    return;
  }
  Object.defineProperty(stream, Symbol.asyncIterator, {
    value: () => observe(iterate.call(stream), accumulator, pending),
    configurable: true,
    writable: true,
  });
}

async function* observe(source: AsyncIterator<unknown>, accumulator: StreamAccumulator, pending: PendingCall): AsyncGenerator<unknown> {
  let failure: { error: unknown } | null = null;
  try {
    for await (const event of { [Symbol.asyncIterator]: () => source }) {
      try {
        accumulator.add(event);
      } catch {
        // An event the accumulator cannot read costs the record detail, never the stream.
      }
      yield event;
    }
  } catch (error) {
    failure = { error };
    throw error;
  } finally {
    const partial = safely(() => accumulator.record(), { content: [] });
    if (failure) pending.fail(failure.error, partial);
    else if (safely(() => accumulator.complete, false)) pending.respond(partial);
    else pending.fail(safely(() => accumulator.error, null) ?? new StreamIncompleteError(), partial);
  }
}

/** The stream ended without the provider's end-of-answer event: the caller stopped reading, or aborted it. */
export class StreamIncompleteError extends Error {
  override name = 'StreamIncompleteError';
  constructor() {
    super('the stream ended before the provider finished its answer (the caller stopped reading or aborted it)');
  }
}

export function safely<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** When a request body cannot be read as a prompt, it is kept as it was sent. */
function rawPrompt(body: unknown): PromptRecord {
  return { content: [{ type: 'data', data: toJson(body) }] };
}

/** A JSON copy of a value from an SDK (drops functions, undefined; cycles become null). */
export function toJson(value: unknown): Json {
  try {
    return (JSON.parse(JSON.stringify(value) ?? 'null') as Json) ?? null;
  } catch {
    return null;
  }
}

/**
 * Wraps an SDK client in a proxy: the named resources are replaced by recorded
 * ones, every other member behaves as before (methods run on the real client,
 * whose `#private` fields a proxy receiver could not reach).
 */
export function proxyClient<C extends object>(
  client: C,
  resources: Record<string, (resource: object) => object>,
  rewrap: (client: C) => C,
): C {
  const made = new Map<string, { from: object; to: object }>();
  const bound = new Map<PropertyKey, { from: unknown; to: unknown }>();
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop === 'string' && prop in resources && value !== null && typeof value === 'object') {
        const cached = made.get(prop);
        if (cached?.from === value) return cached.to;
        const to = (resources[prop] as (resource: object) => object)(value);
        made.set(prop, { from: value, to });
        return to;
      }
      if (prop === 'withOptions' && typeof value === 'function') {
        return (...args: unknown[]) => rewrap((value as (...a: unknown[]) => C).apply(target, args));
      }
      if (typeof value !== 'function') return value;
      const cached = bound.get(prop);
      if (cached?.from === value) return cached.to;
      const to = (value as (...a: unknown[]) => unknown).bind(target);
      bound.set(prop, { from: value, to });
      return to;
    },
  });
}

/** A resource whose `create` is recorded; its other methods (`stream`, `parse`) run through it too. */
export function proxyResource<R extends object>(resource: R, create: Create, client: () => object): R {
  return new Proxy(resource, {
    get(target, prop, receiver) {
      if (prop === 'create') return create;
      // The SDK helpers reach `this._client.<resource>.create`: give them the wrapped client.
      if (prop === '_client') return client();
      return Reflect.get(target, prop, receiver);
    },
  });
}
