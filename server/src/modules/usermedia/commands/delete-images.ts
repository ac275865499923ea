import type { ImageType } from '@scriptorium/common/api/usermedia';
import type { AppContext } from '../../../context';
import { deleteOwned } from '../../../db/owned';
import { HttpError } from '../../../http/errors';
import type { Actor } from '../../command';
import { withFileLock } from '../file-locks';
import { findOwnImages, touchImageState } from '../queries';
import { removeFilesIfUnused } from '../unused-files';

/**
 * Deletes images of the owner: all of them or, when any id is not theirs, none (404). A file is
 * removed from disk once no image of anybody refers to it any more.
 */
export async function deleteImages(
  ctx: AppContext,
  owner: Actor,
  input: { ids: number[] },
): Promise<number[]> {
  const ownerId = owner.id;
  const unique = [...new Set(input.ids)];
  const removed = await ctx.db.transaction().execute(async (trx) => {
    const rows = await findOwnImages(trx, ownerId, unique);
    if (rows.length !== unique.length) throw new HttpError(404);
    await trx.deleteFrom('usermedia_image_categories').where('image_id', 'in', unique).execute();
    await deleteOwned(trx, 'usermedia_images', ownerId, unique);
    await touchImageState(trx, ownerId);
    return rows;
  });
  for (const row of removed) {
    await withFileLock(row.sha256, () =>
      removeFilesIfUnused(ctx.db, ctx.config.dataDir, row.sha256, row.file_type as ImageType),
    );
  }
  return unique;
}
