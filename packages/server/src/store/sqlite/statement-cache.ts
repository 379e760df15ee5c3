import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely prepares every query afresh; better-sqlite3 statements can be reused.
 * Caching them by SQL text takes preparation off the hot path of appends and
 * reads. Bounded, oldest-first eviction.
 */
export class CachedSqliteDatabase implements SqliteDatabase {
  readonly #db: BetterSqlite3.Database;
  readonly #cache = new Map<string, BetterSqlite3.Statement>();
  readonly #max: number;

  constructor(db: BetterSqlite3.Database, max = 500) {
    this.#db = db;
    this.#max = max;
  }

  prepare(sql: string): SqliteStatement {
    let stmt = this.#cache.get(sql);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      // Multi-row inserts vary in length; caching each shape would evict the useful ones.
      if (sql.length < 4096) {
        if (this.#cache.size >= this.#max) {
          const oldest = this.#cache.keys().next().value;
          if (oldest !== undefined) this.#cache.delete(oldest);
        }
        this.#cache.set(sql, stmt);
      }
    }
    return stmt as unknown as SqliteStatement;
  }

  close(): void {
    this.#cache.clear();
    this.#db.close();
  }
}
