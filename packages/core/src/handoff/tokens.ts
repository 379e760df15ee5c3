import { countTokens as countO200k, decode, encode } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Token counting for budgets. One real BPE vocabulary, o200k_base (the
 * GPT-4o / o-series encoding): a budget is a promise about what a model will
 * be charged, so an estimate ("4 characters a token") is not good enough.
 * Other models' tokenizers differ by a few percent; callers that need a hard
 * limit for another vocabulary should leave that much headroom.
 */
export const TOKENIZER = 'o200k_base';

export function encodeTokens(text: string): number[] {
  return encode(text);
}

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200k(text);
}

/**
 * `text` cut to at most `maxTokens` tokens, including a visible marker that
 * says how much was cut. Returns the text unchanged when it fits.
 */
export function truncateToTokens(
  text: string,
  maxTokens: number,
  encoded?: readonly number[],
): { text: string; tokens: number; truncated: boolean } {
  const tokens = encoded ?? encode(text);
  if (tokens.length <= maxTokens) return { text, tokens: tokens.length, truncated: false };
  for (let keep = Math.max(0, maxTokens - 12); keep >= 0; keep = keep > 8 ? keep - 8 : keep - 1) {
    const marker = ` … [truncated: ${tokens.length - keep} more tokens]`;
    const cut = `${decode(tokens.slice(0, keep)).replace(/\uFFFD+$/, '')}${marker}`;
    const count = countTokens(cut);
    if (count <= maxTokens) return { text: cut, tokens: count, truncated: true };
  }
  return { text: '', tokens: 0, truncated: true };
}
