import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Runs inside the transaction that ends a connection between users `a` and `b`. The documents
 * module registers one to end every document right between the two (issue "Contacts and
 * invites": the rights end with the connection), so both happen or neither does.
 */
export type ContactRemovedHook = (trx: Transaction<Database>, a: number, b: number) => Promise<void>;

const hooks = new Map<string, ContactRemovedHook>();

/** Registers (or replaces, so a second app in one process does not run it twice) a hook by name. */
export function registerContactRemovedHook(name: string, hook: ContactRemovedHook): void {
  hooks.set(name, hook);
}

export async function runContactRemovedHooks(
  trx: Transaction<Database>,
  a: number,
  b: number,
): Promise<void> {
  for (const hook of hooks.values()) await hook(trx, a, b);
}

/**
 * Where a module keeps the rights its users give each other to their items: rows of `access`
 * (the holder in `user_id`, the item in the column `item`) to rows of `items` (with `owner_id`),
 * tables of `Tables` (the core schema's, or a plugin's own).
 */
export interface RightsTables<Tables> {
  access: keyof Tables & string;
  item: string;
  items: keyof Tables & string;
}

/**
 * The hook of a module whose items are shared with contacts: removes the rights each of the two
 * holds to the other's items (rights to anybody else's items stay).
 */
export function removeRightsHook<Tables = Database>({
  access,
  item,
  items,
}: RightsTables<Tables>): ContactRemovedHook {
  return async (trx, a, b) => {
    // The names are checked against `Tables`; the query is built on an untyped view of the tables.
    const db = trx as unknown as Transaction<Record<string, Record<string, number>>>;
    const [accessTable, itemsTable]: string[] = [access, items];
    for (const [holder, owner] of [
      [a, b],
      [b, a],
    ]) {
      await db
        .deleteFrom(accessTable)
        .where('user_id', '=', holder)
        .where(item, 'in', db.selectFrom(itemsTable).select('id').where('owner_id', '=', owner))
        .execute();
    }
  };
}
