import type { BibCategory } from '@scriptorium/common/bibliography/types';
import type { AppContext } from '../../../context';
import { changeStamp } from '../../../db/database';
import { keptWhileUnchanged } from '../../../db/kept';
import type { Actor } from '../../command';
import { entryJson, presentCategory } from '../presenters';
import { listOwnCategories, type OwnerState, readOwnerState } from '../queries';

export interface ClientCache {
  last_modified: number;
  number_of_entries: number;
  user_id: number;
}

/**
 * The owner's state row and the answer's head (the categories) while the database is unchanged
 * (SQLite, see keptWhileUnchanged): the unchanged check then runs no query at all.
 */
const keptHeads = keptWhileUnchanged<number, { state: OwnerState; head: string }>(10_000);

/**
 * Spec section 7, biblist: the categories always; the entries only when the client's copy is
 * stale (a newer change here, another count, or another user's cache). The current check reads
 * one state row and the categories, never the entries. Answers JSON text: see entryJson.
 */
export async function listBibliography(
  ctx: AppContext,
  owner: Actor,
  cache: ClientCache,
  /** The request's change stamp (request.changeStamp), read before any of its queries. */
  stamp = changeStamp(ctx.db),
): Promise<string> {
  const ownerId = owner.id;
  const { state, head } = await keptHeads(
    ctx.db,
    ownerId,
    async () => {
      const [state, categories] = await Promise.all([
        readOwnerState(ctx.db, ownerId),
        listOwnCategories(ctx.db, ownerId),
      ]);
      const bibCategories: BibCategory[] = categories.map(presentCategory);
      return { state, head: `{"bib_categories":${JSON.stringify(bibCategories)},"user_id":${ownerId}` };
    },
    stamp,
  );
  const current =
    cache.user_id === ownerId &&
    cache.number_of_entries === state.number_of_entries &&
    cache.last_modified >= state.last_modified;
  if (current) return `${head}}`;

  const rows = await ctx.db
    .selectFrom('bib_entries')
    .select(['id', 'entry_key', 'bib_type', 'fields', 'cats'])
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
  // The stamp is read before the rows; a write in between makes the next check fetch again.
  return `${head},"bib_list":[${rows.map(entryJson).join(',')}],"last_modified":${state.last_modified},"number_of_entries":${rows.length}}`;
}
