import { z } from 'zod';
import { ActivityType, Event, EventKind, NoteType } from './event.js';
import { Id, Name, Timestamp } from './primitives.js';

function csv<T extends z.ZodType<unknown, string>>(item: T) {
  return z
    .string()
    .transform((s) => s.split(',').filter((x) => x.length > 0))
    .pipe(z.array(item).min(1).max(100))
    .optional();
}

/**
 * How hits are found: `text` (full-text index, every word must occur),
 * `semantic` (nearest embeddings by cosine similarity: related meaning, no
 * shared words needed), or `hybrid` (both lists fused by reciprocal rank).
 * Semantic and hybrid need a hub with embeddings (BATON_EMBEDDINGS_URL).
 */
export const SEARCH_MODES = ['text', 'hybrid', 'semantic'] as const;
export const SearchMode = z.enum(SEARCH_MODES);
export type SearchMode = z.infer<typeof SearchMode>;

/** `GET /api/v1/search`: full-text and semantic search over the timeline (issue 6). */
export const SearchQuery = z.strictObject({
  /** Words that must all occur; "quoted words" must occur in this order. Any script. */
  q: z.string().min(1).max(1_000),
  /** Context ids (comma-separated); all readable contexts when left out. */
  context: csv(Id),
  kind: csv(EventKind),
  /** activityType or noteType values. */
  type: csv(z.union([ActivityType, NoteType])),
  /** Actor ids. */
  actor: csv(Name),
  phase: csv(Name),
  since: Timestamp.optional(),
  until: Timestamp.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** `hybrid` by default on a hub with embeddings, else `text`. */
  mode: SearchMode.optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;
export type SearchQueryInput = z.input<typeof SearchQuery>;

export const SearchHit = z.strictObject({
  event: Event,
  /**
   * Higher is better; compare within one result list only. Text: BM25 on
   * SQLite, ts_rank_cd on PostgreSQL. Semantic: cosine similarity. Hybrid:
   * the reciprocal-rank-fusion sum, 1/(60 + rank) per list the hit is in.
   */
  score: z.number(),
  /** About 200 characters around the first match, matched words wrapped in « » (a semantic-only hit: from the start of the passage that matched). */
  snippet: z.string(),
  /** Which chunk of a long event's text matched (0 for most events). */
  chunk: z.number().int().nonnegative(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResult = z.strictObject({
  hits: z.array(SearchHit),
  /** The words searched for, after segmentation and normalization. */
  terms: z.array(z.array(z.string())),
  /** Index progress: hits cover events up to `indexedSeq`; `complete` when that is the newest event. */
  index: z.strictObject({ indexedSeq: z.number().int(), headSeq: z.number().int(), complete: z.boolean() }),
  /** The mode asked for, or the hub's default. */
  mode: SearchMode,
  /**
   * Whether embeddings took part. `off`: text mode (asked for, or the hub has
   * no embeddings). `used`: the vectors ranked these hits. `unavailable`: the
   * embedding provider failed (`reason`), so these are full-text hits only.
   */
  semantic: z.strictObject({
    status: z.enum(['off', 'used', 'unavailable']),
    reason: z.string().optional(),
    /** Vector coverage: events in (fromSeq, indexedSeq] are embedded; `complete` when that is every event. */
    index: z
      .strictObject({ fromSeq: z.number().int(), indexedSeq: z.number().int(), headSeq: z.number().int(), complete: z.boolean() })
      .optional(),
  }),
});
export type SearchResult = z.infer<typeof SearchResult>;
