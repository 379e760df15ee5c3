import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Semantic search (issue 6): vectors beside the events. Only new tables and a
 * trigger, so the migration is instant on any store; the embedding indexer
 * (search/embedding-indexer.ts) fills them in the background, and only when
 * an embedding provider is configured.
 *
 * `event_vectors` holds one row per embedded passage of an event: the
 * vector as little-endian float32, scaled to unit length. `space` names the
 * model (and requested dimensions) that made it: vectors of different spaces
 * are never compared. `embedding_spaces` records, per space, which seqs are
 * covered — every event in (low_seq, high_seq] — and which instance holds
 * the lease to embed more, so instances sharing a PostgreSQL database do not
 * pay the provider twice for the same events.
 *
 * Deleting events (a context delete) deletes their vectors by trigger.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('event_vectors')
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('chunk', 'integer', (c) => c.notNull())
    .addColumn('space', 'text', (c) => c.notNull())
    .addColumn('vector', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_vectors_pk', ['seq', 'chunk', 'space'])
    .execute();
  await db.schema
    .createTable('embedding_spaces')
    .addColumn('space', 'text', (c) => c.primaryKey())
    /** Vector length, set by the first vectors stored. */
    .addColumn('dims', 'integer')
    .addColumn('low_seq', 'bigint', (c) => c.notNull())
    .addColumn('high_seq', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  if (postgres) {
    // Float32 vectors do not compress: store them out of line without trying.
    await sql`ALTER TABLE event_vectors ALTER COLUMN vector SET STORAGE EXTERNAL`.execute(db);
    await sql`
      CREATE FUNCTION baton_event_vectors_forget() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM event_vectors WHERE seq IN (SELECT seq FROM gone);
        RETURN NULL;
      END $$`.execute(db);
    await sql`
      CREATE TRIGGER event_vectors_forget AFTER DELETE ON events
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION baton_event_vectors_forget()`.execute(db);
  } else {
    await sql`
      CREATE TRIGGER event_vectors_forget AFTER DELETE ON events BEGIN
        DELETE FROM event_vectors WHERE seq = old.seq;
      END`.execute(db);
  }
}
