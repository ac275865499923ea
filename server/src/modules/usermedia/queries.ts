import type { Db } from '../../db/database';
import type { CategoryRow, ImageRow } from './presenters';

/** Every query here is filtered by owner: another user's rows are invisible, never "forbidden". */

export async function listOwnImages(db: Db, ownerId: number): Promise<ImageRow[]> {
  return db
    .selectFrom('usermedia_images')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
}

export async function listOwnCategories(db: Db, ownerId: number): Promise<CategoryRow[]> {
  return db
    .selectFrom('usermedia_categories')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
}

/** Category ids per image, for the given owner's images (or only those listed). */
export async function categoriesByImage(
  db: Db,
  ownerId: number,
  imageIds?: number[],
): Promise<Map<number, number[]>> {
  let query = db
    .selectFrom('usermedia_image_categories as link')
    .innerJoin('usermedia_images as image', 'image.id', 'link.image_id')
    .select(['link.image_id', 'link.category_id'])
    .where('image.owner_id', '=', ownerId)
    .orderBy('link.category_id');
  if (imageIds) {
    if (imageIds.length === 0) return new Map();
    query = query.where('link.image_id', 'in', imageIds);
  }
  const byImage = new Map<number, number[]>();
  for (const link of await query.execute()) {
    const list = byImage.get(link.image_id);
    if (list) list.push(link.category_id);
    else byImage.set(link.image_id, [link.category_id]);
  }
  return byImage;
}

export async function findOwnImage(db: Db, ownerId: number, id: number): Promise<ImageRow | undefined> {
  return db
    .selectFrom('usermedia_images')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findOwnImageByHash(
  db: Db,
  ownerId: number,
  sha256: string,
): Promise<ImageRow | undefined> {
  return db
    .selectFrom('usermedia_images')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('sha256', '=', sha256)
    .executeTakeFirst();
}
