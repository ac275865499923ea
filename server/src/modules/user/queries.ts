import type { Db } from '../../db/database';
import type { UserRow } from '../../db/rows';

/** Whether another account (any but exceptUserId) already has this username, in any case. */
export async function usernameTaken(db: Db, username: string, exceptUserId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('username_lower', '=', username.toLowerCase());
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Login by username or by any of the user's e-mail addresses, case-insensitively. */
/**
 * The account a login names. Something with an '@' is an e-mail address: verified addresses win
 * over unverified ones, so that nobody can take over another person's e-mail login by adding
 * that address unconfirmed (or, before '@' was refused, by naming an account after it).
 */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const lowered = login.trim().toLowerCase();
  const byEmail = () =>
    db
      .selectFrom('users')
      .innerJoin('user_emails', 'user_emails.user_id', 'users.id')
      .selectAll('users')
      .where('user_emails.address_lower', '=', lowered)
      .orderBy('user_emails.verified', 'desc')
      .orderBy('user_emails.id')
      .executeTakeFirst();
  const byName = () =>
    db.selectFrom('users').selectAll().where('username_lower', '=', lowered).executeTakeFirst();
  if (lowered.includes('@')) return (await byEmail()) ?? (await byName());
  return (await byName()) ?? (await byEmail());
}
