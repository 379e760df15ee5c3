import { parseWith, SearchQuery, type SearchResult } from '@baton/core';
import { SearchIndexer } from '../search/indexer.js';
import { parseSearchQuery } from '../search/query.js';
import { eventSearchText } from '../search/search-text.js';
import { buildSnippet } from '../search/snippet.js';
import { chunkText } from '../search/tokenize.js';
import type { Store } from '../store/store.js';
import { authorize, type Caller, viewerKey } from './caller.js';

/**
 * A search catches up with at most this many unindexed events before it
 * runs; beyond that (a large store being backfilled) it answers from what
 * is indexed and says so in `index.complete`.
 */
const CATCH_UP_LIMIT = 10_000;

/** Full-text search for the hub (issue 6): the hub owns it, surfaces call `hub.search`. */
export class HubSearch {
  readonly indexer: SearchIndexer;
  readonly #store: Store;
  #unsubscribe: (() => void) | null = null;

  constructor(store: Store) {
    this.#store = store;
    this.indexer = new SearchIndexer(store);
  }

  /**
   * Follows appends in the background and backfills what predates the index.
   * `baton serve` starts it; without it, each search indexes what it needs.
   */
  startIndexing(onAppend: (listener: () => void) => () => void): void {
    if (this.#unsubscribe) return;
    this.#unsubscribe = onAppend(() => this.indexer.schedule());
    this.indexer.schedule();
  }

  async stopIndexing(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    await this.indexer.stop();
  }

  async search(input: unknown, caller: Caller): Promise<SearchResult> {
    authorize(caller, 'read');
    const q = parseWith(SearchQuery, input, 'search query');
    const parsed = parseSearchQuery(q.q);
    let contextIds = q.context;
    if (contextIds) for (const id of contextIds) authorize(caller, 'read', id);
    else if (caller.contextIds) contextIds = [...caller.contextIds];
    const progress = await this.indexer.catchUp(CATCH_UP_LIMIT);
    const rows =
      contextIds?.length === 0
        ? []
        : await this.#store.searchEvents({
            terms: parsed.terms,
            ...(contextIds ? { contextIds } : {}),
            ...(q.kind ? { kinds: q.kind } : {}),
            ...(q.type ? { types: q.type } : {}),
            ...(q.actor ? { actorIds: q.actor } : {}),
            ...(q.phase ? { phases: q.phase } : {}),
            ...(q.since ? { sinceMs: Date.parse(q.since) } : {}),
            ...(q.until ? { untilMs: Date.parse(q.until) } : {}),
            viewerKey: viewerKey(caller),
            limit: q.limit,
          });
    const hits = rows.map(({ event, chunk, score }) => {
      const text = chunkText(eventSearchText(event))[chunk] ?? '';
      return { event, score, chunk, snippet: buildSnippet(text, parsed.words) };
    });
    return {
      hits,
      terms: parsed.terms,
      index: { indexedSeq: progress.indexedSeq, headSeq: progress.headSeq, complete: progress.indexedSeq >= progress.headSeq },
    };
  }
}
