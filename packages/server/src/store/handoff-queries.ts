import type { Actor, Runtime, StateEntry } from '@baton/core';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { StateFilter } from './store.js';

/** Tables from migration 004 that only the handoff features read (kept out of schema.ts, which other features share). */
interface RuntimesTable {
  id: string;
  name: string | null;
  format: string;
  capabilities: string;
  registered_at: number;
  updated_at: number;
}

interface StateEntriesTable {
  key: string;
  scope: string;
  owner: string | null;
  name: string;
  value: string;
  updated_by: string;
  updated_at: number;
}

type Db = Kysely<Database>;
type HandoffDb = Kysely<Database & { runtimes: RuntimesTable; state_entries: StateEntriesTable }>;
const tables = (db: Db): HandoffDb => db.withTables<{ runtimes: RuntimesTable; state_entries: StateEntriesTable }>();
const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

function rowToRuntime(row: RuntimesTable): Runtime {
  return {
    id: row.id,
    name: row.name,
    format: row.format as Runtime['format'],
    capabilities: JSON.parse(row.capabilities),
    registeredAt: iso(row.registered_at),
    updatedAt: iso(row.updated_at),
  };
}

export async function getRuntime(db: Db, id: string): Promise<Runtime | undefined> {
  const row = await tables(db).selectFrom('runtimes').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? rowToRuntime(row) : undefined;
}

export async function listRuntimes(db: Db): Promise<Runtime[]> {
  const rows = await tables(db).selectFrom('runtimes').selectAll().orderBy('id').limit(1000).execute();
  return rows.map(rowToRuntime);
}

export async function putRuntime(db: Db, runtime: Runtime): Promise<void> {
  const row: RuntimesTable = {
    id: runtime.id,
    name: runtime.name,
    format: runtime.format,
    capabilities: JSON.stringify(runtime.capabilities),
    registered_at: Date.parse(runtime.registeredAt),
    updated_at: Date.parse(runtime.updatedAt),
  };
  const { id: _id, registered_at: _registered, ...changes } = row;
  await tables(db)
    .insertInto('runtimes')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(changes))
    .execute();
}

export async function deleteRuntime(db: Db, id: string): Promise<boolean> {
  const result = await tables(db).deleteFrom('runtimes').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function rowToState(row: StateEntriesTable): StateEntry {
  return {
    key: row.key,
    scope: row.scope as StateEntry['scope'],
    owner: row.owner,
    name: row.name,
    value: JSON.parse(row.value),
    updatedBy: JSON.parse(row.updated_by) as Actor,
    updatedAt: iso(row.updated_at),
  };
}

/** Entries of each (scope, owner) pair asked for, newest first, at most `limit` in all. */
export async function listState(db: Db, f: StateFilter): Promise<StateEntry[]> {
  if (f.owners.length === 0) return [];
  const rows = await tables(db)
    .selectFrom('state_entries')
    .selectAll()
    .where((eb) =>
      eb.or(
        f.owners.map(({ scope, owner }) =>
          eb.and([eb('scope', '=', scope), owner === null ? eb('owner', 'is', null) : eb('owner', '=', owner)]),
        ),
      ),
    )
    .orderBy('updated_at', 'desc')
    .orderBy('key')
    .limit(f.limit)
    .execute();
  return rows.map(rowToState);
}

export async function getState(db: Db, key: string): Promise<StateEntry | undefined> {
  const row = await tables(db).selectFrom('state_entries').selectAll().where('key', '=', key).executeTakeFirst();
  return row ? rowToState(row) : undefined;
}

export async function putState(db: Db, entry: StateEntry): Promise<void> {
  const row: StateEntriesTable = {
    key: entry.key,
    scope: entry.scope,
    owner: entry.owner,
    name: entry.name,
    value: JSON.stringify(entry.value),
    updated_by: JSON.stringify(entry.updatedBy),
    updated_at: Date.parse(entry.updatedAt),
  };
  const { key: _key, ...changes } = row;
  await tables(db)
    .insertInto('state_entries')
    .values(row)
    .onConflict((oc) => oc.column('key').doUpdateSet(changes))
    .execute();
}

export async function deleteState(db: Db, key: string): Promise<boolean> {
  const result = await tables(db).deleteFrom('state_entries').where('key', '=', key).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
