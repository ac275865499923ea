import type { Image, SaveImageFields } from '@scriptorium/common/api/usermedia';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/database';
import { HttpError } from '../../../http/errors';
import type { Actor } from '../../command';
import { withFileLock } from '../file-locks';
import { assertOwnCategories } from '../policies';
import type { PreparedImage } from '../prepare-image';
import { presentImage } from '../presenters';
import { categoriesByImage, findOwnImage, findOwnImageByHash, touchImageState } from '../queries';
import { makeThumbnail, prepareImageInWorker, storeImageFiles } from '../storage';
import { removeFilesIfUnused } from '../unused-files';

async function replaceCategories(db: Db, imageId: number, cats: number[]): Promise<void> {
  await db.deleteFrom('usermedia_image_categories').where('image_id', '=', imageId).execute();
  const unique = [...new Set(cats)];
  if (unique.length > 0) {
    await db
      .insertInto('usermedia_image_categories')
      .values(unique.map((category_id) => ({ image_id: imageId, category_id })))
      .execute();
  }
}

async function present(db: Db, ownerId: number, imageId: number): Promise<Image> {
  const row = await findOwnImage(db, ownerId, imageId);
  if (!row) throw new HttpError(404);
  const cats = await categoriesByImage(db, ownerId, [imageId]);
  return presentImage(row, cats.get(imageId) ?? []);
}

/** Title, categories and copyright of an image the user owns; the file never changes. */
export async function updateImage(ctx: AppContext, owner: Actor, fields: SaveImageFields): Promise<Image> {
  const ownerId = owner.id;
  return ctx.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('usermedia_images')
      .set({
        title: fields.title,
        copyright_holder: fields.copyright.holder,
        licence: fields.copyright.licence,
      })
      .where('owner_id', '=', ownerId)
      .where('id', '=', fields.id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new HttpError(404);
    await assertOwnCategories(trx, ownerId, fields.cats);
    await replaceCategories(trx, fields.id, fields.cats);
    await touchImageState(trx, ownerId);
    return present(trx, ownerId, fields.id);
  });
}

/**
 * A new image from an uploaded file. The same file uploaded again by the same user is the image
 * they already have (its id, title and categories), so the library holds it once.
 */
export async function createImage(
  ctx: AppContext,
  owner: Actor,
  input: SaveImageFields & { file: Buffer },
): Promise<{ image: Image; existed: boolean }> {
  const { file: upload, ...fields } = input;
  const ownerId = owner.id;
  // Categories first: a foreign category id must not leave a stored file behind.
  await assertOwnCategories(ctx.db, ownerId, fields.cats);
  const prepared: PreparedImage = await prepareImageInWorker(ctx.config, upload);
  return withFileLock(prepared.sha256, async () => {
    const existing = await findOwnImageByHash(ctx.db, ownerId, prepared.sha256);
    if (existing) return { image: await present(ctx.db, ownerId, existing.id), existed: true };
    // Files before the row: a committed row always has its file. A failed insert removes them
    // again unless another image uses the same file.
    await storeImageFiles(ctx.config.dataDir, prepared);
    const image = await insertImage(ctx, ownerId, fields, prepared).catch(async (error: unknown) => {
      await removeFilesIfUnused(ctx.db, ctx.config.dataDir, prepared.sha256, prepared.fileType);
      throw error;
    });
    // Off the request path: the answer does not depend on it, and the media route waits for it.
    if (!prepared.thumbnail) {
      void makeThumbnail(ctx.config, prepared.sha256, prepared.fileType);
    }
    return { image, existed: false };
  });
}

async function insertImage(
  ctx: AppContext,
  ownerId: number,
  fields: SaveImageFields,
  prepared: PreparedImage,
): Promise<Image> {
  return ctx.db.transaction().execute(async (trx) => {
    await assertOwnCategories(trx, ownerId, fields.cats);
    const inserted = await trx
      .insertInto('usermedia_images')
      .values({
        owner_id: ownerId,
        title: fields.title,
        sha256: prepared.sha256,
        file_type: prepared.fileType,
        width: prepared.width,
        height: prepared.height,
        size: prepared.bytes.length,
        copyright_holder: fields.copyright.holder,
        licence: fields.copyright.licence,
        added: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await replaceCategories(trx, inserted.id, fields.cats);
    await touchImageState(trx, ownerId);
    return present(trx, ownerId, inserted.id);
  });
}
