import type { Db } from '../../db/database';
import { countOwned } from '../../db/owned';
import { preparedQuery } from '../../db/prepared';
import type { CategoryRow, ImageRow } from './presenters';

/** Every query here is filtered by owner: another user's rows are invisible, never "forbidden". */

/** The owner's images (every query of one image or of the list starts here). */
function ownImages(db: Db, ownerId: number) {
  return db.selectFrom('usermedia_images').selectAll().where('owner_id', '=', ownerId);
}

export async function listOwnImages(db: Db, ownerId: number): Promise<ImageRow[]> {
  return ownImages(db, ownerId).orderBy('id').execute();
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
  return ownImages(db, ownerId).where('id', '=', id).executeTakeFirst();
}

/** The owner's images of those listed (another owner's ids find nothing). */
export async function findOwnImages(db: Db, ownerId: number, ids: readonly number[]): Promise<ImageRow[]> {
  return ownImages(db, ownerId).where('id', 'in', ids).execute();
}

export async function findOwnImageByHash(
  db: Db,
  ownerId: number,
  sha256: string,
): Promise<ImageRow | undefined> {
  return ownImages(db, ownerId).where('sha256', '=', sha256).executeTakeFirst();
}

export interface ImageLibraryState {
  last_modified: number;
  number_of_images: number;
}

type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'updateTable'>;

const stateQuery = preparedQuery((db: Db, ownerId: number) =>
  db
    .selectFrom('usermedia_owner_state')
    .select(['last_modified', 'number_of_images'])
    .where('owner_id', '=', ownerId),
);

/** The owner's change stamp and image count; a library never changed has 0 and 0. */
export async function readImageState(db: Db, ownerId: number): Promise<ImageLibraryState> {
  const [row] = await stateQuery(db, ownerId);
  return row
    ? { last_modified: Number(row.last_modified), number_of_images: row.number_of_images }
    : { last_modified: 0, number_of_images: 0 };
}

/**
 * Records a change to the owner's image library, inside the transaction that made it: a strictly
 * newer stamp (even within one millisecond) and the new count. Every write to the images, their
 * categories or the links between them calls this, so that the stamp tells a cache (the browser's,
 * and the list answer cached in listImages) whether it is current.
 */
export async function touchImageState(trx: Executor, ownerId: number): Promise<ImageLibraryState> {
  await trx
    .insertInto('usermedia_owner_state')
    .values({ owner_id: ownerId, last_modified: 0, number_of_images: 0 })
    // Touching the row takes its lock first (PostgreSQL): concurrent writers of one owner queue
    // here and each reads the stamp and count the one before left.
    .onConflict((oc) =>
      oc
        .column('owner_id')
        .doUpdateSet((eb) => ({ last_modified: eb.ref('usermedia_owner_state.last_modified') })),
    )
    .execute();
  const before = await trx
    .selectFrom('usermedia_owner_state')
    .select('last_modified')
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  const state = {
    last_modified: Math.max(Date.now(), Number(before.last_modified) + 1),
    number_of_images: await countOwned(trx, 'usermedia_images', ownerId),
  };
  await trx.updateTable('usermedia_owner_state').set(state).where('owner_id', '=', ownerId).execute();
  return state;
}
