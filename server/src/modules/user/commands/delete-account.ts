import type { AppContext } from '../../../context';
import { HttpError } from '../../../http/errors';
import { endLiveSessions } from '../../../ws/hub';
import { removeAvatarFile } from '../avatar';
import { verifyPassword } from '../passwords';
import type { UserRow } from '../queries';
import { sessionHashesOf } from '../sessions';

/**
 * Deletes the account and, through the foreign keys' cascades, everything it owns: addresses,
 * sessions, contacts, invites, documents, images, bibliography, social accounts.
 * Staff accounts go through the admin interface (403); a wrong password is a 401.
 */
export async function deleteAccount(ctx: AppContext, user: UserRow, password: string): Promise<void> {
  if (user.is_staff) throw new HttpError(403, { message: { key: 'accounts.staffDelete' } });
  if (!(await verifyPassword(user.password_hash, password))) {
    throw new HttpError(401, { error: 'wrong_password', message: { key: 'accounts.passwordIncorrect' } });
  }
  const sessions = await sessionHashesOf(ctx.db, user.id);
  await ctx.db.deleteFrom('users').where('id', '=', user.id).execute();
  await endLiveSessions(ctx, sessions);
  await removeAvatarFile(ctx.config.dataDir, user.avatar);
}
