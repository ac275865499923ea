import type { Kysely, Selectable } from 'kysely';
import type { AppContext } from '../../../context';
import type { Database, UserInvitesTable } from '../../../db/schema';
import type { Actor } from '../../command';
import { passInviteRights } from '../../documents/commands/contact-rights';
import { CONTACTS_PATH } from '../mail';
import {
  areContacts,
  connect,
  type DbOrTrx,
  findInviteBetween,
  hashInviteKey,
  moveInviteRights,
} from '../queries';

type Outcome = 'claimed' | 'connected' | 'redundant' | 'own';

/**
 * Makes a pending invite `userId`'s received invite. When it would duplicate what exists, it goes
 * and its document rights go where the existing relation is: to the user when they are contacts
 * already, to the inviter's earlier invite of the same user. When the user had invited the inviter
 * too, both asked: they are connected.
 */
async function claim(trx: DbOrTrx, invite: Selectable<UserInvitesTable>, userId: number): Promise<Outcome> {
  const inviterId = invite.by_user_id;
  if (inviterId === userId) return 'own';
  if (await areContacts(trx, userId, inviterId)) {
    await passInviteRights(trx, invite.id, userId);
    await trx.deleteFrom('user_invites').where('id', '=', invite.id).execute();
    return 'redundant';
  }
  const existing = await findInviteBetween(trx, userId, inviterId);
  if (existing && existing.by_user_id === inviterId) {
    await moveInviteRights(trx, invite.id, existing.id);
    await trx.deleteFrom('user_invites').where('id', '=', invite.id).execute();
    return 'redundant';
  }
  // The key goes with the claim: a link works once.
  await trx
    .updateTable('user_invites')
    .set({ to_user_id: userId, key_hash: null })
    .where('id', '=', invite.id)
    .execute();
  if (!existing) return 'claimed';
  await connect(trx, userId, inviterId);
  return 'connected';
}

async function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * POST /api/user/invite/ {key}: a logged-in user who opened /invite/{key} claims that invite.
 * Answers where the browser goes next: the contacts page, or / when the key is unknown, already
 * claimed, or the user's own (then nothing changes, and the real invitee can still use it).
 */
export async function claimInviteLink(ctx: AppContext, user: Actor, input: { key: string }): Promise<string> {
  const outcome = await inTransaction(ctx.db, async (trx) => {
    const invite = await trx
      .selectFrom('user_invites')
      .selectAll()
      .where('key_hash', '=', hashInviteKey(input.key))
      .where('to_user_id', 'is', null)
      .executeTakeFirst();
    return invite ? claim(trx, invite, user.id) : 'own';
  });
  return outcome === 'own' ? '/' : CONTACTS_PATH;
}

/**
 * Hands the invites sent to `address` while it had no verified owner to the user who now owns it.
 * CALL THIS whenever an address becomes verified (e-mail confirmation) or a user is created with a
 * verified address; it may run inside the caller's transaction. Returns how many invites the user
 * received (a pending invite they sent themselves is dropped).
 */
export async function claimPendingInvitesForEmail(
  db: Kysely<Database>,
  userId: number,
  address: string,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const pending = await trx
      .selectFrom('user_invites')
      .selectAll()
      .where('email_lower', '=', address.trim().toLowerCase())
      .where('to_user_id', 'is', null)
      .orderBy('id')
      .execute();
    let claimed = 0;
    for (const invite of pending) {
      const outcome = await claim(trx, invite, userId);
      if (outcome === 'own') await trx.deleteFrom('user_invites').where('id', '=', invite.id).execute();
      if (outcome === 'claimed') claimed++;
    }
    return claimed;
  });
}
