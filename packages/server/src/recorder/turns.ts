import type { Json, NewEventInput } from '@baton/core';
import { costOf } from './prices.js';
import type { CallMeta, ContentBlockInput, PromptInput, PromptRecord, ResponseRecord, UsageInput } from './types.js';

/** The id of a call's prompt turn. */
export function promptIdOf(callId: string): string {
  return `${callId}.prompt`;
}

/** The id of a call's response turn (an error response too). */
export function responseIdOf(callId: string): string {
  return `${callId}.response`;
}

/** A call's metadata with every default applied and its id chosen. */
export interface ResolvedCall extends Required<Omit<CallMeta, 'callId' | 'metadata' | 'visibility' | 'refs'>> {
  callId: string;
  refs: string[];
  metadata: Record<string, Json>;
  visibility: 'shared' | 'private';
}

export type TurnInput = NewEventInput & { id: string };

export interface BuiltTurn {
  turn: TurnInput;
  /** Approximate serialized size, for batching and the buffer bound. */
  bytes: number;
}

export function buildPrompt(call: ResolvedCall, prompt: PromptInput, maxBytes: number): BuiltTurn {
  const record: PromptRecord = typeof prompt === 'string' || isBlockList(prompt) ? { content: prompt } : prompt;
  return build(call, 'prompt', record.content, { ...call.metadata, ...record.metadata, call: { id: call.callId } }, maxBytes, {
    parentId: call.parentId,
    usage: null,
    error: null,
    model: call.model,
  });
}

export function buildResponse(call: ResolvedCall, record: ResponseRecord, latencyMs: number, maxBytes: number): BuiltTurn {
  const model = record.model ?? call.model;
  return build(call, 'response', record.content, { ...call.metadata, ...record.metadata, call: { id: call.callId, latencyMs } }, maxBytes, {
    parentId: promptIdOf(call.callId),
    usage: usageOf(model, record.usage),
    error: null,
    model,
  });
}

/** The synthetic response of a failed call: what arrived before the failure (if anything), then the failure. */
export function buildErrorResponse(
  call: ResolvedCall,
  error: unknown,
  partial: ResponseRecord | null,
  latencyMs: number,
  maxBytes: number,
): BuiltTurn {
  const failure = describeError(error);
  const before = partial ? toBlocks(partial.content) : [];
  const model = partial?.model ?? call.model;
  return build(
    call,
    'response',
    [...before, { type: 'text', text: `The provider call failed: ${failure.message}` }],
    { ...call.metadata, ...partial?.metadata, call: { id: call.callId, latencyMs } },
    maxBytes,
    { parentId: promptIdOf(call.callId), usage: partial?.usage ? usageOf(model, partial.usage) : null, error: failure, model },
  );
}

function build(
  call: ResolvedCall,
  direction: 'prompt' | 'response',
  content: string | readonly ContentBlockInput[],
  metadata: Record<string, Json>,
  maxBytes: number,
  fields: {
    parentId: string | null;
    usage: NewTurnUsage | null;
    error: { message: string; code: string | null } | null;
    model: string | null;
  },
): BuiltTurn {
  const fitted = fit(toBlocks(content), maxBytes);
  const turn: TurnInput = {
    id: direction === 'prompt' ? promptIdOf(call.callId) : responseIdOf(call.callId),
    kind: 'turn',
    direction,
    phase: call.phase,
    round: call.round,
    speaker: call.speaker,
    provider: call.provider,
    model: fields.model,
    stepId: call.stepId,
    taskId: call.taskId,
    parentId: fields.parentId,
    refs: call.refs,
    content: fitted.blocks,
    metadata: fitted.originalBytes === null ? metadata : { ...metadata, truncated: { originalBytes: fitted.originalBytes } },
    visibility: call.visibility,
    usage: fields.usage,
    error: fields.error,
  };
  return { turn, bytes: fitted.bytes + 512 };
}

interface NewTurnUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}

/** Tokens as reported, and the cost: reported, else priced from the table, else null. */
export function usageOf(model: string | null, usage: UsageInput | null | undefined): NewTurnUsage {
  const inputTokens = count(usage?.inputTokens);
  const outputTokens = count(usage?.outputTokens);
  let costUsd = usage?.costUsd ?? null;
  if (costUsd === null && inputTokens !== null && outputTokens !== null) {
    const cacheRead = count(usage?.cacheReadTokens) ?? 0;
    const cacheWrite = count(usage?.cacheWriteTokens) ?? 0;
    costUsd = costOf(model, { input: Math.max(0, inputTokens - cacheRead - cacheWrite), output: outputTokens, cacheRead, cacheWrite });
  }
  return { inputTokens, outputTokens, costUsd: costUsd !== null && Number.isFinite(costUsd) && costUsd >= 0 ? costUsd : null };
}

function count(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

function isBlockList(value: PromptInput): value is readonly ContentBlockInput[] {
  return Array.isArray(value);
}

function toBlocks(content: string | readonly ContentBlockInput[]): ContentBlockInput[] {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  return [...content];
}

function sizeOf(block: ContentBlockInput): number {
  if (block.type === 'text') return Buffer.byteLength(block.text);
  if (block.type === 'thinking') return Buffer.byteLength(block.thinking);
  return Buffer.byteLength(JSON.stringify(block) ?? '');
}

/**
 * Keeps a turn under `maxBytes` (DESIGN §1: a turn may be 5 MB): text is cut,
 * other blocks that do not fit are replaced by a note, and the turn says how
 * large it was. Recording the first 5 MB beats losing the whole turn.
 */
function fit(blocks: ContentBlockInput[], maxBytes: number): { blocks: ContentBlockInput[]; bytes: number; originalBytes: number | null } {
  const sizes = blocks.map(sizeOf);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total <= maxBytes) return { blocks, bytes: total, originalBytes: null };
  let budget = maxBytes;
  const out: ContentBlockInput[] = [];
  blocks.forEach((block, i) => {
    const size = sizes[i] ?? 0;
    if (size <= budget) {
      out.push(block);
      budget -= size;
    } else if (block.type === 'text' && budget > 1024) {
      out.push({
        type: 'text',
        text: `${Buffer.from(block.text)
          .subarray(0, budget - 64)
          .toString('utf8')}\n[… truncated by the recorder]`,
      });
      budget = 0;
    } else {
      out.push({ type: 'text', text: `[${block.type} block of ${size} bytes omitted by the recorder]` });
    }
  });
  return { blocks: out, bytes: maxBytes, originalBytes: total };
}

/** The failure as a turn stores it: the message, and a code when the error carries one. */
export function describeError(error: unknown): { message: string; code: string | null } {
  if (!(error instanceof Error)) return { message: clip(String(error), 100_000), code: null };
  const e = error as Error & { code?: unknown; status?: unknown; error?: unknown };
  const body = typeof e.error === 'object' && e.error !== null ? (e.error as { type?: unknown; error?: { type?: unknown } }) : undefined;
  const code =
    text(body?.error?.type) ?? text(body?.type) ?? text(e.code) ?? (typeof e.status === 'number' ? `http_${e.status}` : null) ?? e.name;
  return { message: clip(`${e.name}: ${e.message}`, 100_000), code: clip(code, 256) };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}
