import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Full-text search, runtimes and scoped state (issue 6). Only new tables and
 * triggers: nothing here rewrites the event log, so the migration is instant
 * on a large store and the index fills in the background (search/indexer.ts).
 *
 * The index holds pre-segmented, normalized tokens (search/tokenize.ts), not
 * raw text, so both stores tokenize by whitespace alone and agree on what a
 * word is in every script. Each event is split into chunks; a chunk's key is
 * `seq * 1024 + chunk` (SQLite rowid) or `(seq, chunk)` (PostgreSQL).
 *
 * Deleting events (a context delete) deletes their index rows by trigger, so
 * the delete path stays unaware of search. Appends are indexed by the
 * indexer, which keeps its watermark in `counters` ('search').
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`CREATE TABLE event_search (seq bigint NOT NULL, chunk integer NOT NULL, tsv tsvector NOT NULL, PRIMARY KEY (seq, chunk))`.execute(
      db,
    );
    await sql`CREATE INDEX event_search_tsv ON event_search USING gin (tsv)`.execute(db);
    await sql`
      CREATE FUNCTION baton_event_search_forget() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM event_search WHERE seq IN (SELECT seq FROM gone);
        RETURN NULL;
      END $$`.execute(db);
    await sql`
      CREATE TRIGGER event_search_forget AFTER DELETE ON events
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION baton_event_search_forget()`.execute(db);
  } else {
    // Contentless: the text lives in the events table; snippets are cut from it.
    await sql`CREATE VIRTUAL TABLE event_search USING fts5(tokens, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`.execute(
      db,
    );
    await sql`
      CREATE TRIGGER event_search_forget AFTER DELETE ON events BEGIN
        DELETE FROM event_search WHERE rowid BETWEEN old.seq * 1024 AND old.seq * 1024 + 1023;
      END`.execute(db);
  }
  await db
    .insertInto('counters' as never)
    .values({ name: 'search', value: 0 } as never)
    .execute();

  await db.schema
    .createTable('runtimes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text')
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('capabilities', 'text', (c) => c.notNull())
    .addColumn('registered_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('state_entries')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('owner', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('state_entries_owner').on('state_entries').columns(['scope', 'owner', 'key']).execute();
}
