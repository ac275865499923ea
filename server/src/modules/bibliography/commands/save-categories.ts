import type { BibCategory } from '@scriptorium/common/bibliography/types';
import type { AppContext } from '../../../context';
import { writeCategoryEdits } from '../../../db/category-edits';
import type { Actor } from '../../command';
import { assertOwnCategories } from '../policies';
import { presentCategory } from '../presenters';
import { listOwnCategories } from '../queries';

/**
 * Spec section 7, save_category: id 0 adds a category, another id renames one of the owner's.
 * Titles are trimmed and empty ones dropped (as for image categories, spec 5). Removal is
 * delete_category's job. Answers all the owner's categories.
 */
export async function saveCategories(
  ctx: AppContext,
  owner: Actor,
  input: { ids: number[]; titles: string[] },
): Promise<BibCategory[]> {
  const ownerId = owner.id;
  const edits = input.ids
    .map((id, i) => ({ id, title: (input.titles[i] ?? '').trim() }))
    .filter((edit) => edit.title !== '');
  return ctx.db.transaction().execute(async (trx) => {
    await assertOwnCategories(
      trx,
      ownerId,
      edits.filter((e) => e.id !== 0).map((e) => e.id),
    );
    await writeCategoryEdits(trx, 'bib_categories', ownerId, edits);
    return (await listOwnCategories(trx, ownerId)).map(presentCategory);
  });
}
