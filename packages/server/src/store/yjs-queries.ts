import type { Kysely, Selectable } from 'kysely';
import type { Database, YjsDocsTable } from './schema.js';
import type { YjsDocHead, YjsUpdate } from './store.js';

/** Reads and writes of the persisted Yjs documents (`yjs_docs`, `yjs_updates`). */
type Db = Kysely<Database>;

function toHead(row: Selectable<YjsDocsTable>): YjsDocHead {
  return { head: Number(row.head), base: Number(row.base), projectedSeq: Number(row.projected_seq) };
}

export async function listYjsUpdates(db: Db, contextId: string, afterSeq: number): Promise<YjsUpdate[]> {
  const rows = await db
    .selectFrom('yjs_updates')
    .select(['seq', 'data'])
    .where('context_id', '=', contextId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ seq: Number(row.seq), data: new Uint8Array(row.data) }));
}

export async function yjsHeads(db: Db, contextIds: readonly string[]): Promise<Map<string, number>> {
  const heads = new Map<string, number>();
  if (contextIds.length === 0) return heads;
  const rows = await db.selectFrom('yjs_docs').select(['context_id', 'head']).where('context_id', 'in', contextIds).execute();
  for (const row of rows) heads.set(row.context_id, Number(row.head));
  return heads;
}

export async function lockYjsDoc(db: Db, contextId: string, now: number, forUpdate: boolean): Promise<YjsDocHead> {
  await db
    .insertInto('yjs_docs')
    .values({ context_id: contextId, head: 0, base: 0, projected_seq: 0, updated_at: now })
    .onConflict((oc) => oc.column('context_id').doNothing())
    .execute();
  // SQLite runs one write transaction at a time, which is the lock; PostgreSQL takes the row.
  let query = db.selectFrom('yjs_docs').selectAll().where('context_id', '=', contextId);
  if (forUpdate) query = query.forUpdate();
  return toHead(await query.executeTakeFirstOrThrow());
}

export async function saveYjsDoc(
  db: Db,
  contextId: string,
  change: { data: Uint8Array | null; replace: boolean; projectedSeq: number },
  now: number,
): Promise<YjsDocHead> {
  const current = toHead(await db.selectFrom('yjs_docs').selectAll().where('context_id', '=', contextId).executeTakeFirstOrThrow());
  let { head, base } = current;
  if (change.data) {
    head += 1;
    if (change.replace) {
      await db.deleteFrom('yjs_updates').where('context_id', '=', contextId).where('seq', '<', head).execute();
      base = head;
    }
    await db.insertInto('yjs_updates').values({ context_id: contextId, seq: head, data: change.data }).execute();
  }
  const projectedSeq = Math.max(current.projectedSeq, change.projectedSeq);
  await db
    .updateTable('yjs_docs')
    .set({ head, base, projected_seq: projectedSeq, updated_at: now })
    .where('context_id', '=', contextId)
    .execute();
  return { head, base, projectedSeq };
}

export async function deleteYjsDoc(db: Db, contextId: string): Promise<void> {
  await db.deleteFrom('yjs_updates').where('context_id', '=', contextId).execute();
  await db.deleteFrom('yjs_docs').where('context_id', '=', contextId).execute();
}
