import { isValidUsername } from '@scriptorium/common/api/user';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { searchNames } from '../../../db/search-names';
import { fieldError } from '../field-errors';
import { usernameTaken } from '../queries';

export interface ProfileInput {
  username: string;
  first_name: string;
  last_name: string;
}

/** Saves the names; the username must keep to the allowed characters and be free (any case). */
export async function saveProfile(ctx: AppContext, user: UserRow, input: ProfileInput): Promise<void> {
  if (!isValidUsername(input.username)) throw fieldError('username', 'accounts.usernameInvalid');
  const lowered = input.username.toLowerCase();
  await ctx.db.transaction().execute(async (trx) => {
    if (await usernameTaken(trx, input.username, user.id))
      throw fieldError('username', 'accounts.usernameTaken');
    await trx
      .updateTable('users')
      .set({
        username: input.username,
        username_lower: lowered,
        first_name: input.first_name,
        last_name: input.last_name,
        ...searchNames(input.first_name, input.last_name),
      })
      .where('id', '=', user.id)
      .execute();
  });
}
