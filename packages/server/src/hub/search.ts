import { BatonError, type Event, parseWith, SearchQuery, type SearchResult } from '@baton/core';
import type { Logger } from '../log.js';
import type { Embedder } from '../search/embedder.js';
import { EmbeddingIndexer, type EmbeddingIndexerOptions } from '../search/embedding-indexer.js';
import { fuseRanks } from '../search/fusion.js';
import { SearchIndexer } from '../search/indexer.js';
import { passageAt } from '../search/passages.js';
import { type ParsedQuery, parseSearchQuery } from '../search/query.js';
import { eventSearchText } from '../search/search-text.js';
import { buildSnippet } from '../search/snippet.js';
import { chunkText } from '../search/tokenize.js';
import type { SearchFilter, SearchHitRow, SearchProgress, Store } from '../store/store.js';
import { authorize, type Caller, viewerKey } from './caller.js';

/**
 * A search catches up with at most this many unindexed events before it
 * runs; beyond that (a large store being backfilled) it answers from what
 * is indexed and says so in `index.complete`.
 */
const CATCH_UP_LIMIT = 10_000;
/** Hybrid search fuses the full-text and the vector top N, N at least this. */
const HYBRID_DEPTH = 50;
/** A search waits this long for its query's embedding, then answers from full text. */
const QUERY_TIMEOUT_MS = 5_000;
/** Query embeddings remembered (a user paging or refining repeats queries). */
const QUERY_CACHE = 256;

export interface HubSearchOptions {
  /** Semantic and hybrid search; off when absent. */
  embedder?: Embedder | undefined;
  log?: Logger | undefined;
  /** Tuning of the background embedding (tests). */
  embedding?: Omit<EmbeddingIndexerOptions, 'log'>;
  queryTimeoutMs?: number;
}

type Filters = Omit<SearchFilter, 'terms' | 'limit'>;
type Hit = SearchResult['hits'][number];

/** Full-text and semantic search for the hub (issue 6): the hub owns it, surfaces call `hub.search`. */
export class HubSearch {
  readonly indexer: SearchIndexer;
  /** Null when the hub has no embedding provider. */
  readonly embeddings: EmbeddingIndexer | null;
  readonly #store: Store;
  readonly #queryTimeoutMs: number;
  readonly #queryVectors = new Map<string, Float32Array>();
  #unsubscribe: (() => void)[] = [];

  constructor(store: Store, options: HubSearchOptions = {}) {
    this.#store = store;
    this.indexer = new SearchIndexer(store);
    this.embeddings = options.embedder
      ? new EmbeddingIndexer(store, options.embedder, { ...options.embedding, ...(options.log ? { log: options.log } : {}) })
      : null;
    this.#queryTimeoutMs = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  }

  /**
   * Follows appends in the background and backfills what predates the index.
   * `baton serve` starts it; without it, each search indexes what it needs
   * (full text; embeddings are only made in the background). `everyAppend`
   * also hears other instances' appends (PostgreSQL), for the embedder.
   */
  startIndexing(onAppend: (listener: () => void) => () => void, everyAppend = onAppend): void {
    if (this.#unsubscribe.length > 0) return;
    this.#unsubscribe.push(onAppend(() => this.indexer.schedule()));
    this.indexer.schedule();
    const embeddings = this.embeddings;
    if (embeddings) {
      this.#unsubscribe.push(everyAppend(() => embeddings.poke()));
      embeddings.start();
    }
  }

  async stopIndexing(): Promise<void> {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
    await this.indexer.stop();
    await this.embeddings?.stop();
  }

  async search(input: unknown, caller: Caller): Promise<SearchResult> {
    authorize(caller, 'read');
    const q = parseWith(SearchQuery, input, 'search query');
    const parsed = parseSearchQuery(q.q);
    const mode = q.mode ?? (this.embeddings ? 'hybrid' : 'text');
    if (mode !== 'text' && !this.embeddings) {
      throw BatonError.invalid(
        [{ path: 'mode', message: `${mode} search needs embeddings, which are off on this hub (set BATON_EMBEDDINGS_URL); use text` }],
        'search query',
      );
    }
    let contextIds = q.context;
    if (contextIds) for (const id of contextIds) authorize(caller, 'read', id);
    else if (caller.contextIds) contextIds = [...caller.contextIds];
    const filters: Filters = {
      ...(contextIds ? { contextIds } : {}),
      ...(q.kind ? { kinds: q.kind } : {}),
      ...(q.type ? { types: q.type } : {}),
      ...(q.actor ? { actorIds: q.actor } : {}),
      ...(q.phase ? { phases: q.phase } : {}),
      ...(q.since ? { sinceMs: Date.parse(q.since) } : {}),
      ...(q.until ? { untilMs: Date.parse(q.until) } : {}),
      viewerKey: viewerKey(caller),
    };
    const none = contextIds?.length === 0;

    if (mode === 'text' || !this.embeddings) {
      const text = await this.#textLeg(parsed, filters, q.limit, none);
      return { ...text, mode, semantic: { status: 'off' } };
    }

    const space = this.embeddings.embedder.space;
    const depth = mode === 'hybrid' ? Math.max(q.limit, HYBRID_DEPTH) : q.limit;
    const [vector, textLeg] = await Promise.all([
      this.#queryVector(q.q).then(
        (v) => ({ v, error: null }),
        (error: unknown) => ({ v: null, error }),
      ),
      mode === 'hybrid' ? this.#textLeg(parsed, filters, depth, none) : null,
    ]);
    const semanticIndex = await this.#semanticIndex();
    if (!vector.v) {
      // The provider failed: answer from full text, and say so.
      const text = textLeg ?? (await this.#textLeg(parsed, filters, q.limit, none));
      const reason = vector.error instanceof Error ? vector.error.message : String(vector.error);
      return {
        ...text,
        hits: text.hits.slice(0, q.limit),
        mode,
        semantic: { status: 'unavailable', reason, index: semanticIndex },
      };
    }
    const nearest = none ? [] : await this.#store.searchVectors({ ...filters, space, vector: vector.v, limit: depth });
    const semantic = { status: 'used' as const, index: semanticIndex };
    if (mode === 'semantic') {
      const progress = await this.#store.searchProgress();
      return {
        hits: nearest.map((row) => semanticHit(row, parsed)),
        terms: parsed.terms,
        index: indexOf(progress),
        mode,
        semantic,
      };
    }
    const text = textLeg as NonNullable<typeof textLeg>;
    const textBySeq = new Map(text.hits.map((h) => [h.event.seq, h]));
    const nearBySeq = new Map(nearest.map((row) => [row.event.seq, row]));
    const fused = fuseRanks([text.hits.map((h) => h.event.seq), nearest.map((row) => row.event.seq)]).slice(0, q.limit);
    const hits = fused.map(({ key, score }) => {
      const textHit = textBySeq.get(key);
      const hit = textHit ?? semanticHit(nearBySeq.get(key) as SearchHitRow, parsed);
      return { ...hit, score };
    });
    return { hits, terms: parsed.terms, index: text.index, mode, semantic };
  }

  async #textLeg(
    parsed: ParsedQuery,
    filters: Filters,
    limit: number,
    none: boolean,
  ): Promise<{ hits: Hit[]; terms: string[][]; index: SearchResult['index'] }> {
    const progress = await this.indexer.catchUp(CATCH_UP_LIMIT);
    const rows = none ? [] : await this.#store.searchEvents({ terms: parsed.terms, ...filters, limit });
    const hits = rows.map(({ event, chunk, score }) => {
      const text = chunkText(eventSearchText(event))[chunk] ?? '';
      return { event, score, chunk, snippet: buildSnippet(text, parsed.words) };
    });
    return { hits, terms: parsed.terms, index: indexOf(progress) };
  }

  async #queryVector(q: string): Promise<Float32Array> {
    const cached = this.#queryVectors.get(q);
    if (cached) {
      this.#queryVectors.delete(q);
      this.#queryVectors.set(q, cached);
      return cached;
    }
    const [vector] = await (this.embeddings as EmbeddingIndexer).embedder.embed([q], { timeoutMs: this.#queryTimeoutMs });
    if (!vector) throw new BatonError('unavailable', 'the embedding provider returned no vector for the query');
    this.#queryVectors.set(q, vector);
    if (this.#queryVectors.size > QUERY_CACHE) this.#queryVectors.delete(this.#queryVectors.keys().next().value as string);
    return vector;
  }

  async #semanticIndex(): Promise<NonNullable<SearchResult['semantic']['index']>> {
    const p = await (this.embeddings as EmbeddingIndexer).progress();
    return { fromSeq: p.fromSeq, indexedSeq: p.indexedSeq, headSeq: p.headSeq, complete: p.fromSeq === 0 && p.indexedSeq >= p.headSeq };
  }
}

function indexOf(progress: SearchProgress): SearchResult['index'] {
  return { indexedSeq: progress.indexedSeq, headSeq: progress.headSeq, complete: progress.indexedSeq >= progress.headSeq };
}

/** A hit found by meaning: its snippet starts where the matched passage does (query words still highlighted). */
function semanticHit(row: SearchHitRow, parsed: ParsedQuery): Hit {
  const event: Event = row.event;
  const passage = passageAt(event, row.chunk);
  return { event, score: row.score, chunk: passage.chunk, snippet: buildSnippet(passage.text, parsed.words) };
}
