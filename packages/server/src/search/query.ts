import { BatonError } from '@baton/core';
import { searchTokens } from './tokenize.js';

/** At most this many terms per query: each one is a posting-list intersection. */
const MAX_TERMS = 32;

/**
 * A search query: terms that must all occur, each a phrase of one or more
 * normalized words that must occur in order. `"shared context"` is one
 * phrase; `データベースの移行` is one term whose words (データベース, の,
 * 移行) form a phrase, because a query typed without spaces is a phrase.
 */
export interface ParsedQuery {
  terms: string[][];
  /** Every word of every term, for highlighting. */
  words: ReadonlySet<string>;
}

export function parseSearchQuery(q: string): ParsedQuery {
  const terms: string[][] = [];
  for (const match of q.matchAll(/"([^"]*)"|(\S+)/g)) {
    const tokens = searchTokens(match[1] ?? match[2] ?? '');
    if (tokens.length > 0) terms.push(tokens);
  }
  if (terms.length === 0) {
    throw BatonError.invalid([{ path: 'q', message: 'must contain at least one letter or digit' }], 'search query');
  }
  if (terms.length > MAX_TERMS) {
    throw BatonError.invalid([{ path: 'q', message: `at most ${MAX_TERMS} terms` }], 'search query');
  }
  return { terms, words: new Set(terms.flat()) };
}
