import type { Kysely, Transaction } from 'kysely';
import { ownsAll } from '../../db/owned';
import type { Database } from '../../db/schema';
import { HttpError } from '../../http/errors';

/**
 * Bibliographies are private: only the owner reads or writes an entry or category, and nobody
 * else learns that one exists (404, never 403). Every query below filters by owner itself.
 */
type Executor = Kysely<Database> | Transaction<Database>;

/** 404 unless every id names an entry of the owner. */
export async function assertOwnEntries(db: Executor, ownerId: number, ids: readonly number[]): Promise<void> {
  if (!(await ownsAll(db, 'bib_entries', ownerId, ids))) throw new HttpError(404);
}

/** 404 unless every id names a category of the owner. */
export async function assertOwnCategories(
  db: Executor,
  ownerId: number,
  ids: readonly number[],
): Promise<void> {
  if (!(await ownsAll(db, 'bib_categories', ownerId, ids))) throw new HttpError(404);
}
