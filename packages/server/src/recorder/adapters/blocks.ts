import { ContentBlock, type Json } from '@baton/core';
import type { ContentBlockInput } from '../types.js';
import { toJson } from './api-call.js';

/** A loosely typed object from an SDK request or response: the adapters read wire shapes, never trust them. */
export type Wire = Record<string, unknown>;

export function obj(value: unknown): Wire {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Wire) : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function strOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function int(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Tool-call arguments arrive as JSON text; kept as text when they are not JSON (a truncated stream). */
export function parseArguments(text: string): Json {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

/**
 * Keeps a converted block when it satisfies the shared schema, else stores
 * what the provider sent as a `data` block: an odd block never costs the turn.
 */
export function checked(block: ContentBlockInput, original: unknown): ContentBlockInput {
  return ContentBlock.safeParse(block).success ? block : { type: 'data', data: toJson(original) };
}

/** `data:image/png;base64,....` as an image block; any other URL as a link. */
export function imageFromUrl(url: string, mediaType?: string): ContentBlockInput {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (match) return { type: 'image', mediaType: match[1] as string, data: match[2] as string };
  return { type: 'image', mediaType: mediaType ?? 'image/*', uri: url };
}

/** Text blocks under a role, and where each role's blocks start: the prompt's structure survives flattening. */
export class PromptBuilder {
  readonly blocks: ContentBlockInput[] = [];
  readonly layout: { role: string; blocks: number }[] = [];

  add(role: string, blocks: readonly ContentBlockInput[]): void {
    if (blocks.length === 0) return;
    this.blocks.push(...blocks);
    this.layout.push({ role, blocks: blocks.length });
  }
}
