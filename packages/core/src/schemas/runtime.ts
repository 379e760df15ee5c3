import { z } from 'zod';
import { CONTEXT_FORMATS } from '../handoff/shared-items.js';
import { Id, Label, Name, Timestamp } from './primitives.js';

/**
 * Runtimes and their capability matrix (reference/002 question 3, option B):
 * each runtime declares, per abstract capability, whether it has it natively,
 * reaches it through an API, or lacks it. A task names the capabilities it
 * needs (`requiredCapabilities`); only runtimes that have all of them,
 * natively or via an API, may take it.
 */
export const CAPABILITY_SUPPORT = ['native', 'via-api', 'unavailable'] as const;
export const CapabilitySupport = z.enum(CAPABILITY_SUPPORT);
export type CapabilitySupport = z.infer<typeof CapabilitySupport>;

export const ContextFormat = z.enum(CONTEXT_FORMATS);

export const Runtime = z.strictObject({
  /** The runtime's name as actors carry it (`claude-code`, `codex`, `openclaw`). */
  id: Id,
  name: Label.nullable(),
  /** How shared context is rendered for it. */
  format: ContextFormat,
  capabilities: z.record(Name, CapabilitySupport),
  registeredAt: Timestamp,
  updatedAt: Timestamp,
});
export type Runtime = z.infer<typeof Runtime>;

export const NewRuntime = z.strictObject({
  id: Id,
  name: Label.nullable().default(null),
  format: ContextFormat.optional(),
  capabilities: z
    .record(Name, CapabilitySupport)
    .refine((c) => Object.keys(c).length <= 256, 'at most 256 capabilities')
    .default({}),
});
export type NewRuntimeInput = z.input<typeof NewRuntime>;

const CHAT_RUNTIMES = new Set(['openclaw', 'telegram', 'slack', 'discord', 'whatsapp', 'chat']);
const PROGRAM_RUNTIMES = new Set(['web', 'ui', 'api', 'program', 'pipeline']);

/** The rendering a runtime gets when it has not registered one: chat → text, programs → JSON, else markdown. */
export function defaultFormat(runtime: string | null | undefined): z.infer<typeof ContextFormat> {
  if (!runtime) return 'markdown';
  if (CHAT_RUNTIMES.has(runtime)) return 'text';
  if (PROGRAM_RUNTIMES.has(runtime)) return 'json';
  return 'markdown';
}

export interface CapabilityMatch {
  runtime: string;
  /** True when every required capability is native or via-api. */
  capable: boolean;
  native: string[];
  viaApi: string[];
  missing: string[];
}

export function matchCapabilities(runtime: Pick<Runtime, 'id' | 'capabilities'>, required: readonly string[]): CapabilityMatch {
  const native: string[] = [];
  const viaApi: string[] = [];
  const missing: string[] = [];
  for (const capability of new Set(required)) {
    const support = runtime.capabilities[capability] ?? 'unavailable';
    (support === 'native' ? native : support === 'via-api' ? viaApi : missing).push(capability);
  }
  return { runtime: runtime.id, capable: missing.length === 0, native, viaApi, missing };
}

/** Capable runtimes first, preferring native support over via-api (which adds a hop). */
export function rankMatches(matches: readonly CapabilityMatch[]): CapabilityMatch[] {
  return [...matches].sort(
    (a, b) =>
      Number(b.capable) - Number(a.capable) ||
      a.missing.length - b.missing.length ||
      a.viaApi.length - b.viaApi.length ||
      a.runtime.localeCompare(b.runtime),
  );
}
