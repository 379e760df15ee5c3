/**
 * What model calls cost, in USD per million tokens, for the models the adapters
 * meet most. This file is the one place to change when a provider changes its
 * prices; a model that is not listed gets `costUsd: null`, never a guess.
 *
 * Taken 2026-11-21 from the providers' published price lists:
 *   - Anthropic: https://platform.claude.com/docs/en/about-claude/pricing and each
 *     model's overview page (base input, 5-minute cache write, cache hit, output).
 *     Sonnet 5.5's cache-hit price is the one in force since 2026-10-07.
 *   - OpenAI: https://developers.openai.com/api/docs/pricing (input, cached input,
 *     output; standard tier). The GPT-5.6 rows are the preview prices OpenAI
 *     announced for Sol, Terra and Luna.
 * Not modelled: batch discounts, priority/fast tiers, regional (`inference_geo`)
 * multipliers, 1-hour cache writes (priced as 5-minute ones), and the >200K-token
 * long-context surcharge of older Sonnet models. Costs are estimates of list price.
 */
export interface ModelPrice {
  /** Uncached input tokens. */
  input: number;
  output: number;
  /** Input tokens read from the prompt cache (Anthropic cache hits, OpenAI cached input). */
  cacheRead?: number;
  /** Input tokens written to the prompt cache (Anthropic only). */
  cacheWrite?: number;
  /** A price band for long prompts: every token of a request whose prompt exceeds `aboveTokens`. */
  longPrompt?: { aboveTokens: number } & Omit<ModelPrice, 'longPrompt'>;
}

export const PRICES_TAKEN_ON = '2026-11-21';

const opus5: ModelPrice = { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 };
const opus4: ModelPrice = { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 };
const sonnet4: ModelPrice = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };

/** Keys are model ids without date suffixes or provider prefixes (see `normalizeModel`). */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  // Anthropic
  'claude-fable-5-1': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 },
  'claude-mythos-5-1': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 },
  'claude-fable-5': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 1 },
  'claude-mythos-5': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 1 },
  'claude-opus-5-5': { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
  'claude-opus-5': opus5,
  'claude-opus-4-8': opus5,
  'claude-opus-4-7': opus5,
  'claude-opus-4-6': opus5,
  'claude-opus-4-5': opus5,
  'claude-opus-4-1': opus4,
  'claude-opus-4': opus4,
  'claude-opus-4-0': opus4,
  'claude-3-opus': opus4,
  'claude-sonnet-5-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 },
  'claude-sonnet-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
  'claude-sonnet-4-6': sonnet4,
  'claude-sonnet-4-5': sonnet4,
  'claude-sonnet-4': sonnet4,
  'claude-sonnet-4-0': sonnet4,
  'claude-3-7-sonnet': sonnet4,
  'claude-3-5-sonnet': sonnet4,
  'claude-haiku-5-5': {
    input: 0.1,
    output: 0.5,
    cacheWrite: 0.125,
    cacheRead: 0.01,
    longPrompt: { aboveTokens: 100_000, input: 0.5, output: 2.5, cacheWrite: 0.625, cacheRead: 0.05 },
  },
  'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 },
  'claude-3-haiku': { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 },
  // OpenAI
  'gpt-5.6-sol': { input: 5, output: 30, cacheRead: 0.5 },
  'gpt-5.6-terra': { input: 2.5, output: 15, cacheRead: 0.25 },
  'gpt-5.6-luna': { input: 1, output: 6, cacheRead: 0.1 },
  'gpt-5.5': { input: 5, output: 30, cacheRead: 0.5 },
  'gpt-5.4': { input: 2.5, output: 15, cacheRead: 0.25 },
  'gpt-5.4-mini': { input: 0.75, output: 4.5, cacheRead: 0.075 },
  'gpt-5.1': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  'o3-mini': { input: 1.1, output: 4.4, cacheRead: 0.55 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
  o1: { input: 15, output: 60, cacheRead: 7.5 },
};

/**
 * The table key for a model id as providers and gateways spell it:
 * `claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`, `anthropic/claude-opus-4-5`,
 * `us.anthropic.claude-haiku-4-5-20251001-v1:0`, `claude-3-5-sonnet-latest`.
 * Only dates, `-latest`, `[1m]`, Bedrock version tails and provider prefixes are
 * removed: `gpt-5-pro` stays itself (and unpriced) rather than being billed as `gpt-5`.
 */
export function normalizeModel(model: string): string {
  let id = model.trim().toLowerCase();
  id = id.slice(id.lastIndexOf('/') + 1);
  id = id.replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '');
  id = id.replace(/\[1m\]$/, '');
  id = id.replace(/-v\d+(?::\d+)?$/, '');
  id = id.replace(/-latest$/, '');
  id = id.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  return id;
}

export function priceOf(model: string | null | undefined): ModelPrice | null {
  if (!model) return null;
  return MODEL_PRICES[normalizeModel(model)] ?? null;
}

/** Token counts as the adapters read them from a provider's usage block. */
export interface TokenCounts {
  /** Uncached input tokens. */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** USD cost of one call, or null when the model is not in the table. */
export function costOf(model: string | null | undefined, tokens: TokenCounts): number | null {
  const base = priceOf(model);
  if (!base) return null;
  const cacheRead = tokens.cacheRead ?? 0;
  const cacheWrite = tokens.cacheWrite ?? 0;
  const prompt = tokens.input + cacheRead + cacheWrite;
  const price = base.longPrompt && prompt > base.longPrompt.aboveTokens ? base.longPrompt : base;
  const micro =
    tokens.input * price.input +
    tokens.output * price.output +
    cacheRead * (price.cacheRead ?? price.input) +
    cacheWrite * (price.cacheWrite ?? price.input);
  // Prices are per million tokens; round to a millionth of a cent so sums stay readable.
  return Math.round(micro * 100) / 1e8;
}
