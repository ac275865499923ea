import { cleanPath } from '@scriptorium/common/rules/paths';
import type { Db } from '../../../db/database';
import { requireVisible } from '../policies';

/**
 * The generic move call (spec 7): the owner changes the document's path, a collaborator their own.
 * Each update is filtered by owner or holder in the query itself.
 */
export async function moveDocument(
  db: Db,
  userId: number,
  input: { id: number; path: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const doc = await requireVisible(trx, userId, input.id);
    const path = cleanPath(input.path, doc.title);
    if (doc.rights === null) {
      await trx
        .updateTable('documents')
        .set({ path })
        .where('id', '=', input.id)
        .where('owner_id', '=', userId)
        .execute();
    } else {
      await trx
        .updateTable('document_access')
        .set({ path })
        .where('document_id', '=', input.id)
        .where('user_id', '=', userId)
        .execute();
    }
  });
}
