import type { ImageType } from '@scriptorium/common/api/usermedia';
import type { Db } from '../../db/database';
import { removeImageFiles } from './storage';

/**
 * Removes an image's files once no image of anybody refers to them. Call it under the file's lock
 * (withFileLock), so that an upload of the same file cannot slip in between check and removal.
 */
export async function removeFilesIfUnused(
  db: Db,
  dataDir: string,
  sha256: string,
  fileType: ImageType,
): Promise<void> {
  const stillUsed = await db
    .selectFrom('usermedia_images')
    .select('id')
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  if (!stillUsed) await removeImageFiles(dataDir, sha256, fileType);
}
