import type { ImagesResponse } from '@scriptorium/common/api/usermedia';
import type { Db } from '../../../db/database';
import { presentCategory, presentImage } from '../presenters';
import { categoriesByImage, listOwnCategories, listOwnImages } from '../queries';

/** GET /api/usermedia/images/: the user's images and image categories. */
export async function listImages(db: Db, ownerId: number): Promise<ImagesResponse> {
  const [rows, cats, categories] = await Promise.all([
    listOwnImages(db, ownerId),
    categoriesByImage(db, ownerId),
    listOwnCategories(db, ownerId),
  ]);
  return {
    images: rows.map((row) => presentImage(row, cats.get(row.id) ?? [])),
    imageCategories: categories.map(presentCategory),
  };
}
