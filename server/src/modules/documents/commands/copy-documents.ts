import { cleanPath } from '@scriptorium/common/rules/paths';
import type { Db } from '../../../db/database';
import { currentContent } from '../collab/store';
import { requireVisible } from '../policies';
import { findVisibleDocument, type VisibleDocument } from '../queries';

/**
 * Copies documents the user can see into new documents the user owns (title and content; rights
 * stay with the original). `path` puts every copy in that folder, else each keeps its path.
 */
export async function copyDocuments(
  db: Db,
  userId: number,
  input: { ids: number[]; path?: string },
): Promise<VisibleDocument[]> {
  return db.transaction().execute(async (trx) => {
    const created: VisibleDocument[] = [];
    for (const id of input.ids) {
      const original = await requireVisible(trx, userId, id);
      // The snapshot may be a few hundred steps behind: the copy gets the latest version.
      const content = await currentContent(trx, id);
      if (content === undefined) throw new Error(`document ${id} vanished during the copy`);
      const path =
        input.path === undefined ? original.path : cleanPath(input.path, original.title, { several: true });
      const now = Date.now();
      const row = await trx
        .insertInto('documents')
        .values({
          owner_id: userId,
          title: original.title,
          path,
          content,
          version: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const copy = await findVisibleDocument(trx, userId, row.id);
      if (copy) created.push(copy);
    }
    return created;
  });
}
