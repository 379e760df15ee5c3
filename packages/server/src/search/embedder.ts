import { BatonError } from '@baton/core';
import { z } from 'zod';
import type { EmbeddingsConfig } from '../config.js';

/**
 * Turns texts into vectors. One implementation speaks the OpenAI embeddings
 * API (below); anything with the same shape works (tests, other providers).
 */
export interface Embedder {
  /**
   * The vector space: model plus requested dimensions. Vectors of different
   * spaces are never compared; changing it re-embeds every event.
   */
  readonly space: string;
  /** Unit-length vectors, one per text, in order. Throws BatonError (see EmbeddingFailure). */
  embed(texts: readonly string[], options?: { timeoutMs?: number }): Promise<Float32Array[]>;
}

/** What a failed embedding request tells its caller, in `BatonError.details`. */
export interface EmbeddingFailure {
  /** HTTP status, when the provider answered. */
  status?: number;
  /** The provider asked to wait this long (Retry-After). */
  retryAfterMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** Bytes of an error body kept for the message. */
const ERROR_BODY_CHARS = 300;

const EmbeddingsResponse = z.object({
  data: z
    .array(
      z.object({
        index: z.number().int().nonnegative().optional(),
        // Floats as asked (encoding_format float); base64 float32 from servers that ignore the ask.
        embedding: z.union([z.array(z.number()).min(1), z.string().min(1)]),
      }),
    )
    .min(1),
});

/**
 * A client for `POST {url}/embeddings` as OpenAI defines it, which Ollama,
 * vLLM, llama.cpp's server, LM Studio, LiteLLM and most hosted providers
 * serve. It is a plain fetch rather than the `openai` package: one request
 * shape, and the package (20 MB, a dev dependency here for the recorder's
 * tests) would ship in every install for a feature that is off by default.
 * Retrying is the caller's job: the indexer backs off, a search falls back.
 */
export class OpenAiEmbedder implements Embedder {
  readonly space: string;
  readonly #endpoint: string;
  readonly #config: EmbeddingsConfig;
  readonly #fetch: typeof fetch;

  constructor(config: EmbeddingsConfig, options: { fetch?: typeof fetch } = {}) {
    this.#config = config;
    this.#endpoint = `${config.url.replace(/\/+$/, '')}/embeddings`;
    this.space = config.dimensions ? `${config.model}@${config.dimensions}` : config.model;
    this.#fetch = options.fetch ?? fetch;
  }

  async embed(texts: readonly string[], options: { timeoutMs?: number } = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.#config.key) headers.authorization = `Bearer ${this.#config.key}`;
    const body = {
      model: this.#config.model,
      input: texts,
      encoding_format: 'float',
      ...(this.#config.dimensions ? { dimensions: this.#config.dimensions } : {}),
    };
    let response: Response;
    try {
      response = await this.#fetch(this.#endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? 'timed out' : describeFetchError(error);
      throw new BatonError('unavailable', `embedding provider at ${this.#endpoint}: ${reason}`, { cause: error });
    }
    if (!response.ok) {
      const text = (await response.text().catch(() => '')).slice(0, ERROR_BODY_CHARS).trim();
      const failure: EmbeddingFailure = { status: response.status };
      const retryAfter = retryAfterMs(response.headers.get('retry-after'));
      if (retryAfter !== undefined) failure.retryAfterMs = retryAfter;
      // 400/413/422: this input was refused (too long, filtered); anything else is the provider's state.
      const code = [400, 413, 422].includes(response.status) ? 'invalid_argument' : 'unavailable';
      throw new BatonError(code, `embedding provider at ${this.#endpoint} answered ${response.status}${text ? `: ${text}` : ''}`, {
        details: { ...failure },
      });
    }
    const parsed = EmbeddingsResponse.safeParse(await response.json().catch(() => null));
    if (!parsed.success || parsed.data.data.length !== texts.length) {
      throw new BatonError(
        'unavailable',
        `embedding provider at ${this.#endpoint} sent an unexpected answer (not ${texts.length} embeddings)`,
      );
    }
    const out: Float32Array[] = new Array(texts.length);
    parsed.data.data.forEach((item, i) => {
      out[item.index ?? i] = normalize(typeof item.embedding === 'string' ? fromBase64(item.embedding) : Float32Array.from(item.embedding));
    });
    const dims = out[0]?.length;
    if (out.some((v) => v === undefined || v.length !== dims)) {
      throw new BatonError('unavailable', `embedding provider at ${this.#endpoint} sent embeddings of mixed lengths or indexes`);
    }
    return out;
  }
}

export function embedderFrom(config: EmbeddingsConfig | undefined): Embedder | undefined {
  return config ? new OpenAiEmbedder(config) : undefined;
}

/** Scales `v` to unit length in place (so cosine similarity is a dot product). */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) * (v[i] as number);
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / norm;
  return v;
}

function fromBase64(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  const copy = new Uint8Array(bytes.length - (bytes.length % 4));
  copy.set(bytes.subarray(0, copy.length));
  return new Float32Array(copy.buffer);
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** fetch's "fetch failed" hides the reason (ECONNREFUSED…) in `cause`. */
function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
