import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';

export type UserRow = Selectable<UsersTable>;

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Login by username or by any of the user's e-mail addresses, case-insensitively. */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const lowered = login.trim().toLowerCase();
  const byName = await db
    .selectFrom('users')
    .selectAll()
    .where('username_lower', '=', lowered)
    .executeTakeFirst();
  if (byName) return byName;
  return db
    .selectFrom('users')
    .innerJoin('user_emails', 'user_emails.user_id', 'users.id')
    .selectAll('users')
    .where('user_emails.address_lower', '=', lowered)
    .executeTakeFirst();
}
