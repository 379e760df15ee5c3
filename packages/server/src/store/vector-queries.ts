import { type Kysely, sql } from 'kysely';
import { rowToEvent } from './rows.js';
import type { Database, EventsTable } from './schema.js';
import { EVENT_SELECT, filters } from './search-queries.js';
import type { EmbeddingProgress, EventVector, SearchHitRow, VectorSearchFilter } from './store.js';

/**
 * Vectors beside the events (migration 005). Neither store has a vector
 * index here (Debian's PostgreSQL has no pgvector; SQLite none at all), so a
 * vector search reads every vector of the space that passes the filters, a
 * window of seqs at a time, and scores them in JavaScript: a dot product, since stored
 * vectors have unit length. That is linear in the vectors scanned: on the
 * 2-core machine this was built on, SQLite scans 50,000 768-dimension
 * passages (150 MB of vectors) in about 0.3 s, ~6 ms per 1,000; filters that
 * narrow the events (a context, a kind) narrow the scan. Past a few hundred
 * thousand passages a vector index is the answer (pgvector, sqlite-vec).
 */
type Db = Kysely<Database>;

/** Seqs per scan query: at most ~6 MB of 768-dimension vectors when every event has a passage. */
const SCAN_WINDOW = 2_048;
const ROWS_PER_INSERT = 200;

/** The float32 view of a stored vector (copied only when the bytes are not 4-aligned). */
export function decodeVector(bytes: Uint8Array): Float32Array {
  const length = bytes.byteLength >> 2;
  if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, length);
  return new Float32Array(bytes.slice(0, length * 4).buffer);
}

export function encodeVector(vector: Float32Array): Uint8Array {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

interface VectorRow {
  seq: number | string;
  chunk: number;
  vector: Uint8Array;
}

interface Scored {
  seq: number;
  chunk: number;
  score: number;
}

/** The best `limit` events, best first; ties go to the newer event. */
class TopEvents {
  readonly items: Scored[] = [];
  constructor(readonly limit: number) {}

  offer(item: Scored): void {
    const items = this.items;
    const last = items.at(-1);
    if (items.length === this.limit && last && !before(item, last)) return;
    let at = items.length;
    while (at > 0 && before(item, items[at - 1] as Scored)) at--;
    items.splice(at, 0, item);
    if (items.length > this.limit) items.pop();
  }
}

const before = (a: Scored, b: Scored) => a.score > b.score || (a.score === b.score && a.seq > b.seq);

export async function searchVectors(db: Db, f: VectorSearchFilter): Promise<SearchHitRow[]> {
  const where = filters(f);
  const and = where.length ? sql`AND ${sql.join(where, sql` AND `)}` : sql``;
  const top = new TopEvents(f.limit);
  const dims = f.vector.length;
  // Only the seqs the space covers hold its vectors: a store whose embeddings
  // are still being backfilled is not scanned where there are none yet.
  const covered = await db.selectFrom('embedding_spaces').select(['low_seq', 'high_seq']).where('space', '=', f.space).executeTakeFirst();
  const low = Number(covered?.low_seq ?? 0);
  // Windows of seqs, newest first: each an index range, with no sort (a
  // filter that drives the join by context would otherwise sort every page).
  for (let upTo = Number(covered?.high_seq ?? 0); upTo > low; upTo -= SCAN_WINDOW) {
    const { rows }: { rows: VectorRow[] } = await sql<VectorRow>`
      SELECT v.seq, v.chunk, v.vector FROM event_vectors v JOIN events e ON e.seq = v.seq
      WHERE v.space = ${f.space} AND v.seq > ${upTo - SCAN_WINDOW} AND v.seq <= ${upTo}
        AND e.seq > ${upTo - SCAN_WINDOW} AND e.seq <= ${upTo} ${and}`.execute(db);
    const best = new Map<number, Scored>();
    for (const row of rows) {
      if (row.vector.byteLength !== dims * 4) continue;
      const seq = Number(row.seq);
      const score = dot(f.vector, decodeVector(row.vector));
      const seen = best.get(seq);
      if (!seen) best.set(seq, { seq, chunk: row.chunk, score });
      else if (score > seen.score) {
        seen.chunk = row.chunk;
        seen.score = score;
      }
    }
    for (const item of best.values()) top.offer(item);
  }
  if (top.items.length === 0) return [];
  const seqs = top.items.map((i) => i.seq);
  const { rows } = await sql<Omit<EventsTable, 'private_to'>>`
    SELECT ${EVENT_SELECT} FROM events e WHERE e.seq IN (${sql.join(seqs)})`.execute(db);
  const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
  const hits: SearchHitRow[] = [];
  for (const item of top.items) {
    const row = bySeq.get(item.seq);
    // A context deleted between the two reads takes its events with it.
    if (row) hits.push({ event: rowToEvent(row), chunk: item.chunk, score: item.score });
  }
  return hits;
}

async function headSeq(db: Db): Promise<number> {
  const row = await db.selectFrom('counters').select('value').where('name', '=', 'events').executeTakeFirst();
  return Number(row?.value ?? 0);
}

export async function embeddingProgress(db: Db, space: string): Promise<EmbeddingProgress> {
  const row = await db.selectFrom('embedding_spaces').select(['low_seq', 'high_seq', 'dims']).where('space', '=', space).executeTakeFirst();
  return {
    fromSeq: Number(row?.low_seq ?? 0),
    indexedSeq: Number(row?.high_seq ?? 0),
    headSeq: await headSeq(db),
    dims: row?.dims ?? null,
  };
}

export async function claimEmbedding(trx: Db, space: string, owner: string, now: number, until: number): Promise<EmbeddingProgress | null> {
  const head = await headSeq(trx);
  await trx
    .insertInto('embedding_spaces')
    .values({ space, dims: null, low_seq: head, high_seq: head, lease_owner: null, lease_until: null, updated_at: now })
    .onConflict((oc) => oc.column('space').doNothing())
    .execute();
  const row = await trx
    .updateTable('embedding_spaces')
    .set({ lease_owner: owner, lease_until: until })
    .where('space', '=', space)
    .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', owner), eb('lease_until', '<', now)]))
    .returning(['low_seq', 'high_seq', 'dims'])
    .executeTakeFirst();
  if (!row) return null;
  return { fromSeq: Number(row.low_seq), indexedSeq: Number(row.high_seq), headSeq: head, dims: row.dims ?? null };
}

export async function releaseEmbedding(trx: Db, space: string, owner: string): Promise<void> {
  await trx
    .updateTable('embedding_spaces')
    .set({ lease_owner: null, lease_until: null })
    .where('space', '=', space)
    .where('lease_owner', '=', owner)
    .execute();
}

export async function storeVectors(
  trx: Db,
  space: string,
  range: { afterSeq: number; upToSeq: number },
  vectors: readonly EventVector[],
  now: number,
): Promise<number | null> {
  // Taking the space's row first serializes writers (PostgreSQL: until commit).
  const row = await trx
    .updateTable('embedding_spaces')
    .set({ updated_at: sql`updated_at` })
    .where('space', '=', space)
    .returning(['low_seq', 'high_seq', 'dims'])
    .executeTakeFirst();
  if (!row || range.upToSeq <= range.afterSeq) return null;
  let extend: { high_seq: number } | { low_seq: number };
  if (range.afterSeq === Number(row.high_seq)) extend = { high_seq: range.upToSeq };
  else if (range.upToSeq === Number(row.low_seq)) extend = { low_seq: range.afterSeq };
  else return null;
  // The vectors of a model no longer in use go as the new one covers their events.
  await trx
    .deleteFrom('event_vectors')
    .where('seq', '>', range.afterSeq)
    .where('seq', '<=', range.upToSeq)
    .where('space', '<>', space)
    .execute();
  let added = 0;
  for (let i = 0; i < vectors.length; i += ROWS_PER_INSERT) {
    const batch = vectors.slice(i, i + ROWS_PER_INSERT).map((v) => ({ seq: v.seq, chunk: v.chunk, space, vector: encodeVector(v.vector) }));
    const result = await trx
      .insertInto('event_vectors')
      .values(batch)
      .onConflict((oc) => oc.columns(['seq', 'chunk', 'space']).doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  const dims = row.dims ?? vectors[0]?.vector.length ?? null;
  await trx
    .updateTable('embedding_spaces')
    .set({ ...extend, dims, updated_at: now })
    .where('space', '=', space)
    .execute();
  return added;
}

export async function resetEmbedding(trx: Db, space: string): Promise<void> {
  await trx.deleteFrom('event_vectors').where('space', '=', space).execute();
  await trx.deleteFrom('embedding_spaces').where('space', '=', space).execute();
}

export async function dropOtherEmbeddings(trx: Db, space: string): Promise<number> {
  const dropped = await trx.deleteFrom('embedding_spaces').where('space', '<>', space).executeTakeFirst();
  const count = Number(dropped.numDeletedRows);
  if (count > 0) await trx.deleteFrom('event_vectors').where('space', '<>', space).execute();
  return count;
}
