import type { Kysely, Transaction } from 'kysely';
import { countOwned } from '../../db/owned';
import type { Database } from '../../db/schema';

type Executor = Kysely<Database> | Transaction<Database>;

export interface OwnerState {
  last_modified: number;
  number_of_entries: number;
}

/** The owner's change stamp and entry count; an owner who never saved has 0 and 0. */
export async function readOwnerState(db: Executor, ownerId: number): Promise<OwnerState> {
  const row = await db
    .selectFrom('bib_owner_state')
    .select(['last_modified', 'number_of_entries'])
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return row
    ? { last_modified: Number(row.last_modified), number_of_entries: row.number_of_entries }
    : { last_modified: 0, number_of_entries: 0 };
}

/**
 * Opens a write to the owner's bibliography: creates or touches the state row first, so that on
 * PostgreSQL concurrent writers of the same owner queue behind its row lock (key uniqueness is
 * decided in application code and must see the other writer's keys). Returns the state before.
 */
export async function lockOwnerState(trx: Transaction<Database>, ownerId: number): Promise<OwnerState> {
  await trx
    .insertInto('bib_owner_state')
    .values({ owner_id: ownerId, last_modified: 0, number_of_entries: 0 })
    .onConflict((oc) =>
      oc.column('owner_id').doUpdateSet((eb) => ({ last_modified: eb.ref('bib_owner_state.last_modified') })),
    )
    .execute();
  return readOwnerState(trx, ownerId);
}

/** Records a change: a strictly newer stamp (even within one millisecond) and the new count. */
export async function touchOwnerState(
  trx: Transaction<Database>,
  ownerId: number,
  before: OwnerState,
): Promise<OwnerState> {
  const state = {
    last_modified: Math.max(Date.now(), before.last_modified + 1),
    number_of_entries: await countOwned(trx, 'bib_entries', ownerId),
  };
  await trx.updateTable('bib_owner_state').set(state).where('owner_id', '=', ownerId).execute();
  return state;
}

export async function listOwnCategories(db: Executor, ownerId: number) {
  return db
    .selectFrom('bib_categories')
    .select(['id', 'category_title'])
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
}
