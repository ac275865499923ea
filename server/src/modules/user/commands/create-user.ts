import { isValidUsername } from '@scriptorium/common/api/user';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { searchNames } from '../../../db/search-names';
import { hashPassword } from '../passwords';
import { findUserById, usernameTaken } from '../queries';

export interface CreateUserInput {
  username: string;
  email: string;
  password: string | null;
  firstName?: string;
  lastName?: string;
  isStaff?: boolean;
  isActive?: boolean;
  /** Whether the e-mail address counts as confirmed (true for accounts an operator creates). */
  emailVerified?: boolean;
  language?: string | null;
}

/** Why an account could not be created; the caller turns it into a form or CLI message. */
export class UserConflictError extends Error {
  constructor(readonly field: 'username' | 'email') {
    super(`${field} taken`);
  }
}

/** The username breaks USERNAME_PATTERN (e.g. contains '@'). */
export class InvalidUsernameError extends Error {}

/** Creates a user with one primary e-mail address, in one transaction. */
export async function createUser(ctx: Pick<AppContext, 'db'>, input: CreateUserInput): Promise<UserRow> {
  const username = input.username.trim();
  const email = input.email.trim();
  if (!isValidUsername(username)) throw new InvalidUsernameError(username);
  // Hash outside the transaction: argon2 takes tens of milliseconds and SQLite has one writer.
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  const id = await ctx.db.transaction().execute(async (trx) => {
    if (await usernameTaken(trx, username)) throw new UserConflictError('username');
    const emailTaken = await trx
      .selectFrom('user_emails')
      .select('id')
      .where('address_lower', '=', email.toLowerCase())
      .executeTakeFirst();
    if (emailTaken) throw new UserConflictError('email');

    const user = await trx
      .insertInto('users')
      .values({
        username,
        username_lower: username.toLowerCase(),
        first_name: input.firstName ?? '',
        last_name: input.lastName ?? '',
        ...searchNames(input.firstName ?? '', input.lastName ?? ''),
        password_hash: passwordHash,
        is_staff: input.isStaff ? 1 : 0,
        is_active: input.isActive === false ? 0 : 1,
        language: input.language ?? null,
        avatar: null,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('user_emails')
      .values({
        user_id: user.id,
        address: email,
        address_lower: email.toLowerCase(),
        is_primary: 1,
        verified: input.emailVerified === false ? 0 : 1,
      })
      .execute();
    return user.id;
  });
  const user = await findUserById(ctx.db, id);
  if (!user) throw new Error('created user vanished');
  return user;
}
