import { describe, expect, it } from 'vitest';
import { costOf, MODEL_PRICES, normalizeModel, priceOf } from './prices.js';

describe('the price table', () => {
  it('finds a model however providers and gateways spell it', () => {
    expect(normalizeModel('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(normalizeModel('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(normalizeModel('anthropic/claude-opus-4-5')).toBe('claude-opus-4-5');
    expect(normalizeModel('us.anthropic.claude-haiku-4-5-20251001-v1:0')).toBe('claude-haiku-4-5');
    expect(normalizeModel('claude-3-5-sonnet-latest')).toBe('claude-3-5-sonnet');
    expect(normalizeModel('claude-sonnet-5-5[1m]')).toBe('claude-sonnet-5-5');
    expect(normalizeModel('GPT-4.1-Mini')).toBe('gpt-4.1-mini');
  });

  it('never bills a variant at its base model’s price', () => {
    expect(priceOf('gpt-5-pro')).toBeNull();
    expect(priceOf('o3-deep-research')).toBeNull();
    expect(priceOf('gpt-4o-audio-preview')).toBeNull();
    expect(priceOf('gpt-5')).toEqual(MODEL_PRICES['gpt-5']);
  });

  it('prices input, output, cache reads and cache writes per million tokens', () => {
    expect(costOf('claude-sonnet-4-6', { input: 1_000_000, output: 0 })).toBe(3);
    expect(costOf('claude-sonnet-4-6', { input: 0, output: 1_000_000 })).toBe(15);
    expect(costOf('claude-sonnet-4-6', { input: 0, output: 0, cacheRead: 1_000_000, cacheWrite: 1_000_000 })).toBe(0.3 + 3.75);
    expect(costOf('gpt-4.1', { input: 800, output: 120, cacheRead: 1200 })).toBe(0.00316);
  });

  it('switches to the long-prompt band past its threshold, for every token of the request', () => {
    expect(costOf('claude-haiku-5-5', { input: 100_000, output: 1000 })).toBe((100_000 * 0.1 + 1000 * 0.5) / 1e6);
    expect(costOf('claude-haiku-5-5', { input: 100_001, output: 1000 })).toBe((100_001 * 0.5 + 1000 * 2.5) / 1e6);
  });

  it('returns null for a model it does not list, or no model', () => {
    expect(costOf('my-fine-tune', { input: 10, output: 10 })).toBeNull();
    expect(costOf(null, { input: 10, output: 10 })).toBeNull();
  });
});
