import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Contexts, tasks, the event log and its indexes (DESIGN §3). */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('contexts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('owner', 'text')
    .addColumn('parent_id', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('imported_from', 'text')
    .addColumn('event_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contexts_updated').on('contexts').columns(['updated_at', 'id']).execute();
  await db.schema.createIndex('contexts_parent').on('contexts').column('parent_id').where(sql.ref('parent_id'), 'is not', null).execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('parent_task_id', 'text')
    .addColumn('required_capabilities', 'text', (c) => c.notNull())
    .addColumn('artifacts', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_context').on('tasks').columns(['context_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('events')
    // On SQLite an INTEGER PRIMARY KEY is the rowid itself: no separate seq index, and rows sit in seq order.
    .addColumn('seq', postgres ? 'bigint' : 'integer', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('type', 'text')
    .addColumn('direction', 'text')
    .addColumn('phase', 'text')
    .addColumn('round', 'integer')
    .addColumn('step_id', 'text')
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('parent_id', 'text')
    .addColumn('private_to', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('projection', 'text')
    .execute();
  await db.schema.createIndex('events_context_seq').on('events').columns(['context_id', 'seq']).execute();
  await db.schema.createIndex('events_context_kind').on('events').columns(['context_id', 'kind', 'type', 'seq']).execute();
  await db.schema
    .createIndex('events_context_phase')
    .on('events')
    .columns(['context_id', 'phase', 'round'])
    .where(sql.ref('phase'), 'is not', null)
    .execute();
  await db.schema.createIndex('events_actor').on('events').columns(['actor_id', 'seq']).execute();
  await db.schema.createIndex('events_time').on('events').column('created_at').execute();
  await db.schema.createIndex('events_task').on('events').columns(['task_id', 'seq']).where(sql.ref('task_id'), 'is not', null).execute();
  await db.schema.createIndex('events_step').on('events').columns(['step_id', 'seq']).where(sql.ref('step_id'), 'is not', null).execute();

  await db.schema
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('counters' as never)
    .values({ name: 'events', value: 0 } as never)
    .execute();
}
