import type { AppContext } from '../../../context';
import { FieldMessagesError } from '../field-errors';
import { newPasswordProblems } from '../password-rules';
import { hashPassword, verifyPassword } from '../passwords';
import type { UserRow } from '../queries';
import { endOtherSessions } from '../sessions';

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
  await ctx.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
  await ctx.db.deleteFrom('password_resets').where('user_id', '=', user.id).execute();
  await endOtherSessions(ctx, user.id, input.sessionHash);
}
