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
 * For hooks: runs `remove(holder, owner)` both ways between `a` and `b`, for what each of the two
 * holds of the other's.
 */
export async function bothWays(
  a: number,
  b: number,
  remove: (holder: number, owner: number) => Promise<void>,
): Promise<void> {
  await remove(a, b);
  await remove(b, a);
}
