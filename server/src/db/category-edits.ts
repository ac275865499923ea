import type { Db } from './database';

/** The two per-owner category lists (images, bibliography): same columns, same edits. */
export type CategoryTable = 'usermedia_categories' | 'bib_categories';

/**
 * Writes category edits of one owner: id 0 adds a category, another id renames one of the
 * owner's. The caller has checked the ids (assertOwnCategories) and trimmed the titles.
 */
export async function writeCategoryEdits(
  trx: Db,
  table: CategoryTable,
  ownerId: number,
  edits: readonly { id: number; title: string }[],
): Promise<void> {
  for (const edit of edits) {
    if (edit.id === 0) {
      await trx.insertInto(table).values({ owner_id: ownerId, category_title: edit.title }).execute();
    } else {
      await trx
        .updateTable(table)
        .set({ category_title: edit.title })
        .where('owner_id', '=', ownerId)
        .where('id', '=', edit.id)
        .execute();
    }
  }
}
