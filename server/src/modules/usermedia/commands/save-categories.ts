import {
  type CategoryEdit,
  type ImageCategory,
  normaliseCategoryEdits,
} from '@scriptorium/common/api/usermedia';
import type { AppContext } from '../../../context';
import { writeCategoryEdits } from '../../../db/category-edits';
import { deleteOwned } from '../../../db/owned';
import { lockOwner } from '../../../db/owner-lock';
import type { Actor } from '../../command';
import { assertOwnCategories } from '../policies';
import { presentCategory } from '../presenters';
import { listOwnCategories, touchImageState } from '../queries';

/**
 * Replaces the user's category list (spec section 5): titles trimmed, empty ones dropped, id 0
 * new, and categories left out are removed (their images simply lose them). A foreign id is a
 * 404 and nothing changes.
 */
export async function saveCategories(
  ctx: AppContext,
  owner: Actor,
  input: { ids: number[]; titles: string[] },
): Promise<ImageCategory[]> {
  const ownerId = owner.id;
  const edits: CategoryEdit[] = normaliseCategoryEdits(input.ids, input.titles);
  return ctx.db.transaction().execute(async (trx) => {
    await lockOwner(trx, ctx.dialect, 'usermedia_categories', ownerId);
    const kept = edits.filter((edit) => edit.id !== 0).map((edit) => edit.id);
    await assertOwnCategories(trx, ownerId, kept);
    // Before the inserts: the new rows are not in `kept` either.
    let gone = trx.selectFrom('usermedia_categories').select('id').where('owner_id', '=', ownerId);
    if (kept.length > 0) gone = gone.where('id', 'not in', kept);
    const goneIds = (await gone.execute()).map((row) => row.id);
    if (goneIds.length > 0) {
      // Explicit rather than relying on ON DELETE CASCADE, which SQLite honours only with the pragma.
      await trx.deleteFrom('usermedia_image_categories').where('category_id', 'in', goneIds).execute();
      await deleteOwned(trx, 'usermedia_categories', ownerId, goneIds);
    }
    await writeCategoryEdits(trx, 'usermedia_categories', ownerId, edits);
    await touchImageState(trx, ownerId);
    return (await listOwnCategories(trx, ownerId)).map(presentCategory);
  });
}
