import type { Checkpoint, CheckpointArtifactInfo, Context, Event, Task } from '@baton/core';
import { type Kysely, sql } from 'kysely';
import { rowToCheckpoint, rowToContext, rowToEvent, rowToTask } from './rows.js';
import type { Database } from './schema.js';
import type { CheckpointFilter, ContextFilter, EventFilter, StoredArtifact, TaskFilter } from './store.js';

/**
 * Reads shared by both stores, usable on the reader connection and inside a
 * write transaction alike. Written once with Kysely; each store only
 * supplies the connection.
 */
type Db = Kysely<Database>;

const EVENT_COLUMNS = [
  'seq',
  'id',
  'context_id',
  'kind',
  'type',
  'direction',
  'phase',
  'round',
  'step_id',
  'actor_id',
  'task_id',
  'parent_id',
  'created_at',
  'body',
  'projection',
] as const;

export async function getContext(db: Db, id: string): Promise<Context | undefined> {
  const row = await db.selectFrom('contexts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? rowToContext(row) : undefined;
}

export async function listContexts(db: Db, f: ContextFilter): Promise<Context[]> {
  let q = db.selectFrom('contexts').selectAll();
  if (f.q) {
    const pattern = `%${f.q.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q = q.where((eb) =>
      eb.or([eb(sql`lower(title)`, 'like', sql`${pattern} escape '\\'`), eb(sql`lower(description)`, 'like', sql`${pattern} escape '\\'`)]),
    );
  }
  if (f.parentId) q = q.where('parent_id', '=', f.parentId);
  const before = f.before;
  if (before) {
    q = q.where((eb) =>
      eb.or([eb('updated_at', '<', before.updatedAt), eb.and([eb('updated_at', '=', before.updatedAt), eb('id', '<', before.id)])]),
    );
  }
  const rows = await q.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
  return rows.map(rowToContext);
}

export async function getTask(db: Db, id: string, forUpdate = false): Promise<Task | undefined> {
  let q = db.selectFrom('tasks').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? rowToTask(row) : undefined;
}

export async function listTasks(db: Db, f: TaskFilter): Promise<Task[]> {
  let q = db.selectFrom('tasks').selectAll();
  if (f.contextId) q = q.where('context_id', '=', f.contextId);
  if (f.states?.length) q = q.where('state', 'in', f.states);
  if (f.parentTaskId) q = q.where('parent_task_id', '=', f.parentTaskId);
  const after = f.after;
  if (after) {
    q = q.where((eb) =>
      eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]),
    );
  }
  const rows = await q.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(f.limit).execute();
  return rows.map(rowToTask);
}

export async function getEvent(db: Db, id: string): Promise<Event | undefined> {
  const row = await db.selectFrom('events').select(EVENT_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? rowToEvent(row) : undefined;
}

export async function findEvents(db: Db, ids: readonly string[]): Promise<Map<string, Event>> {
  const found = new Map<string, Event>();
  if (ids.length === 0) return found;
  const rows = await db.selectFrom('events').select(EVENT_COLUMNS).where('id', 'in', ids).execute();
  for (const row of rows) found.set(row.id, rowToEvent(row));
  return found;
}

export async function listEvents(db: Db, f: EventFilter): Promise<Event[]> {
  let q = db.selectFrom('events').select(EVENT_COLUMNS);
  if (f.contextId !== undefined) q = q.where('context_id', '=', f.contextId);
  if (f.contextIds?.length) q = q.where('context_id', 'in', f.contextIds);
  if (f.kinds?.length) q = q.where('kind', 'in', f.kinds);
  if (f.types?.length) q = q.where('type', 'in', f.types);
  if (f.phases?.length) q = q.where('phase', 'in', f.phases);
  if (f.direction) q = q.where('direction', '=', f.direction);
  if (f.actorIds?.length) q = q.where('actor_id', 'in', f.actorIds);
  if (f.taskId) q = q.where('task_id', '=', f.taskId);
  if (f.stepId) q = q.where('step_id', '=', f.stepId);
  if (f.parentId) q = q.where('parent_id', '=', f.parentId);
  if (f.afterSeq !== undefined) q = q.where('seq', '>', f.afterSeq);
  if (f.beforeSeq !== undefined) q = q.where('seq', '<', f.beforeSeq);
  if (f.sinceMs !== undefined) q = q.where('created_at', '>=', f.sinceMs);
  if (f.untilMs !== undefined) q = q.where('created_at', '<', f.untilMs);
  const viewer = f.viewerKey;
  if (viewer !== null) q = q.where((eb) => eb.or([eb('private_to', 'is', null), eb('private_to', '=', viewer)]));
  const rows = await q.orderBy('seq', f.order).limit(f.limit).execute();
  return rows.map(rowToEvent);
}

async function artifactInfos(db: Db, checkpointIds: readonly string[]): Promise<Map<string, CheckpointArtifactInfo[]>> {
  const byCheckpoint = new Map<string, CheckpointArtifactInfo[]>();
  if (checkpointIds.length === 0) return byCheckpoint;
  const rows = await db
    .selectFrom('checkpoint_artifacts')
    .select(['checkpoint_id', 'name', 'media_type', 'size'])
    .where('checkpoint_id', 'in', checkpointIds)
    .orderBy('name')
    .execute();
  for (const row of rows) {
    const list = byCheckpoint.get(row.checkpoint_id) ?? [];
    list.push({ name: row.name, mediaType: row.media_type, size: Number(row.size) });
    byCheckpoint.set(row.checkpoint_id, list);
  }
  return byCheckpoint;
}

export async function getCheckpoint(db: Db, id: string): Promise<Checkpoint | undefined> {
  const row = await db.selectFrom('checkpoints').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const infos = await artifactInfos(db, [id]);
  return rowToCheckpoint(row, infos.get(id) ?? []);
}

export async function listCheckpoints(db: Db, f: CheckpointFilter): Promise<Checkpoint[]> {
  let q = db.selectFrom('checkpoints').selectAll();
  if (f.contextId) q = q.where('context_id', '=', f.contextId);
  if (f.agentId) q = q.where('agent_id', '=', f.agentId);
  if (f.sessionId) q = q.where('session_id', '=', f.sessionId);
  const rows = await q.orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
  const infos = await artifactInfos(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => rowToCheckpoint(r, infos.get(r.id) ?? []));
}

export async function readCheckpointArtifact(db: Db, checkpointId: string, name: string): Promise<StoredArtifact | undefined> {
  const row = await db
    .selectFrom('checkpoint_artifacts')
    .selectAll()
    .where('checkpoint_id', '=', checkpointId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (!row) return undefined;
  return { name: row.name, mediaType: row.media_type, size: Number(row.size), content: new Uint8Array(row.content) };
}
