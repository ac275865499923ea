import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { endLiveSessions } from '../../../ws/hub';
import { FieldMessagesError } from '../field-errors';
import { newPasswordProblems } from '../password-rules';
import { hashPassword, verifyPassword } from '../passwords';
import { deleteOtherSessions } from '../sessions';

/** Changes the password from the profile; the user's other sessions end, this one stays. */
export async function changePassword(
  ctx: AppContext,
  user: UserRow,
  input: { oldPassword: string; newPassword1: string; newPassword2: string; sessionHash: string | null },
): Promise<void> {
  if (!(await verifyPassword(user.password_hash, input.oldPassword))) {
    throw new FieldMessagesError({ old_password: [{ key: 'accounts.oldPasswordWrong' }] });
  }
  const problems = newPasswordProblems(input.newPassword1, input.newPassword2);
  if (problems.password2.length > 0) throw new FieldMessagesError({ new_password2: problems.password2 });
  const passwordHash = await hashPassword(input.newPassword1);
  // One transaction: a new password never stands while a session opened with the old one lives on.
  const ended = await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', user.id).execute();
    return deleteOtherSessions(trx, user.id, input.sessionHash);
  });
  await endLiveSessions(ctx, ended);
}
