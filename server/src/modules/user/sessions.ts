import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { endLiveSessions } from '../../ws/hub';

/** Hashes of the user's sessions, but `keepHash` (the browser that made the change). */
export async function sessionHashesOf(
  db: Db,
  userId: number,
  keepHash: string | null = null,
): Promise<string[]> {
  let query = db.selectFrom('sessions').select('id_hash').where('user_id', '=', userId);
  if (keepHash) query = query.where('id_hash', '!=', keepHash);
  return (await query.execute()).map((row) => row.id_hash);
}

/**
 * Deletes every session row of the user except `keepHash`, inside the caller's transaction;
 * answers their hashes, whose live sockets the caller denies (endLiveSessions) after the commit.
 */
export async function deleteOtherSessions(
  db: Db,
  userId: number,
  keepHash: string | null,
): Promise<string[]> {
  const hashes = await sessionHashesOf(db, userId, keepHash);
  if (hashes.length > 0) await db.deleteFrom('sessions').where('id_hash', 'in', hashes).execute();
  return hashes;
}

/** Ends every session of the user except `keepHash`, and denies their live sockets. */
export async function endOtherSessions(
  ctx: AppContext,
  userId: number,
  keepHash: string | null,
): Promise<void> {
  const hashes = await ctx.db.transaction().execute((trx) => deleteOtherSessions(trx, userId, keepHash));
  await endLiveSessions(ctx, hashes);
}
