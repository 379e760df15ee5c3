import { resolve } from 'node:path';
import { Id, Name } from '@baton/core';
import { z } from 'zod';

/**
 * The one place that reads the environment. Flags override these; every
 * other module receives a parsed Config.
 */
const Env = z.object({
  BATON_DATA: z.string().min(1).optional(),
  BATON_DB: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  BATON_HOST: z.string().min(1).default('127.0.0.1'),
  BATON_PORT: z.coerce.number().int().min(0).max(65535).default(7337),
  BATON_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  BATON_BODY_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  BATON_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BATON_URL: z.url().optional(),
  /** Identity of `baton mcp` (flags --agent, --runtime, --context override these). */
  BATON_AGENT: Name.optional(),
  BATON_RUNTIME: Name.optional(),
  BATON_CONTEXT: Id.optional(),
  /** Activity entries a context's Yjs document holds (DESIGN §3; older ones through the API). */
  BATON_YJS_WINDOW: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000, 'must be at most 10000: Yjs documents degrade past ~10k entries')
    .default(1000),
  /** Semantic search (off unless set): an OpenAI-compatible API's base URL, e.g. http://127.0.0.1:11434/v1 (Ollama). */
  BATON_EMBEDDINGS_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  BATON_EMBEDDINGS_MODEL: z.string().trim().min(1).max(200).optional(),
  BATON_EMBEDDINGS_KEY: z.string().min(1).optional(),
  /** Asks the model for vectors of this length (models that support it, e.g. text-embedding-3-*). */
  BATON_EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).max(8192).optional(),
});

export interface Config {
  dataDir: string;
  databaseUrl: string | undefined;
  host: string;
  port: number;
  token: string | undefined;
  bodyLimit: number;
  logLevel: string;
  /** Where clients (`baton mcp`, `baton tail`) find the hub. */
  url: string;
  /** Who `baton mcp` writes as, and the context its tools default to. */
  agent: string | undefined;
  runtime: string | undefined;
  contextId: string | undefined;
  /** Activity entries per Yjs document. */
  yjsWindow: number;
  /** The embedding provider for semantic search; undefined when off. */
  embeddings: EmbeddingsConfig | undefined;
}

export interface EmbeddingsConfig {
  /** Base URL of an OpenAI-compatible API (POST {url}/embeddings). */
  url: string;
  model: string;
  key: string | undefined;
  dimensions: number | undefined;
}

/** A setting that does not parse; `variable` names it so the CLI can name its flag instead. */
export class ConfigError extends Error {
  readonly variable: string;
  readonly problem: string;

  constructor(variable: string, problem: string) {
    super(`invalid environment: ${variable} ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
    this.problem = problem;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue?.path[0]), issue?.message ?? 'is invalid');
  }
  const e = parsed.data;
  if (e.BATON_EMBEDDINGS_URL && !e.BATON_EMBEDDINGS_MODEL) {
    throw new ConfigError('BATON_EMBEDDINGS_MODEL', 'is required when BATON_EMBEDDINGS_URL is set (e.g. nomic-embed-text)');
  }
  return {
    dataDir: resolve(e.BATON_DATA ?? '.baton'),
    databaseUrl: e.BATON_DB,
    host: e.BATON_HOST,
    port: e.BATON_PORT,
    token: e.BATON_TOKEN,
    bodyLimit: e.BATON_BODY_LIMIT,
    logLevel: e.BATON_LOG_LEVEL,
    url: e.BATON_URL ?? `http://127.0.0.1:${e.BATON_PORT}`,
    agent: e.BATON_AGENT,
    runtime: e.BATON_RUNTIME,
    contextId: e.BATON_CONTEXT,
    yjsWindow: e.BATON_YJS_WINDOW,
    embeddings:
      e.BATON_EMBEDDINGS_URL && e.BATON_EMBEDDINGS_MODEL
        ? {
            url: e.BATON_EMBEDDINGS_URL,
            model: e.BATON_EMBEDDINGS_MODEL,
            key: e.BATON_EMBEDDINGS_KEY,
            dimensions: e.BATON_EMBEDDINGS_DIMENSIONS,
          }
        : undefined,
  };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}
