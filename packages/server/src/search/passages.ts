import type { Event } from '@baton/core';
import { eventSearchText } from './search-text.js';
import { CHUNK_CHARS, chunkText } from './tokenize.js';

/**
 * What gets embedded: an event's searchable text (search-text.ts) cut into
 * passages of at most PASSAGE_CHARS, about 500 tokens of English — inside
 * the window of every common embedding model (512 tokens and up), and short
 * enough that one vector stands for one topic. Only the first MAX_PASSAGES
 * are embedded: the start of a huge tool result says what it is; the rest
 * stays findable through the full-text index, which covers every word.
 */
export const PASSAGE_CHARS = 2_000;
export const MAX_PASSAGES = 8;

/** The passages of an event, by index; blank ones are empty strings (not embedded). */
export function eventPassages(event: Event): string[] {
  return chunkText(eventSearchText(event), PASSAGE_CHARS, MAX_PASSAGES).map((p) => (p.trim() ? p : ''));
}

/** A passage's text and the full-text chunk (tokenize.ts CHUNK_CHARS) where it starts, for a hit's snippet and `chunk`. */
export function passageAt(event: Event, passage: number): { text: string; chunk: number } {
  const text = eventSearchText(event);
  const passages = chunkText(text, PASSAGE_CHARS, MAX_PASSAGES);
  const found = passages[passage] ?? '';
  if (text.length <= CHUNK_CHARS) return { text: found, chunk: 0 };
  let offset = 0;
  for (let i = 0; i < passage && i < passages.length; i++) offset += (passages[i] as string).length;
  let chunk = 0;
  let end = 0;
  for (const piece of chunkText(text)) {
    end += piece.length;
    if (offset < end) break;
    chunk++;
  }
  return { text: found, chunk };
}
