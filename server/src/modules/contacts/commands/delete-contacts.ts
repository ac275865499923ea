import type { ContactReference } from '@scriptorium/common/api/contacts';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { runContactRemovedHooks } from '../hooks';
import type { MailErrorLog } from '../mail';
import { requireAllFound } from '../policies';
import { contactIdsAmong, type DbOrTrx, invitesAmong } from '../queries';
import { mailDeclines } from './answer-invites';

/**
 * POST /api/user/contacts/delete/: `user` ends the connection on both sides (and, through the
 * hooks, every document right between the two); `userinvite` withdraws a sent invite;
 * `to_userinvite` declines a received one (the inviter is told; /api/user/invites/decline/ comes
 * here too). All or nothing: an id that is not in this user's list answers 404 and nothing changes.
 */
export async function deleteContacts(
  ctx: AppContext,
  me: UserRow,
  input: { contacts: ContactReference[] },
  log: MailErrorLog,
): Promise<void> {
  const idsOf = (type: ContactReference['type']) => [
    ...new Set(input.contacts.filter((row) => row.type === type).map((row) => row.id)),
  ];
  const userIds = idsOf('user');
  const sentIds = idsOf('userinvite');
  const receivedIds = idsOf('to_userinvite');

  const declinedInviterIds = await ctx.db.transaction().execute(async (trx) => {
    if (userIds.length > 0) {
      requireAllFound(userIds, await contactIdsAmong(trx, me.id, userIds));
      for (const otherId of userIds) {
        await trx
          .deleteFrom('contacts')
          .where((eb) =>
            eb.or([
              eb.and([eb('user_id', '=', me.id), eb('contact_id', '=', otherId)]),
              eb.and([eb('user_id', '=', otherId), eb('contact_id', '=', me.id)]),
            ]),
          )
          .execute();
        await runContactRemovedHooks(trx, me.id, otherId);
      }
    }
    if (sentIds.length > 0) await deleteInvites(trx, sentIds, 'by_user_id', me.id);
    if (receivedIds.length === 0) return [];
    const inviterIds = await deleteInvites(trx, receivedIds, 'to_user_id', me.id);
    return [...new Set(inviterIds)];
  });
  await mailDeclines(ctx, me, { inviterIds: declinedInviterIds }, log);
}

/**
 * Deletes the invites `ids` that the user sent (`by_user_id`) or received (`to_user_id`): all or
 * none, an id that is no such invite answers 404. The inviters of the deleted invites.
 */
async function deleteInvites(
  trx: DbOrTrx,
  ids: number[],
  side: 'by_user_id' | 'to_user_id',
  userId: number,
): Promise<number[]> {
  const rows = await invitesAmong(trx, ids, side, userId);
  requireAllFound(
    ids,
    rows.map((row) => row.id),
  );
  await trx.deleteFrom('user_invites').where('id', 'in', ids).where(side, '=', userId).execute();
  return rows.map((row) => row.by_user_id);
}
