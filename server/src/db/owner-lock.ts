import { sql } from 'kysely';
import type { Db, Dialect } from './database';

/**
 * Serialises the transactions of one owner on one kind of data, until the caller's transaction
 * ends. Replace-all saves (read the list, delete what is missing, insert what is new) are only
 * right one at a time: on PostgreSQL ten parallel saves of two categories left twenty. SQLite
 * has one writer at a time and Kysely runs its transactions one after another on its single
 * connection, so there it is already so by nature.
 */
export async function lockOwner(trx: Db, dialect: Dialect, scope: string, ownerId: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`SELECT pg_advisory_xact_lock(hashtext(${scope}), ${ownerId})`.execute(trx);
}
