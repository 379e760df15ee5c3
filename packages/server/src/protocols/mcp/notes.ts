import { type LiveFilter, matchesFilter, type NoteEvent, type NoteType, type Urgency } from '@baton/core';
import type { McpBackend } from './backend.js';

export interface NoteQuery {
  scope?: NoteEvent['scope'] | undefined;
  type?: NoteType | undefined;
  minUrgency?: Urgency | undefined;
  tags?: string[] | undefined;
  since?: string | undefined;
  limit: number;
}

const PAGE = 500;
/** Notes examined per call at most, so a filter that matches nothing stays cheap. */
const MAX_SCAN = 20_000;

/**
 * The most recent notes of a context that match, in seq order, never an
 * expired one. The timeline is read backwards page by page; scope, urgency
 * and tags are matched here with the live feed's own filter, so a note that
 * would reach a subscriber is the note this returns.
 */
export async function findNotes(
  backend: McpBackend,
  contextId: string,
  query: NoteQuery,
  now = Date.now(),
): Promise<{ notes: NoteEvent[]; hasMore: boolean }> {
  const filter: LiveFilter = {
    ...(query.scope ? { scopes: [query.scope] } : {}),
    ...(query.minUrgency ? { minUrgency: query.minUrgency } : {}),
    ...(query.tags ? { tags: query.tags } : {}),
  };
  const found: NoteEvent[] = [];
  let before: number | undefined;
  for (let scanned = 0; scanned < MAX_SCAN; scanned += PAGE) {
    const page = await backend.listEvents(contextId, {
      kind: 'note',
      tail: PAGE,
      ...(query.type ? { noteType: query.type } : {}),
      ...(query.since ? { since: query.since } : {}),
      ...(before !== undefined ? { before } : {}),
    });
    for (const event of page.events.toReversed()) {
      if (event.kind !== 'note' || !matchesFilter(filter, event)) continue;
      if (event.expiresAt !== null && Date.parse(event.expiresAt) <= now) continue;
      found.push(event);
      if (found.length > query.limit) return { notes: found.slice(0, query.limit).reverse(), hasMore: true };
    }
    if (!page.hasMore || page.prevBefore === null) return { notes: found.reverse(), hasMore: false };
    before = page.prevBefore;
  }
  // Gave up scanning: older matches may exist.
  return { notes: found.reverse(), hasMore: true };
}
