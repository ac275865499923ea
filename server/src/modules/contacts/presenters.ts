import type { Contact } from '@scriptorium/common/api/contacts';
import type { UserInvitesTable, UsersTable } from '../../db/schema';
import { avatarUrl } from '../user/avatar';
import { displayName } from '../user/presenters';

type Person = Pick<UsersTable, 'username' | 'first_name' | 'last_name' | 'avatar'> & { id: number };
type Invite = Pick<UserInvitesTable, 'email'> & { id: number };

function avatarOf(person: Person): Pick<Contact, 'avatar'> {
  const url = avatarUrl(person.avatar);
  return url ? { avatar: url } : {};
}

/** A connected user: both sides agreed, so name, address and avatar are shown. */
export function presentUserContact(person: Person, email: string | undefined): Contact {
  return { id: person.id, type: 'user', name: displayName(person), email: email ?? '', ...avatarOf(person) };
}

/**
 * An invite the user sent. The invitee has not agreed to anything yet, so their address is never
 * revealed: the inviter sees only the address they typed themselves ('' for an invite by username).
 * An invite by address shows only that address, whether or not it belongs to an account: naming
 * the account would tell anyone which addresses are registered (issue 50).
 */
export function presentSentInvite(invite: Invite, invitee: Person | undefined): Contact {
  if (invite.email !== null || !invitee) {
    return { id: invite.id, type: 'userinvite', name: invite.email ?? '', email: invite.email ?? '' };
  }
  return { id: invite.id, type: 'userinvite', name: displayName(invitee), email: '', ...avatarOf(invitee) };
}

/** An invite the user received: the inviter chose to reach out, so they are shown in full. */
export function presentReceivedInvite(invite: Invite, inviter: Person, email: string | undefined): Contact {
  return {
    id: invite.id,
    type: 'to_userinvite',
    name: displayName(inviter),
    email: email ?? '',
    ...avatarOf(inviter),
  };
}
