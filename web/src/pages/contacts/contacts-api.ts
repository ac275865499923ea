import {
  type Contact,
  type ContactReference,
  contactsListResponse,
  type InviteErrorCode,
  inviteAddError,
  inviteAddResponse,
  invitesAcceptResponse,
} from '@scriptorium/common/api/contacts';
import { ApiError, apiPost } from '../../api/client';

export const CONTACTS_PATH = '/user/contacts/';

export async function fetchContacts(): Promise<Contact[]> {
  return (await apiPost('/api/user/contacts/list/', {}, contactsListResponse)).contacts;
}

export type InviteOutcome = { ok: true; contact: Contact } | { ok: false; code: InviteErrorCode | null };

/** One invite; errors 1, 2 and 3 come back as outcomes, anything else (network, 500) as code null. */
export async function inviteContact(userString: string): Promise<InviteOutcome> {
  try {
    const { contact } = await apiPost(
      '/api/user/invites/add/',
      { user_string: userString },
      inviteAddResponse,
    );
    return { ok: true, contact };
  } catch (error) {
    if (error instanceof ApiError) {
      const known = inviteAddError.safeParse(error.body);
      if (known.success) return { ok: false, code: known.data.error };
    }
    return { ok: false, code: null };
  }
}

export interface InviteFailure {
  entry: string;
  code: InviteErrorCode | null;
}

/**
 * Spec 5: each piece is added one at a time, in order (so that a duplicate later in the list is
 * reported as error 2 rather than racing the first).
 */
export async function inviteAll(
  entries: string[],
  invite: (entry: string) => Promise<InviteOutcome> = inviteContact,
): Promise<{ added: Contact[]; failed: InviteFailure[] }> {
  const added: Contact[] = [];
  const failed: InviteFailure[] = [];
  for (const entry of entries) {
    const outcome = await invite(entry);
    if (outcome.ok) added.push(outcome.contact);
    else failed.push({ entry, code: outcome.code });
  }
  return { added, failed };
}

export async function acceptInvites(ids: number[]): Promise<Contact[]> {
  const invites = JSON.stringify(ids.map((id) => ({ id })));
  return (await apiPost('/api/user/invites/accept/', { invites }, invitesAcceptResponse)).contacts;
}

export async function declineInvites(ids: number[]): Promise<void> {
  await apiPost('/api/user/invites/decline/', { invites: JSON.stringify(ids.map((id) => ({ id }))) });
}

export async function deleteContacts(rows: ContactReference[]): Promise<void> {
  // Spec 7: objects go as JSON text; the list is one field, not contacts[] entries.
  const contacts = JSON.stringify(rows.map(({ id, type }) => ({ id, type })));
  await apiPost('/api/user/contacts/delete/', { contacts });
}

/** The table's row id: contact ids and invite ids are separate sequences, so the type is part of it. */
export function contactRowId(contact: Pick<Contact, 'id' | 'type'>): string {
  return `${contact.type}-${contact.id}`;
}
