import type { Db } from '../../db/database';

/** Ends every session of the user except `keepHash` (the browser that made the change). */
export async function endOtherSessions(db: Db, userId: number, keepHash: string | null): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepHash) query = query.where('id_hash', '!=', keepHash);
  await query.execute();
}
