import type { Db } from './database';

/** A database or a transaction: reads, and deletes in deleteOwned. */
type Reader = Pick<Db, 'selectFrom'>;
type Deleter = Pick<Db, 'deleteFrom'>;

/**
 * Rows that belong to one user. Every query of a user's library filters by owner itself: another
 * user's rows are invisible (404), never "forbidden".
 */

/** Tables whose rows have an owner_id. */
export type OwnedTable =
  | 'documents'
  | 'usermedia_images'
  | 'usermedia_categories'
  | 'bib_entries'
  | 'bib_categories'
  | 'bib_sources';

// Stays well under SQLite's and PostgreSQL's limits on bound parameters.
const ID_BATCH = 900;

/** How many rows of the table the owner has (of those listed, when ids are given). */
export async function countOwned(
  db: Reader,
  table: OwnedTable,
  ownerId: number,
  ids?: readonly number[],
): Promise<number> {
  if (!ids) return countBatch(db, table, ownerId);
  let found = 0;
  for (let i = 0; i < ids.length; i += ID_BATCH)
    found += await countBatch(db, table, ownerId, ids.slice(i, i + ID_BATCH));
  return found;
}

async function countBatch(
  db: Reader,
  table: OwnedTable,
  ownerId: number,
  ids?: readonly number[],
): Promise<number> {
  let query = db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('owner_id', '=', ownerId);
  if (ids) query = query.where('id', 'in', ids);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Whether every id names a row of the owner (duplicates counted once). */
export async function ownsAll(
  db: Reader,
  table: OwnedTable,
  ownerId: number,
  ids: readonly number[],
): Promise<boolean> {
  const unique = [...new Set(ids)];
  return unique.length === 0 || (await countOwned(db, table, ownerId, unique)) === unique.length;
}

/**
 * Deletes the listed rows of the table that belong to the owner, in batches (call it inside the
 * transaction that checked the ids): an id of another owner's row deletes nothing.
 */
export async function deleteOwned(
  db: Deleter,
  table: OwnedTable,
  ownerId: number,
  ids: readonly number[],
): Promise<void> {
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    await db
      .deleteFrom(table)
      .where('owner_id', '=', ownerId)
      .where('id', 'in', ids.slice(i, i + ID_BATCH))
      .execute();
  }
}
