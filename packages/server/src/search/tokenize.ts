/**
 * Words for the full-text index, the same in every script and on both stores.
 *
 * FTS5's unicode61 tokenizer and PostgreSQL's parser split on spaces and
 * punctuation, which leaves Chinese and Japanese (no spaces) as one "word"
 * per run of text. So the text is segmented here, with ICU's word breaker
 * (`Intl.Segmenter`, dictionary-based for Han and kana), and normalized:
 * NFKC (full-width forms), lower case, Latin diacritics and Arabic short
 * vowels removed (café = cafe, كَتَبَ = كتب). Other marks stay: the Japanese
 * voicing marks change the word (デ is not テ). The index then only has to
 * split on spaces, which both stores do alike, and a query is normalized the
 * same way, so a phrase matches wherever the same words occur in order.
 */
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

const STRIPPED_MARKS = /[\u0300-\u036f\u064b-\u065f\u0670]/g;
const NON_WORD = /[^\p{L}\p{N}\p{M}]+/u;

/** Longer words (base64, hashes) are cut: a PostgreSQL lexeme must stay under 2 KB. */
const MAX_TOKEN_CHARS = 100;

export function normalizeWord(word: string): string[] {
  // Fast path: plain ASCII letters and digits need only lower-casing (most English and code).
  if (/^[A-Za-z0-9]+$/.test(word))
    return [word.length > MAX_TOKEN_CHARS ? word.slice(0, MAX_TOKEN_CHARS).toLowerCase() : word.toLowerCase()];
  const folded = word.normalize('NFKC').toLowerCase().normalize('NFD').replace(STRIPPED_MARKS, '').normalize('NFC');
  return folded
    .split(NON_WORD)
    .filter((t) => t.length > 0)
    .map((t) => (t.length > MAX_TOKEN_CHARS ? Array.from(t).slice(0, MAX_TOKEN_CHARS).join('') : t));
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[A-Za-z0-9]+/g;

/** The normalized words of `text`, in order. */
export function searchTokens(text: string): string[] {
  // ASCII text (most English, logs and code) skips the ICU word breaker, which
  // costs more than the rest of an append: every segment it yields is cut by
  // normalizeWord into runs of ASCII letters and digits, and the breaker never
  // splits such a run, so those runs are the same tokens.
  if (ASCII_ONLY.test(text)) {
    const words = text.match(ASCII_WORD) ?? [];
    for (let i = 0; i < words.length; i++) {
      const word = words[i] as string;
      words[i] = (word.length > MAX_TOKEN_CHARS ? word.slice(0, MAX_TOKEN_CHARS) : word).toLowerCase();
    }
    return words;
  }
  return segmentedTokens(text);
}

/** searchTokens through the ICU word breaker, for any script. */
export function segmentedTokens(text: string): string[] {
  const out: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) continue;
    for (const token of normalizeWord(segment)) out.push(token);
  }
  return out;
}

/** Word segments of `text` with their offsets, for highlighting. */
export function* wordSegments(text: string): Generator<{ index: number; segment: string; tokens: string[] }> {
  for (const { segment, index, isWordLike } of segmenter.segment(text)) {
    if (isWordLike) yield { index, segment, tokens: normalizeWord(segment) };
  }
}

/**
 * Characters per indexed chunk. A PostgreSQL tsvector must stay under 1 MB
 * and records positions only up to 16,383; 16,000 characters stay below
 * both for any text, and a 5 MB turn becomes ~330 chunks.
 */
export const CHUNK_CHARS = 16_000;
/** Chunks per event (the SQLite key is seq * 1024 + chunk); text past it is not indexed. */
export const MAX_CHUNKS = 1024;

/**
 * `text` cut into chunks of at most `size` characters (at most `max` of them),
 * at whitespace where there is some near the end.
 */
export function chunkText(text: string, size = CHUNK_CHARS, max = MAX_CHUNKS): string[] {
  if (text.length <= size) return [text];
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length && chunks.length < max) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end - 1);
      if (space > start + size / 2) end = space + 1;
      // Never split a surrogate pair.
      else if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1;
    }
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}
