import type { Checkpoint, Context, Event, Runtime, StateEntry, Task } from '@baton/core';
import { type Kysely, Migrator, sql } from 'kysely';
import * as handoff from './handoff-queries.js';
import { migrationProvider } from './migrations/index.js';
import * as read from './queries.js';
import { contextToRow, eventToRow, type PreparedEvent, type Projection, taskToRow, toMillis } from './rows.js';
import type { Database, EventsTable } from './schema.js';
import * as search from './search-queries.js';
import type {
  CheckpointFilter,
  ContextFilter,
  DeleteCounts,
  EventFilter,
  EventVector,
  MigrationProgress,
  MigrationReport,
  SearchDocument,
  SearchFilter,
  StateFilter,
  Store,
  StoredArtifact,
  StoredSubscription,
  StoreWriter,
  TaskFilter,
  VectorSearchFilter,
} from './store.js';
import * as subscriptions from './subscription-queries.js';
import * as vectors from './vector-queries.js';
import * as yjs from './yjs-queries.js';

/** Rows per INSERT statement: under SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 500;

export interface KyselyStoreOptions {
  dialect: Store['dialect'];
  /** Runs migrations and transactions. */
  writer: Kysely<Database>;
  /** Serves reads; defaults to the writer (PostgreSQL pools connections itself). */
  reader?: Kysely<Database>;
  sizeOnDisk: () => Promise<number>;
  /**
   * Inserts event rows inside the running write transaction. SQLite passes one
   * that reuses a prepared single-row INSERT on the writer's connection, which
   * is several times faster than compiling a multi-row INSERT per batch; by
   * default rows go through Kysely.
   */
  insertEvents?: (rows: readonly EventsTable[]) => void;
  /** Runs inside each transaction that appended events, just before commit (PostgreSQL: NOTIFY). */
  onAppendCommit?: (trx: Kysely<Database>) => Promise<void>;
  watchChanges?: (listener: () => void) => Promise<() => Promise<void>>;
  onClose?: () => Promise<void>;
}

/** The one Store implementation over Kysely; sqlite-store.ts and postgres-store.ts configure it. */
export class KyselyStore implements Store {
  readonly dialect: Store['dialect'];
  readonly #writer: Kysely<Database>;
  readonly #reader: Kysely<Database>;
  readonly #options: KyselyStoreOptions;

  constructor(options: KyselyStoreOptions) {
    this.dialect = options.dialect;
    this.#writer = options.writer;
    this.#reader = options.reader ?? options.writer;
    this.#options = options;
  }

  async migrate(onProgress?: (step: MigrationProgress) => void): Promise<MigrationReport> {
    const migrator = new Migrator({ db: this.#writer as Kysely<unknown>, provider: migrationProvider });
    const pending = (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
    const applied: string[] = [];
    // One step at a time, so a long migration reports which step it is in.
    for (const name of pending) {
      onProgress?.({ name, status: 'running' });
      const started = performance.now();
      const { error, results } = await migrator.migrateUp();
      if (error) throw error;
      const ran = results?.[0]?.migrationName ?? name;
      applied.push(ran);
      onProgress?.({ name: ran, status: 'done', ms: performance.now() - started });
    }
    const all = await migrator.getMigrations();
    const executed = all.filter((m) => m.executedAt);
    return { applied, current: executed.at(-1)?.name ?? null };
  }

  async write<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T> {
    try {
      return await this.#transaction(fn);
    } catch (error) {
      // Two transactions inserted the same key at once: PostgreSQL let the
      // second wait for the first to commit, then failed it. Run it again: it
      // now sees the committed row and answers as if the two had been in
      // sequence (409, or the stored event for an idempotent retry), not 500.
      if (!isUniqueViolation(error)) throw error;
      return this.#transaction(fn);
    }
  }

  #transaction<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T> {
    const onAppendCommit = this.#options.onAppendCommit;
    return this.#writer.transaction().execute(async (trx) => {
      const writer = new KyselyWriter(trx, this.dialect, this.#options.insertEvents);
      const result = await fn(writer);
      if (writer.appended && onAppendCommit) await onAppendCommit(trx);
      return result;
    });
  }

  watchChanges(listener: () => void): Promise<() => Promise<void>> {
    return this.#options.watchChanges?.(listener) ?? Promise.resolve(async () => {});
  }

  getContext(id: string) {
    return read.getContext(this.#reader, id);
  }
  listContexts(query: ContextFilter) {
    return read.listContexts(this.#reader, query);
  }
  getTask(id: string) {
    return read.getTask(this.#reader, id);
  }
  listTasks(query: TaskFilter) {
    return read.listTasks(this.#reader, query);
  }
  getEvent(id: string) {
    return read.getEvent(this.#reader, id);
  }
  listEvents(query: EventFilter) {
    return read.listEvents(this.#reader, query);
  }
  getCheckpoint(id: string) {
    return read.getCheckpoint(this.#reader, id);
  }
  listCheckpoints(query: CheckpointFilter) {
    return read.listCheckpoints(this.#reader, query);
  }
  readCheckpointArtifact(checkpointId: string, name: string) {
    return read.readCheckpointArtifact(this.#reader, checkpointId, name);
  }
  getSubscription(id: string) {
    return subscriptions.getSubscription(this.#reader, id);
  }
  listSubscriptions(query: { ownerKey: string; limit: number }) {
    return subscriptions.listSubscriptions(this.#reader, query);
  }
  listYjsUpdates(contextId: string, afterSeq: number) {
    return yjs.listYjsUpdates(this.#reader, contextId, afterSeq);
  }
  yjsHeads(contextIds: readonly string[]) {
    return yjs.yjsHeads(this.#reader, contextIds);
  }
  searchEvents(query: SearchFilter) {
    return search.searchEvents(this.#reader, this.dialect, query);
  }
  searchProgress() {
    return search.searchProgress(this.#reader);
  }
  searchVectors(query: VectorSearchFilter) {
    return vectors.searchVectors(this.#reader, query);
  }
  embeddingProgress(space: string) {
    return vectors.embeddingProgress(this.#reader, space);
  }
  getRuntime(id: string) {
    return handoff.getRuntime(this.#reader, id);
  }
  listRuntimes() {
    return handoff.listRuntimes(this.#reader);
  }
  getState(key: string) {
    return handoff.getState(this.#reader, key);
  }
  listState(query: StateFilter) {
    return handoff.listState(this.#reader, query);
  }
  sizeOnDisk() {
    return this.#options.sizeOnDisk();
  }

  async close(): Promise<void> {
    if (this.#reader !== this.#writer) await this.#reader.destroy();
    await this.#writer.destroy();
    await this.#options.onClose?.();
  }
}

class KyselyWriter implements StoreWriter {
  /** Set once this transaction has appended events. */
  appended = false;

  constructor(
    private readonly trx: Kysely<Database>,
    private readonly dialect: Store['dialect'],
    private readonly insertEvents?: (rows: readonly EventsTable[]) => void,
  ) {}

  getContext(id: string) {
    return read.getContext(this.trx, id);
  }

  async insertContext(context: Context): Promise<void> {
    await this.trx.insertInto('contexts').values(contextToRow(context)).execute();
  }

  async updateContext(context: Context): Promise<void> {
    const { id, event_count: _count, last_seq: _last, ...row } = contextToRow(context);
    await this.trx.updateTable('contexts').set(row).where('id', '=', id).execute();
  }

  async deleteContext(id: string): Promise<DeleteCounts> {
    const events = await this.trx.deleteFrom('events').where('context_id', '=', id).executeTakeFirst();
    const tasks = await this.trx.deleteFrom('tasks').where('context_id', '=', id).executeTakeFirst();
    const checkpointIds = this.trx.selectFrom('checkpoints').select('id').where('context_id', '=', id);
    await this.trx.deleteFrom('checkpoint_artifacts').where('checkpoint_id', 'in', checkpointIds).execute();
    const checkpoints = await this.trx.deleteFrom('checkpoints').where('context_id', '=', id).executeTakeFirst();
    // A context created again with this id must not inherit the old Yjs document.
    await yjs.deleteYjsDoc(this.trx, id);
    await this.trx.deleteFrom('contexts').where('id', '=', id).execute();
    return {
      events: Number(events.numDeletedRows),
      tasks: Number(tasks.numDeletedRows),
      checkpoints: Number(checkpoints.numDeletedRows),
    };
  }

  getTask(id: string) {
    return read.getTask(this.trx, id, this.dialect === 'postgres');
  }

  async insertTask(task: Task): Promise<void> {
    await this.trx.insertInto('tasks').values(taskToRow(task)).execute();
  }

  async updateTask(task: Task): Promise<void> {
    const { id, ...row } = taskToRow(task);
    await this.trx.updateTable('tasks').set(row).where('id', '=', id).execute();
  }

  getEvent(id: string) {
    return read.getEvent(this.trx, id);
  }

  findEvents(ids: readonly string[]) {
    return read.findEvents(this.trx, ids);
  }

  async appendEvents(events: readonly PreparedEvent[], now: number): Promise<Event[]> {
    const n = events.length;
    if (n === 0) return [];
    this.appended = true;
    // Taking the counter row serializes appenders until commit (see Store).
    const counter = await this.trx
      .updateTable('counters')
      .set({ value: sql`value + ${n}` })
      .where('name', '=', 'events')
      .returning('value')
      .executeTakeFirstOrThrow();
    const first = Number(counter.value) - n + 1;
    const rows = events.map((event, i) => eventToRow(event, first + i, now));
    if (this.insertEvents) {
      this.insertEvents(rows);
    } else {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await this.trx
          .insertInto('events')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .execute();
      }
    }
    const perContext = new Map<string, { count: number; last: number }>();
    for (const row of rows) {
      const entry = perContext.get(row.context_id) ?? { count: 0, last: 0 };
      entry.count += 1;
      entry.last = row.seq;
      perContext.set(row.context_id, entry);
    }
    for (const [contextId, { count, last }] of perContext) {
      await this.trx
        .updateTable('contexts')
        .set({ event_count: sql`event_count + ${count}`, last_seq: last, updated_at: now })
        .where('id', '=', contextId)
        .execute();
    }
    const createdAt = new Date(now).toISOString();
    return events.map((event, i) => stored(event, first + i, createdAt));
  }

  async setProjection(eventId: string, projection: Projection): Promise<void> {
    await this.trx
      .updateTable('events')
      .set({ projection: JSON.stringify(projection) })
      .where('id', '=', eventId)
      .execute();
  }

  indexEvents(docs: readonly SearchDocument[], upToSeq: number) {
    return search.indexEvents(this.trx, this.dialect, docs, upToSeq);
  }
  claimEmbedding(space: string, owner: string, now: number, until: number) {
    return vectors.claimEmbedding(this.trx, space, owner, now, until);
  }
  releaseEmbedding(space: string, owner: string) {
    return vectors.releaseEmbedding(this.trx, space, owner);
  }
  storeVectors(space: string, range: { afterSeq: number; upToSeq: number }, rows: readonly EventVector[], now: number) {
    return vectors.storeVectors(this.trx, space, range, rows, now);
  }
  resetEmbedding(space: string) {
    return vectors.resetEmbedding(this.trx, space);
  }
  dropOtherEmbeddings(space: string) {
    return vectors.dropOtherEmbeddings(this.trx, space);
  }
  putRuntime(runtime: Runtime) {
    return handoff.putRuntime(this.trx, runtime);
  }
  deleteRuntime(id: string) {
    return handoff.deleteRuntime(this.trx, id);
  }
  putState(entry: StateEntry) {
    return handoff.putState(this.trx, entry);
  }
  deleteState(key: string) {
    return handoff.deleteState(this.trx, key);
  }

  async insertCheckpoint(checkpoint: Checkpoint, artifacts: readonly StoredArtifact[]): Promise<void> {
    await this.trx
      .insertInto('checkpoints')
      .values({
        id: checkpoint.id,
        agent_id: checkpoint.agentId,
        session_id: checkpoint.sessionId,
        label: checkpoint.label,
        timestamp: toMillis(checkpoint.timestamp),
        metadata: JSON.stringify(checkpoint.metadata),
        context_id: checkpoint.contextId,
        task_id: checkpoint.taskId,
        created_at: toMillis(checkpoint.createdAt),
      })
      .execute();
    for (const artifact of artifacts) {
      await this.trx
        .insertInto('checkpoint_artifacts')
        .values({
          checkpoint_id: checkpoint.id,
          name: artifact.name,
          media_type: artifact.mediaType,
          size: artifact.size,
          content: artifact.content,
        })
        .execute();
    }
  }

  insertSubscription(subscription: StoredSubscription) {
    return subscriptions.insertSubscription(this.trx, subscription);
  }
  deleteSubscription(id: string) {
    return subscriptions.deleteSubscription(this.trx, id);
  }
  advanceSubscription(id: string, cursor: number, at: number, delivered: boolean) {
    return subscriptions.advanceSubscription(this.trx, id, cursor, at, delivered);
  }
  recordSubscriptionFailure(id: string, error: string, at: number, retryAt: number) {
    return subscriptions.recordSubscriptionFailure(this.trx, id, error, at, retryAt);
  }
  claimSubscriptions(owner: string, now: number, until: number) {
    return subscriptions.claimSubscriptions(this.trx, owner, now, until);
  }
  releaseSubscriptions(owner: string) {
    return subscriptions.releaseSubscriptions(this.trx, owner);
  }

  lockYjsDoc(contextId: string, now: number) {
    return yjs.lockYjsDoc(this.trx, contextId, now, this.dialect === 'postgres');
  }
  saveYjsDoc(contextId: string, change: { data: Uint8Array | null; replace: boolean; projectedSeq: number }, now: number) {
    // The same poke as an append (PostgreSQL NOTIFY at commit) tells other instances to read the new update.
    if (change.data) this.appended = true;
    return yjs.saveYjsDoc(this.trx, contextId, change, now);
  }
}

/** PostgreSQL's unique_violation; SQLite runs one writer at a time, so it never races there. */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * The appended event: a copy of what was given, with its seq, time and
 * initial projection. Copied field by field: object spread of these objects
 * (validated input, completed in place) took V8's slow path, several µs per
 * event, more than inserting the row.
 */
function stored(event: PreparedEvent, seq: number, createdAt: string): Event {
  // id, seq and contextId lead, as in events read back.
  const copy: Record<string, unknown> = { id: event.id, seq, contextId: event.contextId };
  const fields = event as Record<string, unknown>;
  for (const key in fields) copy[key] = fields[key];
  copy.createdAt = createdAt;
  if (event.kind === 'activity') {
    copy.resolved = false;
    copy.resolvedBy = null;
  } else if (event.kind === 'note') {
    copy.consumed = false;
    copy.consumedBy = null;
  }
  return copy as Event;
}
