import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Context subscriptions (push and pull) and the persisted Yjs documents of
 * the Yjs bridge. Only new tables: the event log is not touched.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const blob = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** The registering actor (JSON) and its privacy key: whose private events it may receive. */
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('owner_key', 'text', (c) => c.notNull())
    .addColumn('filter', 'text', (c) => c.notNull())
    .addColumn('delivery_mode', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text')
    .addColumn('secret', 'text')
    .addColumn('cursor', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_delivered_at', 'bigint')
    .addColumn('retry_at', 'bigint')
    /** Which instance delivers this push subscription, until when (see subscription-queries.ts). */
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_owner').on('subscriptions').columns(['owner_key', 'created_at']).execute();

  await db.schema
    .createTable('yjs_docs')
    .addColumn('context_id', 'text', (c) => c.primaryKey())
    /** The seq of the newest stored update; its row lock serializes the instances writing this document. */
    .addColumn('head', 'bigint', (c) => c.notNull())
    /** The seq of the oldest stored update (the last compaction's snapshot). */
    .addColumn('base', 'bigint', (c) => c.notNull())
    /** Every activity event up to this seq has been projected into the document. */
    .addColumn('projected_seq', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('yjs_updates')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('yjs_updates_pk', ['context_id', 'seq'])
    .execute();
}
