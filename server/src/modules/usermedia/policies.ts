import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';

/**
 * Who may do what with images. The owner does everything; nobody else learns that an image or a
 * category exists (404, never 403). Collaborators of documents that use an image will be added
 * to canReadMediaFile when documents can embed images.
 */

/** 404 unless every id names a category of the owner. */
export async function assertOwnCategories(db: Db, ownerId: number, ids: readonly number[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await db
    .selectFrom('usermedia_categories')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('id', 'in', unique)
    .execute();
  if (found.length !== unique.length) throw new HttpError(404);
}

/** May this user fetch the file with this hash? Today: only an owner of an image of it. */
export async function canReadMediaFile(
  db: Db,
  userId: number,
  sha256: string,
): Promise<{ fileType: string } | null> {
  const row = await db
    .selectFrom('usermedia_images')
    .select('file_type')
    .where('owner_id', '=', userId)
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  return row ? { fileType: row.file_type } : null;
}
