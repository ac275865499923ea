import type { AuthenticatedUser, SocialAccount } from '@scriptorium/common/api/base';
import { sql } from 'kysely';
import { jsonArrayFrom as postgresJsonArray } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArray } from 'kysely/helpers/sqlite';
import { changeStamp, type Db } from '../../db/database';
import { keptWhileUnchanged } from '../../db/kept';
import { dialectOf, preparedQuery } from '../../db/prepared';
import type { UserRow } from '../../db/rows';
import { avatarUrl } from './avatar';

/** The columns of `users` that displayName reads, for a select joined with users. */
export const NAME_COLUMNS = ['users.username', 'users.first_name', 'users.last_name'] as const;

/** "First Last", else the username (spec 3: the name shown in contact and menu displays). */
export function displayName(user: Pick<UserRow, 'first_name' | 'last_name' | 'username'>): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.username;
}

/** JSON text (SQLite) or already parsed (PostgreSQL's driver parses json columns). */
function parsed<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/**
 * E-mails, social accounts and "has waiting invites" in one query (the configuration is loaded on
 * every page start): the same rows and order as presentEmails, presentSocialAccounts and
 * hasWaitingInvites, which took three round trips.
 */
const configurationQuery = preparedQuery((db: Db, userId: number) => {
  const jsonArrayFrom = dialectOf(db) === 'postgres' ? postgresJsonArray : sqliteJsonArray;
  return db.selectNoFrom((eb) => [
    jsonArrayFrom(
      eb
        .selectFrom('user_emails')
        .select(['address', 'is_primary', 'verified'])
        .where('user_id', '=', userId)
        .orderBy('is_primary', 'desc')
        .orderBy('id', 'asc'),
    ).as('emails'),
    jsonArrayFrom(
      eb
        .selectFrom('social_accounts')
        .select(['id', 'provider', 'name'])
        .where('user_id', '=', userId)
        .orderBy('id'),
    ).as('social'),
    sql<number | boolean>`exists (select 1 from user_invites where to_user_id = ${userId})`.as('invited'),
  ]);
});

/** The configuration's rows per user while the database is unchanged (see keptWhileUnchanged). */
const keptConfigurationRows = keptWhileUnchanged<number, ConfigurationRow>(10_000);
type ConfigurationRow = Awaited<ReturnType<typeof configurationQuery>>[number];

async function configurationRows(db: Db, userId: number, stamp: string | undefined) {
  const row = await keptConfigurationRows(
    db,
    userId,
    async () => (await configurationQuery(db, userId))[0],
    stamp,
  );
  const emails = parsed<{ address: string; is_primary: number; verified: number }[]>(row.emails);
  return {
    emails: emails.map((email) => ({
      address: email.address,
      primary: email.is_primary === 1,
      verified: email.verified === 1,
    })),
    socialaccounts: parsed<SocialAccount[]>(row.social).map((account) => ({
      id: account.id,
      provider: account.provider,
      name: account.name,
    })),
    waitingInvites: Boolean(row.invited),
  };
}

/** The user as the configuration sends it; only these fields ever leave the server. */
export async function presentAuthenticatedUser(
  db: Db,
  user: UserRow,
  /** The request's change stamp (request.changeStamp), if it read one before its queries. */
  stamp = changeStamp(db),
): Promise<AuthenticatedUser> {
  const { emails, socialaccounts, waitingInvites } = await configurationRows(db, user.id, stamp);
  return {
    is_authenticated: true,
    id: user.id,
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    name: displayName(user),
    avatar: avatarUrl(user.avatar),
    emails,
    socialaccounts,
    waiting_invites: waitingInvites,
    is_staff: user.is_staff === 1,
  };
}
