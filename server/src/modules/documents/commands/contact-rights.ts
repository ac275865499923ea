import { ACCESS_RIGHTS, type AccessRight } from '@scriptorium/common/api/documents';
import type { Db } from '../../../db/database';

/** A database handle or an open transaction: the contacts module calls these inside its own. */
type Executor = Pick<Db, 'selectFrom' | 'updateTable' | 'deleteFrom'>;

function stronger(a: string, b: string): AccessRight {
  const rank = (right: string) => ACCESS_RIGHTS.indexOf(right as AccessRight);
  return (rank(a) >= rank(b) ? a : b) as AccessRight;
}

/**
 * Rights given to a contact invite pass to the user who accepts it. The contacts module calls
 * this when an invite is accepted, before it deletes the invite (deleting it drops its rights).
 * Where the user already holds a right to the same document the stronger one stays; the owner
 * needs none.
 */
export async function passInviteRights(db: Executor, inviteId: number, userId: number): Promise<void> {
  const rows = await db
    .selectFrom('document_access')
    .innerJoin('documents', 'documents.id', 'document_access.document_id')
    .select([
      'document_access.id',
      'document_access.document_id',
      'document_access.rights',
      'documents.owner_id',
    ])
    .where('document_access.invite_id', '=', inviteId)
    .execute();
  for (const row of rows) {
    if (row.owner_id === userId) {
      await db.deleteFrom('document_access').where('id', '=', row.id).execute();
      continue;
    }
    const held = await db
      .selectFrom('document_access')
      .select(['id', 'rights'])
      .where('document_id', '=', row.document_id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (held) {
      await db
        .updateTable('document_access')
        .set({ rights: stronger(held.rights, row.rights) })
        .where('id', '=', held.id)
        .execute();
      await db.deleteFrom('document_access').where('id', '=', row.id).execute();
    } else {
      await db
        .updateTable('document_access')
        .set({ user_id: userId, invite_id: null })
        .where('id', '=', row.id)
        .execute();
    }
  }
}

/**
 * When users `a` and `b` connect, every invite between them is about to go: the rights given to
 * those invites pass to the invited user first. The contacts module calls this from `connect`.
 */
export async function passInviteRightsBetween(db: Executor, a: number, b: number): Promise<void> {
  const invites = await db
    .selectFrom('user_invites')
    .select(['id', 'to_user_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('by_user_id', '=', a), eb('to_user_id', '=', b)]),
        eb.and([eb('by_user_id', '=', b), eb('to_user_id', '=', a)]),
      ]),
    )
    .execute();
  for (const invite of invites) {
    if (invite.to_user_id !== null) await passInviteRights(db, invite.id, invite.to_user_id);
  }
}
