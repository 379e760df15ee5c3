import { wordSegments } from './tokenize.js';

/** Marks around each matched word in a snippet. Plain characters, safe in JSON, terminals and markdown alike. */
export const HIGHLIGHT_OPEN = '«';
export const HIGHLIGHT_CLOSE = '»';

/**
 * About `width` characters of `text` around the first matched word, each
 * word whose normalized form is one of `words` wrapped in «…», with "…" where
 * the text was cut. Matching uses the same segmentation as the index, so
 * what is highlighted is what matched.
 */
export function buildSnippet(text: string, words: ReadonlySet<string>, width = 200): string {
  const marks: { start: number; end: number }[] = [];
  for (const { index, segment, tokens } of wordSegments(text)) {
    if (tokens.some((t) => words.has(t))) marks.push({ start: index, end: index + segment.length });
  }
  const first = marks[0]?.start ?? 0;
  let start = Math.max(0, first - Math.floor(width / 3));
  // Start at a word boundary when one is near.
  const space = text.lastIndexOf(' ', first);
  if (start > 0 && space >= start && space - start < width / 3) start = space + 1;
  if (/[\udc00-\udfff]/.test(text.charAt(start))) start -= 1;
  let end = Math.min(text.length, start + width);
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1;
  for (const mark of marks) {
    if (mark.start < end && mark.end > end) end = mark.end;
  }

  let out = start > 0 ? '…' : '';
  let at = start;
  for (const mark of marks) {
    if (mark.start < start || mark.start >= end) continue;
    out += text.slice(at, mark.start) + HIGHLIGHT_OPEN + text.slice(mark.start, mark.end) + HIGHLIGHT_CLOSE;
    at = mark.end;
  }
  out += text.slice(at, end);
  if (end < text.length) out += '…';
  return out.replace(/\s+/g, ' ').trim();
}
