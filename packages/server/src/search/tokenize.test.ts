import { describe, expect, it } from 'vitest';
import { searchTokens, segmentedTokens } from './tokenize.js';

const PIECES = [
  'word',
  'Word',
  'WORD',
  'x',
  '42',
  '3.14',
  "don't",
  'foo_bar',
  'a-b',
  'src/auth.ts',
  'e.g.',
  'v1.2.3',
  '#123',
  '@user',
  'http://example.test/a?b=c',
  '\t',
  '\n',
  ' ',
  '  ',
  '.',
  ',',
  '...',
  '"',
  "'",
  '(',
  ')',
  '$',
  '%',
  '1,000',
  'A1b2C3',
  'x'.repeat(150),
  '9'.repeat(120),
  '__init__',
  'can’t'.replace('’', "'"),
  '--flag',
  'a.b.c',
  '0x1F',
  'CamelCase',
  '',
];

describe('searchTokens', () => {
  it('gives the ICU word breaker’s tokens for ASCII text, without running it', () => {
    // 3,000 texts, each a different mix of the pieces, joined with and without spaces.
    for (let n = 0; n < 3000; n++) {
      const parts = Array.from({ length: 1 + (n % 30) }, (_, k) => PIECES[(n * 7919 + k * 104_729) % PIECES.length] as string);
      const text = parts.join(n % 2 ? ' ' : '');
      expect(searchTokens(text), JSON.stringify(text)).toEqual(segmentedTokens(text));
    }
  });

  it('segments and normalizes other scripts', () => {
    expect(searchTokens('本番データベースの移行')).toEqual(segmentedTokens('本番データベースの移行'));
    expect(searchTokens('Café au LAIT')).toEqual(['cafe', 'au', 'lait']);
    expect(searchTokens('Refactored auth.ts: 3 tests fixed')).toEqual(['refactored', 'auth', 'ts', '3', 'tests', 'fixed']);
  });
});
