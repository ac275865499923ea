import type { AppContext } from '../../../context';
import { deleteOwned } from '../../../db/owned';
import type { Actor } from '../../command';
import { assertOwnEntries } from '../policies';
import { lockOwnerState, type OwnerState, touchOwnerState } from '../queries';

/** Spec section 7, delete: removes the owner's entries; a foreign id is a 404 and nothing goes. */
export async function deleteEntries(
  ctx: AppContext,
  owner: Actor,
  input: { ids: number[] },
): Promise<{ before: OwnerState; after: OwnerState }> {
  const ownerId = owner.id;
  const unique = [...new Set(input.ids)];
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockOwnerState(trx, ownerId);
    await assertOwnEntries(trx, ownerId, unique);
    await deleteOwned(trx, 'bib_entries', ownerId, unique);
    return { before, after: await touchOwnerState(trx, ownerId, before) };
  });
}
