import type { Actor, DeliveryMode, LiveFilter } from '@baton/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, SubscriptionsTable } from './schema.js';
import type { StoredSubscription } from './store.js';

/** Reads and writes of the `subscriptions` table, for the reader and inside transactions alike. */
type Db = Kysely<Database>;

function rowToSubscription(row: Selectable<SubscriptionsTable>): StoredSubscription {
  return {
    id: row.id,
    owner: JSON.parse(row.owner) as Actor,
    ownerKey: row.owner_key,
    filter: JSON.parse(row.filter) as LiveFilter,
    deliveryMode: row.delivery_mode as DeliveryMode,
    endpoint: row.endpoint,
    secret: row.secret,
    cursor: Number(row.cursor),
    failures: Number(row.failures),
    lastError: row.last_error,
    lastDeliveredAt: row.last_delivered_at === null ? null : Number(row.last_delivered_at),
    retryAt: row.retry_at === null ? null : Number(row.retry_at),
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function getSubscription(db: Db, id: string): Promise<StoredSubscription | undefined> {
  const row = await db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? rowToSubscription(row) : undefined;
}

export async function listSubscriptions(db: Db, query: { ownerKey: string; limit: number }): Promise<StoredSubscription[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('owner_key', '=', query.ownerKey)
    .orderBy('created_at')
    .orderBy('id')
    .limit(query.limit)
    .execute();
  return rows.map(rowToSubscription);
}

export async function insertSubscription(db: Db, s: StoredSubscription): Promise<void> {
  await db
    .insertInto('subscriptions')
    .values({
      id: s.id,
      owner: JSON.stringify(s.owner),
      owner_key: s.ownerKey,
      filter: JSON.stringify(s.filter),
      delivery_mode: s.deliveryMode,
      endpoint: s.endpoint,
      secret: s.secret,
      cursor: s.cursor,
      failures: s.failures,
      last_error: s.lastError,
      last_delivered_at: s.lastDeliveredAt,
      retry_at: s.retryAt,
      lease_owner: s.leaseOwner,
      lease_until: s.leaseUntil,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
    })
    .execute();
}

export async function deleteSubscription(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function advanceSubscription(
  db: Db,
  id: string,
  cursor: number,
  at: number,
  delivered: boolean,
): Promise<StoredSubscription | undefined> {
  // Two instances may briefly both deliver (a lease taken over mid-delivery): the cursor only moves forward.
  await db.updateTable('subscriptions').set({ cursor, updated_at: at }).where('id', '=', id).where('cursor', '<', cursor).execute();
  if (delivered) {
    await db
      .updateTable('subscriptions')
      .set({ failures: 0, last_error: null, retry_at: null, last_delivered_at: at, updated_at: at })
      .where('id', '=', id)
      .execute();
  }
  return getSubscription(db, id);
}

export async function recordSubscriptionFailure(db: Db, id: string, error: string, at: number, retryAt: number): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ failures: sql`failures + 1`, last_error: error.slice(0, 2000), retry_at: retryAt, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function claimSubscriptions(db: Db, owner: string, now: number, until: number): Promise<StoredSubscription[]> {
  const rows = await db
    .updateTable('subscriptions')
    .set({ lease_owner: owner, lease_until: until })
    .where('delivery_mode', '=', 'push')
    .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', owner), eb('lease_until', '<', now)]))
    .returningAll()
    .execute();
  return rows.map(rowToSubscription);
}

export async function releaseSubscriptions(db: Db, owner: string): Promise<void> {
  await db.updateTable('subscriptions').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', owner).execute();
}
