import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Checkpoints (MAP trajectory) and their named artifacts. Only new tables: a
 * migration on a large store must not rewrite the event log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('checkpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('context_id', 'text')
    .addColumn('task_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('checkpoints_context').on('checkpoints').columns(['context_id', 'timestamp']).execute();
  await db.schema.createIndex('checkpoints_agent').on('checkpoints').columns(['agent_id', 'timestamp']).execute();

  await db.schema
    .createTable('checkpoint_artifacts')
    .addColumn('checkpoint_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content', db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('checkpoint_artifacts_pk', ['checkpoint_id', 'name'])
    .execute();
}
