import type { Contact } from '@scriptorium/common/api/contacts';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { type MailErrorLog, mailInviteAnswer } from '../mail';
import { requireAllFound } from '../policies';
import { presentUserContact } from '../presenters';
import { connect, type DbOrTrx, displayEmails, invitesAmong } from '../queries';

/** The invites among `ids` that were sent to `userId`; 404 unless every one is. */
async function receivedInvites(
  db: DbOrTrx,
  userId: number,
  ids: number[],
): Promise<{ id: number; by_user_id: number }[]> {
  const invites = await invitesAmong(db, ids, 'to_user_id', userId);
  requireAllFound(
    ids,
    invites.map((invite) => invite.id),
  );
  return invites;
}

async function loadInviters(ctx: AppContext, ids: number[]): Promise<Map<number, UserRow>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Accepts received invites: both users become contacts and the invites leave both lists. All or
 * nothing: one id that is not an invite to this user answers 404 and changes nothing.
 */
export async function acceptInvites(
  ctx: AppContext,
  me: UserRow,
  input: { ids: number[] },
  log: MailErrorLog,
): Promise<Contact[]> {
  const ids = [...new Set(input.ids)];
  const inviterIds = await ctx.db.transaction().execute(async (trx) => {
    const invites = await receivedInvites(trx, me.id, ids);
    const now = Date.now();
    for (const invite of invites) await connect(trx, me.id, invite.by_user_id, now);
    return [...new Set(invites.map((invite) => invite.by_user_id))];
  });

  const inviters = await loadInviters(ctx, inviterIds);
  const emails = await displayEmails(ctx.db, inviterIds);
  const contacts: Contact[] = [];
  for (const inviter of inviters.values()) {
    contacts.push(presentUserContact(inviter, emails.get(inviter.id)));
    await mailInviteAnswer(ctx, log, { answer: 'accepted', inviter, invitee: me });
  }
  return contacts;
}

export async function mailDeclines(
  ctx: AppContext,
  me: UserRow,
  input: { inviterIds: number[] },
  log: MailErrorLog,
): Promise<void> {
  for (const inviter of (await loadInviters(ctx, input.inviterIds)).values()) {
    await mailInviteAnswer(ctx, log, { answer: 'declined', inviter, invitee: me });
  }
}
