import { z } from 'zod';
import { CONTEXT_FORMATS, SHARED_SECTIONS } from '../handoff/shared-items.js';
import { Name } from './primitives.js';

/** `GET /api/v1/contexts/:id/shared` (DESIGN §4). */
export const SharedContextQuery = z.strictObject({
  /** Whose rendering: a registered runtime's format, else markdown for coding agents, text for chat, JSON for programs. */
  runtime: Name.optional(),
  tokenBudget: z.coerce.number().int().min(0).max(200_000).default(4_000),
  /** Overrides the runtime's rendering. */
  format: z.enum(CONTEXT_FORMATS).optional(),
});
export type SharedContextQueryInput = z.input<typeof SharedContextQuery>;

export const SharedItemSchema = z.object({
  section: z.enum(SHARED_SECTIONS),
  rank: z.number().int(),
  id: z.string().nullable(),
  title: z.string(),
  detail: z.string(),
  label: z.string().nullable(),
  by: z.string().nullable(),
  at: z.string().nullable(),
});

export const SharedContextResponse = z.object({
  contextId: z.string(),
  title: z.string(),
  runtime: z.string().nullable(),
  format: z.enum(CONTEXT_FORMATS),
  tokenBudget: z.number().int(),
  totalTokens: z.number().int(),
  tokenizer: z.string(),
  identity: z.array(SharedItemSchema),
  currentFocus: z.array(SharedItemSchema),
  blockedItems: z.array(SharedItemSchema),
  recentDecisions: z.array(SharedItemSchema),
  activeTasks: z.array(SharedItemSchema),
  recentInteractionSummaries: z.array(SharedItemSchema),
  omitted: z.record(z.string(), z.number().int()),
  truncated: z.number().int(),
  rendering: z.string(),
});
