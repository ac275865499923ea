import type { AppContext } from '../../../context';
import { assertOwnEntries } from '../policies';
import { lockOwnerState, type OwnerState, touchOwnerState } from '../queries';

const ID_BATCH = 900;

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
    for (let i = 0; i < unique.length; i += ID_BATCH) {
      await trx
        .deleteFrom('bib_entries')
        .where('owner_id', '=', ownerId)
        .where('id', 'in', unique.slice(i, i + ID_BATCH))
        .execute();
    }
    return { before, after: await touchOwnerState(trx, ownerId, before) };
  });
}
