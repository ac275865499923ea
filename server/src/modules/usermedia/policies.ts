import type { Db } from '../../db/database';
import { ownsAll } from '../../db/owned';
import { HttpError } from '../../http/errors';
import { findOwnImageByHash } from './queries';

/**
 * Who may do what with images. The owner does everything; nobody else learns that an image or a
 * category exists (404, never 403). The authors of a document see the images its figures
 * use (canReadMediaFile).
 */

/** 404 unless every id names a category of the owner. */
export async function assertOwnCategories(db: Db, ownerId: number, ids: readonly number[]): Promise<void> {
  if (!(await ownsAll(db, 'usermedia_categories', ownerId, ids))) throw new HttpError(404);
}

/**
 * May this user fetch the file with this hash? Its owner may; and the authors of a document whose
 * figures use it, as long as the image is still in the library of one of that document's authors
 * (issue 17: co-authors see the images of a shared document, and nothing else of the library).
 * A document's figures count only for images of the library of whoever brought them in or of the
 * document's owner (`recordDocumentImages` in collab/store.ts): naming someone else's image in a
 * figure shows it to nobody (issue 50).
 */
export async function canReadMediaFile(
  db: Db,
  userId: number,
  sha256: string,
): Promise<{ fileType: string } | null> {
  const own = await findOwnImageByHash(db, userId, sha256);
  if (own) return { fileType: own.file_type };
  const shared = await db
    .selectFrom('usermedia_images as i')
    .innerJoin('document_images as di', 'di.sha256', 'i.sha256')
    .innerJoin('documents as d', 'd.id', 'di.document_id')
    .select('i.file_type')
    .where('i.sha256', '=', sha256)
    .where((eb) =>
      eb.or([
        eb('d.owner_id', '=', userId),
        eb.exists(
          eb
            .selectFrom('document_access as reader')
            .select('reader.id')
            .whereRef('reader.document_id', '=', 'd.id')
            .where('reader.user_id', '=', userId),
        ),
      ]),
    )
    .where((eb) =>
      eb.or([
        eb('d.owner_id', '=', eb.ref('i.owner_id')),
        eb.exists(
          eb
            .selectFrom('document_access as author')
            .select('author.id')
            .whereRef('author.document_id', '=', 'd.id')
            .whereRef('author.user_id', '=', 'i.owner_id'),
        ),
      ]),
    )
    .executeTakeFirst();
  return shared ? { fileType: shared.file_type } : null;
}
