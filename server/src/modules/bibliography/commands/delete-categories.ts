import type { AppContext } from '../../../context';
import { deleteOwned } from '../../../db/owned';
import type { Actor } from '../../command';
import { assertOwnCategories } from '../policies';
import { lockOwnerState, type OwnerState, touchOwnerState } from '../queries';

/**
 * Spec section 7, delete_category: removes the owner's categories and takes them off the
 * entries that had them (which changes those entries, so the list's stamp moves on).
 */
export async function deleteCategories(
  ctx: AppContext,
  owner: Actor,
  input: { ids: number[] },
): Promise<{ before: OwnerState; after: OwnerState }> {
  const ownerId = owner.id;
  const gone = new Set(input.ids);
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockOwnerState(trx, ownerId);
    await assertOwnCategories(trx, ownerId, [...gone]);
    const rows = await trx
      .selectFrom('bib_entries')
      .select(['id', 'cats'])
      .where('owner_id', '=', ownerId)
      .where('cats', '!=', '[]')
      .execute();
    const now = Date.now();
    for (const row of rows) {
      const cats = JSON.parse(row.cats) as number[];
      const kept = cats.filter((c) => !gone.has(c));
      if (kept.length === cats.length) continue;
      await trx
        .updateTable('bib_entries')
        .set({ cats: JSON.stringify(kept), updated_at: now })
        .where('owner_id', '=', ownerId)
        .where('id', '=', row.id)
        .execute();
    }
    await deleteOwned(trx, 'bib_categories', ownerId, [...gone]);
    return { before, after: await touchOwnerState(trx, ownerId, before) };
  });
}
