import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { FormError } from '../../../http/errors';
import { endLiveSessions } from '../../../ws/hub';
import { hashKey, KEY_LIFETIME_MS } from '../keys';
import { newPasswordProblems } from '../password-rules';
import { hashPassword } from '../passwords';
import { findUserById } from '../queries';
import { sessionHashesOf } from '../sessions';

/** The active user a live reset key belongs to, else undefined (unknown, used or expired). */
export async function userForResetKey(ctx: AppContext, input: { key: string }): Promise<UserRow | undefined> {
  const { db } = ctx;
  const row = await db
    .selectFrom('password_resets')
    .select(['user_id', 'created_at'])
    .where('key_hash', '=', hashKey(input.key))
    .executeTakeFirst();
  if (!row || row.created_at + KEY_LIFETIME_MS <= Date.now()) return undefined;
  const user = await findUserById(db, row.user_id);
  return user?.is_active ? user : undefined;
}

/**
 * Sets the new password of a reset. Every reset key of the user goes (single use), and so do all
 * of the user's sessions: whoever knew the old password is logged out.
 */
export async function resetPassword(
  ctx: AppContext,
  user: UserRow,
  input: { password1: string; password2: string },
): Promise<void> {
  const problems = newPasswordProblems(input.password1, input.password2);
  if (problems.password1.length + problems.password2.length > 0) {
    throw new FormError(400, [], { password2: problems.password2 });
  }
  const passwordHash = await hashPassword(input.password1);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', user.id).execute();
    const hashes = await sessionHashesOf(trx, user.id);
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    return hashes;
  });
  await endLiveSessions(ctx, ended);
}
