import { cleanPath } from '@scriptorium/common/rules/paths';
import type { AppContext } from '../../../context';
import type { Actor } from '../../command';
import { currentContent } from '../collab/store';
import { requireVisible } from '../policies';
import { findVisibleDocument, type VisibleDocument } from '../queries';

/**
 * Copies documents the user can see into new documents the user owns (title and content; rights
 * stay with the original). `path` puts every copy in that folder, else each keeps its path.
 */
export async function copyDocuments(
  ctx: AppContext,
  actor: Actor,
  input: { ids: number[]; path?: string },
): Promise<VisibleDocument[]> {
  return ctx.db.transaction().execute(async (trx) => {
    const created: VisibleDocument[] = [];
    for (const id of input.ids) {
      const original = await requireVisible(trx, actor.id, id);
      // The snapshot may be a few hundred steps behind: the copy gets the latest version.
      const content = await currentContent(trx, id);
      if (content === undefined) throw new Error(`document ${id} vanished during the copy`);
      const path =
        input.path === undefined ? original.path : cleanPath(input.path, original.title, { several: true });
      const now = Date.now();
      const row = await trx
        .insertInto('documents')
        .values({
          owner_id: actor.id,
          title: original.title,
          path,
          content,
          version: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const copy = await findVisibleDocument(trx, actor.id, row.id);
      if (copy) created.push(copy);
    }
    return created;
  });
}
