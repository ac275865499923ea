import type { AppContext } from '../../../context';
import type { Actor } from '../../command';
import { requireVisible } from '../policies';

/**
 * Deletes the user's own documents and leaves the shared ones (a collaborator cannot delete the
 * owner's work). One unknown id answers 404 and nothing changes.
 */
export async function deleteDocuments(
  ctx: AppContext,
  actor: Actor,
  input: { ids: number[] },
): Promise<{ deleted: number[]; left: number[] }> {
  const unique = [...new Set(input.ids)];
  return ctx.db.transaction().execute(async (trx) => {
    const deleted: number[] = [];
    const left: number[] = [];
    for (const id of unique) {
      const doc = await requireVisible(trx, actor.id, id);
      (doc.rights === null ? deleted : left).push(id);
    }
    // Chunked: SQLite limits the number of bound parameters per statement.
    for (let i = 0; i < deleted.length; i += 500) {
      const chunk = deleted.slice(i, i + 500);
      await trx.deleteFrom('documents').where('id', 'in', chunk).where('owner_id', '=', actor.id).execute();
    }
    for (let i = 0; i < left.length; i += 500) {
      const chunk = left.slice(i, i + 500);
      await trx
        .deleteFrom('document_access')
        .where('document_id', 'in', chunk)
        .where('user_id', '=', actor.id)
        .execute();
    }
    return { deleted, left };
  });
}
