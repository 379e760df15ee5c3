import type { Event } from '@baton/core';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { rowToEvent } from './rows.js';
import type { Database, EventsTable } from './schema.js';
import type { SearchDocument, SearchFilter, SearchHitRow, SearchProgress, Store } from './store.js';

/**
 * The full-text index (migration 004): FTS5 on SQLite, a tsvector table on
 * PostgreSQL. Both hold words already segmented and normalized by the
 * indexer, and queries arrive as the same words, so neither store's own
 * tokenizer decides anything: FTS5 splits on the spaces we put in, and
 * PostgreSQL gets tsvector and tsquery literals, never its parser.
 *
 * Scores: higher is better on both. SQLite reports BM25 (FTS5's bm25(),
 * negated: FTS5 returns lower-is-better); PostgreSQL reports ts_rank_cd
 * (cover density, which rewards words found close together). Scores order
 * the hits of one query; they are not comparable across stores or queries.
 */
type Db = Kysely<Database>;

/** Chunks per event in the SQLite key `seq * 1024 + chunk`. */
const CHUNK_BITS = 10;
const ROWS_PER_INSERT = 200;

export const EVENT_SELECT = sql.raw(
  'e.seq, e.id, e.context_id, e.kind, e.type, e.direction, e.phase, e.round, e.step_id, e.actor_id, e.task_id, e.parent_id, e.created_at, e.body, e.projection',
);

function fts5Match(terms: readonly (readonly string[])[]): string {
  return terms.map((words) => `"${words.join(' ')}"`).join(' AND ');
}

function tsqueryLiteral(terms: readonly (readonly string[])[]): string {
  return terms.map((words) => `(${words.map((w) => `'${w}'`).join(' <-> ')})`).join(' & ');
}

/** A tsvector literal with positions (1-based; PostgreSQL caps them at 16,383 and keeps 256 per word). */
function tsvectorLiteral(tokens: readonly string[]): string {
  const positions = new Map<string, number[]>();
  tokens.forEach((token, i) => {
    const list = positions.get(token);
    const pos = Math.min(i + 1, 16_383);
    if (!list) positions.set(token, [pos]);
    else if (list.length < 256) list.push(pos);
  });
  return Array.from(positions, ([token, list]) => `'${token}':${list.join(',')}`).join(' ');
}

/** SQL conditions on `e` (events) for a search's filters; shared with vector search. */
export function filters(f: Omit<SearchFilter, 'terms' | 'limit'>): RawBuilder<unknown>[] {
  const out: RawBuilder<unknown>[] = [];
  const list = (values: readonly (string | number)[]) => sql.join(values.map((v) => sql`${v}`));
  if (f.contextIds?.length) out.push(sql`e.context_id IN (${list(f.contextIds)})`);
  if (f.kinds?.length) out.push(sql`e.kind IN (${list(f.kinds)})`);
  if (f.types?.length) out.push(sql`e.type IN (${list(f.types)})`);
  if (f.actorIds?.length) out.push(sql`e.actor_id IN (${list(f.actorIds)})`);
  if (f.phases?.length) out.push(sql`e.phase IN (${list(f.phases)})`);
  if (f.sinceMs !== undefined) out.push(sql`e.created_at >= ${f.sinceMs}`);
  if (f.untilMs !== undefined) out.push(sql`e.created_at < ${f.untilMs}`);
  if (f.viewerKey !== null) out.push(sql`(e.private_to IS NULL OR e.private_to = ${f.viewerKey})`);
  return out;
}

type HitRow = Omit<EventsTable, 'private_to'> & { chunk: number | string; score: number | string };

/**
 * On SQLite, a query matching more than this many chunks is first ranked
 * among its newest RANK_WINDOW matches: BM25 must score every match before
 * the best 20 are known, and a word in 8% of a million turns takes ~300 ms
 * to rank in full. If the window does not yield a full page (filters, private
 * events), the query is ranked in full.
 */
const RANK_WINDOW = 5_000;

export async function searchEvents(db: Db, dialect: Store['dialect'], f: SearchFilter): Promise<SearchHitRow[]> {
  const where = filters(f);
  // Several chunks of one event may match; fetch extra rows and keep each event's best chunk.
  const fetch = f.limit * 2;
  const and = where.length ? sql`AND ${sql.join(where, sql` AND `)}` : sql``;
  if (dialect === 'sqlite') {
    const match = fts5Match(f.terms);
    const query = (window: boolean) => sql<HitRow>`
      SELECT ${EVENT_SELECT}, (event_search.rowid & 1023) AS chunk, -bm25(event_search) AS score
      FROM event_search JOIN events e ON e.seq = (event_search.rowid >> ${CHUNK_BITS})
      WHERE event_search MATCH ${match}
      ${
        window
          ? sql`AND event_search.rowid >= coalesce((SELECT rowid FROM event_search WHERE event_search MATCH ${match} ORDER BY rowid DESC LIMIT 1 OFFSET ${RANK_WINDOW - 1}), 0)`
          : sql``
      }
      ${and}
      ORDER BY bm25(event_search), e.seq DESC LIMIT ${fetch}`;
    const windowed = distinctHits((await query(true).execute(db)).rows, f.limit);
    if (windowed.length === f.limit) return windowed;
    return distinctHits((await query(false).execute(db)).rows, f.limit);
  }
  const rows = await sql<HitRow>`
    SELECT ${EVENT_SELECT}, s.chunk, ts_rank_cd(s.tsv, q.q) AS score
    FROM event_search s JOIN events e ON e.seq = s.seq CROSS JOIN (SELECT ${tsqueryLiteral(f.terms)}::tsquery AS q) q
    WHERE s.tsv @@ q.q ${and}
    ORDER BY score DESC, e.seq DESC LIMIT ${fetch}`.execute(db);
  return distinctHits(rows.rows, f.limit);
}

function distinctHits(rows: readonly HitRow[], limit: number): SearchHitRow[] {
  const seen = new Set<number>();
  const hits: SearchHitRow[] = [];
  for (const row of rows) {
    const seq = Number(row.seq);
    if (seen.has(seq)) continue;
    seen.add(seq);
    const event: Event = rowToEvent(row);
    hits.push({ event, chunk: Number(row.chunk), score: Number(row.score) });
    if (hits.length === limit) break;
  }
  return hits;
}

export async function searchProgress(db: Db): Promise<SearchProgress> {
  const rows = await db.selectFrom('counters').select(['name', 'value']).where('name', 'in', ['events', 'search']).execute();
  const value = (name: string) => Number(rows.find((r) => r.name === name)?.value ?? 0);
  return { indexedSeq: value('search'), headSeq: value('events') };
}

/**
 * Adds the documents above the current watermark and moves it to `upToSeq`.
 * Taking the watermark row first serializes indexers (PostgreSQL: several
 * instances may index at once); documents another indexer already added are
 * skipped, so indexing twice is harmless.
 */
export async function indexEvents(trx: Db, dialect: Store['dialect'], docs: readonly SearchDocument[], upToSeq: number): Promise<number> {
  const mark = await trx
    .updateTable('counters')
    .set({ value: sql`value` })
    .where('name', '=', 'search')
    .returning('value')
    .executeTakeFirstOrThrow();
  const watermark = Number(mark.value);
  const fresh = docs.filter((d) => d.seq > watermark);
  const rows = fresh.flatMap((d) => d.chunks.map((tokens, chunk) => ({ seq: d.seq, chunk, tokens })).filter((r) => r.tokens.length > 0));
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const batch = rows.slice(i, i + ROWS_PER_INSERT);
    if (dialect === 'sqlite') {
      const values = batch.map((r) => sql`(${r.seq * 1024 + r.chunk}, ${r.tokens.join(' ')})`);
      await sql`INSERT INTO event_search (rowid, tokens) VALUES ${sql.join(values)}`.execute(trx);
    } else {
      const values = batch.map((r) => sql`(${r.seq}, ${r.chunk}, ${tsvectorLiteral(r.tokens)}::tsvector)`);
      await sql`INSERT INTO event_search (seq, chunk, tsv) VALUES ${sql.join(values)} ON CONFLICT DO NOTHING`.execute(trx);
    }
  }
  if (upToSeq > watermark) await trx.updateTable('counters').set({ value: upToSeq }).where('name', '=', 'search').execute();
  return rows.length;
}
