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

/** Ends every session of the user except `keepHash`, and denies their live sockets. */
export async function endOtherSessions(
  ctx: AppContext,
  userId: number,
  keepHash: string | null,
): Promise<void> {
  const hashes = await sessionHashesOf(ctx.db, userId, keepHash);
  if (hashes.length === 0) return;
  await ctx.db.deleteFrom('sessions').where('id_hash', 'in', hashes).execute();
  await endLiveSessions(ctx, hashes);
}
