import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { HttpError } from '../../../http/errors';
import { fieldError } from '../field-errors';

/** Disconnects a social account; the last way to log in of a password-less account stays. */
export async function deleteSocialAccount(
  ctx: AppContext,
  user: UserRow,
  input: { socialaccount: number },
): Promise<string> {
  const id = input.socialaccount;
  return ctx.db.transaction().execute(async (trx) => {
    const accounts = await trx
      .selectFrom('social_accounts')
      .select(['id', 'provider'])
      .where('user_id', '=', user.id)
      .execute();
    const account = accounts.find((a) => a.id === id);
    if (!account) throw new HttpError(404);
    if (!user.password_hash && accounts.length === 1) {
      throw fieldError('socialaccount', 'accounts.lastLoginMethod');
    }
    await trx.deleteFrom('social_accounts').where('id', '=', id).where('user_id', '=', user.id).execute();
    return account.provider;
  });
}
