import type { ImageType } from '@scriptorium/common/api/usermedia';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/database';
import type { UserRow } from '../../../db/rows';
import { HttpError } from '../../../http/errors';
import { endLiveSessions } from '../../../ws/hub';
import { withFileLock } from '../../usermedia/file-locks';
import { removeFilesIfUnused } from '../../usermedia/unused-files';
import { removeAvatarFile } from '../avatar';
import { verifyPassword } from '../passwords';
import { sessionHashesOf } from '../sessions';

/**
 * Deletes the account and, through the foreign keys' cascades, everything it owns: addresses,
 * sessions, contacts, invites, documents, images, bibliography, social accounts.
 * Staff accounts go through the admin interface (403); a wrong password is a 401.
 */
export async function deleteAccount(
  ctx: AppContext,
  user: UserRow,
  input: { password: string },
): Promise<void> {
  if (user.is_staff) throw new HttpError(403, { message: { key: 'accounts.staffDelete' } });
  if (!(await verifyPassword(user.password_hash, input.password))) {
    throw new HttpError(401, { error: 'wrong_password', message: { key: 'accounts.passwordIncorrect' } });
  }
  await removeAccount(ctx, user);
}

/**
 * Removes the account (the cascades take what it owns), denies its live sockets in every process
 * and removes its files. Also used by staff deleting an account (modules/admin).
 */
export async function removeAccount(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'avatar'>,
  beforeDelete?: (trx: Db) => Promise<void>,
): Promise<void> {
  const sessions = await sessionHashesOf(ctx.db, user.id);
  const images = await ctx.db
    .selectFrom('usermedia_images')
    .select(['sha256', 'file_type'])
    .where('owner_id', '=', user.id)
    .execute();
  await ctx.db.transaction().execute(async (trx) => {
    await beforeDelete?.(trx);
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
  });
  await endLiveSessions(ctx, sessions);
  await removeAvatarFile(ctx.config.dataDir, user.avatar);
  // The image rows went with the account; their files go too unless another user has the same file.
  for (const image of images) {
    await withFileLock(image.sha256, () =>
      removeFilesIfUnused(ctx.db, ctx.config.dataDir, image.sha256, image.file_type as ImageType),
    );
  }
}
