import { cleanPath } from '@scriptorium/common/rules/paths';
import type { AppContext } from '../../../context';
import type { Actor } from '../../command';
import { requireVisible } from '../policies';

/**
 * The generic move call (spec 7): the owner changes the document's path, a collaborator their own.
 * Each update is filtered by owner or holder in the query itself.
 */
export async function moveDocument(
  ctx: AppContext,
  actor: Actor,
  input: { id: number; path: string },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const doc = await requireVisible(trx, actor.id, input.id);
    const path = cleanPath(input.path, doc.title);
    if (doc.rights === null) {
      await trx
        .updateTable('documents')
        .set({ path })
        .where('id', '=', input.id)
        .where('owner_id', '=', actor.id)
        .execute();
    } else {
      await trx
        .updateTable('document_access')
        .set({ path })
        .where('document_id', '=', input.id)
        .where('user_id', '=', actor.id)
        .execute();
    }
  });
}
