import type { AuthenticatedUser, EmailEntry, SocialAccount } from '@scriptorium/common/api/base';
import type { Db } from '../../db/database';
import { hasWaitingInvites } from '../contacts/queries';
import { avatarUrl } from './avatar';
import type { UserRow } from './queries';

/** "First Last", else the username (spec 3: the name shown in contact and menu displays). */
export function displayName(user: Pick<UserRow, 'first_name' | 'last_name' | 'username'>): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.username;
}

export async function presentEmails(db: Db, userId: number): Promise<EmailEntry[]> {
  const rows = await db
    .selectFrom('user_emails')
    .select(['address', 'is_primary', 'verified'])
    .where('user_id', '=', userId)
    // Primary first, then in the order they were added.
    .orderBy('is_primary', 'desc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => ({
    address: row.address,
    primary: row.is_primary === 1,
    verified: row.verified === 1,
  }));
}

export async function presentSocialAccounts(db: Db, userId: number): Promise<SocialAccount[]> {
  const rows = await db
    .selectFrom('social_accounts')
    .select(['id', 'provider', 'name'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, provider: row.provider, name: row.name }));
}

/** The user as the configuration sends it; only these fields ever leave the server. */
export async function presentAuthenticatedUser(db: Db, user: UserRow): Promise<AuthenticatedUser> {
  // Independent reads: concurrent on PostgreSQL's pool, harmless on SQLite.
  const [emails, socialaccounts, waitingInvites] = await Promise.all([
    presentEmails(db, user.id),
    presentSocialAccounts(db, user.id),
    hasWaitingInvites(db, user.id),
  ]);
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
