import type { Contact } from '@scriptorium/common/api/contacts';
import { compareContacts } from '@scriptorium/common/rules/contacts';
import type { AppContext } from '../../../context';
import type { Actor } from '../../command';
import { NAME_COLUMNS } from '../../user/presenters';
import { presentReceivedInvite, presentSentInvite, presentUserContact } from '../presenters';
import { displayEmails } from '../queries';

const PERSON = ['users.id', ...NAME_COLUMNS, 'users.avatar'] as const;

/** The contacts list of one user: contacts, sent invites and received invites (spec 3). */
export async function listContacts(ctx: AppContext, user: Actor): Promise<Contact[]> {
  const { db } = ctx;
  const userId = user.id;
  const [connected, sent, received] = await Promise.all([
    db
      .selectFrom('contacts')
      .innerJoin('users', 'users.id', 'contacts.contact_id')
      .select(PERSON)
      .where('contacts.user_id', '=', userId)
      .execute(),
    db
      .selectFrom('user_invites')
      .leftJoin('users', 'users.id', 'user_invites.to_user_id')
      .select(['user_invites.id as invite_id', 'user_invites.email as invite_email', ...PERSON])
      .where('user_invites.by_user_id', '=', userId)
      .execute(),
    db
      .selectFrom('user_invites')
      .innerJoin('users', 'users.id', 'user_invites.by_user_id')
      .select(['user_invites.id as invite_id', ...PERSON])
      .where('user_invites.to_user_id', '=', userId)
      .execute(),
  ]);

  const emails = await displayEmails(db, [
    ...connected.map((row) => row.id),
    ...received.map((row) => row.id),
  ]);
  const contacts: Contact[] = [
    ...connected.map((row) => presentUserContact(row, emails.get(row.id))),
    ...sent.map((row) =>
      presentSentInvite(
        { id: row.invite_id, email: row.invite_email },
        row.id === null || row.username === null
          ? undefined
          : {
              id: row.id,
              username: row.username,
              first_name: row.first_name ?? '',
              last_name: row.last_name ?? '',
              avatar: row.avatar,
            },
      ),
    ),
    ...received.map((row) =>
      presentReceivedInvite({ id: row.invite_id, email: null }, row, emails.get(row.id)),
    ),
  ];
  return contacts.sort((a, b) => compareContacts(a, b));
}
