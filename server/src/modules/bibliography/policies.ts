import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { HttpError } from '../../http/errors';

/**
 * Bibliographies are private: only the owner reads or writes an entry or category, and nobody
 * else learns that one exists (404, never 403). Every query below filters by owner itself.
 */
type Executor = Kysely<Database> | Transaction<Database>;

// Stays well under SQLite's and PostgreSQL's limits on bound parameters.
const ID_BATCH = 900;

async function countOwn(
  db: Executor,
  table: 'bib_entries' | 'bib_categories',
  ownerId: number,
  ids: readonly number[],
): Promise<number> {
  let found = 0;
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    const batch = ids.slice(i, i + ID_BATCH);
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('owner_id', '=', ownerId)
      .where('id', 'in', batch)
      .executeTakeFirstOrThrow();
    found += Number(row.n);
  }
  return found;
}

/** 404 unless every id names an entry of the owner. */
export async function assertOwnEntries(db: Executor, ownerId: number, ids: readonly number[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length > 0 && (await countOwn(db, 'bib_entries', ownerId, unique)) !== unique.length) {
    throw new HttpError(404);
  }
}

/** 404 unless every id names a category of the owner. */
export async function assertOwnCategories(
  db: Executor,
  ownerId: number,
  ids: readonly number[],
): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length > 0 && (await countOwn(db, 'bib_categories', ownerId, unique)) !== unique.length) {
    throw new HttpError(404);
  }
}
