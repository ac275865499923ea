import type { AppContext } from '../../../context';
import { deleteOwned } from '../../../db/owned';
import { assertOwnEntries } from '../policies';
import { lockOwnerState, type OwnerState, touchOwnerState } from '../queries';

/** Spec section 7, delete: removes the owner's entries; a foreign id is a 404 and nothing goes. */
export async function deleteEntries(
  ctx: AppContext,
  ownerId: number,
  ids: number[],
): Promise<{ before: OwnerState; after: OwnerState }> {
  const unique = [...new Set(ids)];
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockOwnerState(trx, ownerId);
    await assertOwnEntries(trx, ownerId, unique);
    await deleteOwned(trx, 'bib_entries', ownerId, unique);
    return { before, after: await touchOwnerState(trx, ownerId, before) };
  });
}
