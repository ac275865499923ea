import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { passInviteRightsBetween } from '../documents/commands/contact-rights';

/** A database handle or an open transaction: the commands below work inside either. */
export type DbOrTrx = Kysely<Database>;

export function hashInviteKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export async function areContacts(db: DbOrTrx, userId: number, otherId: number): Promise<boolean> {
  return (await contactIdsAmong(db, userId, [otherId])).length > 0;
}

/** Of the ids, those that name contacts of the user. */
export async function contactIdsAmong(
  db: DbOrTrx,
  userId: number,
  ids: readonly number[],
): Promise<number[]> {
  const rows = await db
    .selectFrom('contacts')
    .select('contact_id')
    .where('user_id', '=', userId)
    .where('contact_id', 'in', ids)
    .execute();
  return rows.map((row) => row.contact_id);
}

/** Of the ids, the invites the user sent (`by_user_id`) or received (`to_user_id`), with their inviter. */
export async function invitesAmong(
  db: DbOrTrx,
  ids: readonly number[],
  side: 'by_user_id' | 'to_user_id',
  userId: number,
): Promise<{ id: number; by_user_id: number }[]> {
  return db
    .selectFrom('user_invites')
    .select(['id', 'by_user_id'])
    .where('id', 'in', ids)
    .where(side, '=', userId)
    .execute();
}

/** Any invite between the two users, in either direction, that names both of them. */
export async function findInviteBetween(db: DbOrTrx, a: number, b: number) {
  return db
    .selectFrom('user_invites')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('by_user_id', '=', a), eb('to_user_id', '=', b)]),
        eb.and([eb('by_user_id', '=', b), eb('to_user_id', '=', a)]),
      ]),
    )
    .executeTakeFirst();
}

/** Connects two users (both directions); connecting twice is harmless. */
export async function connect(db: DbOrTrx, a: number, b: number, now = Date.now()): Promise<void> {
  await db
    .insertInto('contacts')
    .values([
      { user_id: a, contact_id: b, created_at: now },
      { user_id: b, contact_id: a, created_at: now },
    ])
    .onConflict((oc) => oc.columns(['user_id', 'contact_id']).doNothing())
    .execute();
  // Rights given to an invite between them pass to the invited user before the invite goes.
  await passInviteRightsBetween(db, a, b);
  // Once connected, no invite between them is left to answer or to withdraw.
  await db
    .deleteFrom('user_invites')
    .where((eb) =>
      eb.or([
        eb.and([eb('by_user_id', '=', a), eb('to_user_id', '=', b)]),
        eb.and([eb('by_user_id', '=', b), eb('to_user_id', '=', a)]),
      ]),
    )
    .execute();
}

/**
 * Gives the document rights of invite `fromId` to invite `toId` (same inviter, same invitee) before
 * `fromId` goes; where `toId` already has a right to a document, that one stays.
 */
export async function moveInviteRights(db: DbOrTrx, fromId: number, toId: number): Promise<void> {
  await db
    .updateTable('document_access')
    .set({ invite_id: toId })
    .where('invite_id', '=', fromId)
    .where(
      'document_id',
      'not in',
      db.selectFrom('document_access').select('document_id').where('invite_id', '=', toId),
    )
    .execute();
}

/** The address shown for each user: the primary one, else the first added. */
export async function displayEmails(db: DbOrTrx, userIds: number[]): Promise<Map<number, string>> {
  const result = new Map<number, string>();
  if (userIds.length === 0) return result;
  const rows = await db
    .selectFrom('user_emails')
    .select(['user_id', 'address'])
    .where('user_id', 'in', [...new Set(userIds)])
    .orderBy('is_primary', 'desc')
    .orderBy('id', 'asc')
    .execute();
  for (const row of rows) if (!result.has(row.user_id)) result.set(row.user_id, row.address);
  return result;
}

/** Whether the user has received invites that wait for an answer (configuration.waiting_invites). */
export async function hasWaitingInvites(db: DbOrTrx, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('user_invites')
    .select('id')
    .where('to_user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** True when a database error is a unique-key violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
