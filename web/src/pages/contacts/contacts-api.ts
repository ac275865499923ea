import type { Contact, ContactReference, InviteErrorCode } from '@scriptorium/common/api/contacts';
import { inviteAddError } from '@scriptorium/common/api/contacts';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { ApiError, call } from '../../api/client';
import { putRows, readRow, throughCache } from '../../offline/local-db';

export const CONTACTS_PATH = '/user/contacts/';

/** The user's contacts and invites (the contacts screen and the share dialog use this one call). */
export async function fetchContacts(): Promise<Contact[]> {
  // Spec 3 and 4: offline, the contacts come from the record id 1 of the store user_data.
  return throughCache(
    async () => (await call(contactsApi.list)).contacts,
    (contacts) => putRows('user_data', [{ id: 1, contacts }]),
    async () => (await readRow<{ contacts: Contact[] }>('user_data', 1))?.contacts ?? null,
  );
}

export type InviteOutcome =
  | { ok: true; contact: Contact }
  | { ok: false; code: InviteErrorCode | null; message: string | null };

/**
 * One invite; errors 1, 2 and 3 come back as outcomes with the server's translated message,
 * anything else (network, 500) as code and message null.
 */
export async function inviteContact(userString: string): Promise<InviteOutcome> {
  try {
    const { contact } = await call(contactsApi.invite, { user_string: userString });
    return { ok: true, contact };
  } catch (error) {
    if (error instanceof ApiError) {
      const known = inviteAddError.safeParse(error.body);
      if (known.success) return { ok: false, code: known.data.error, message: known.data.message };
    }
    return { ok: false, code: null, message: null };
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
  return (await call(contactsApi.accept, { invites: ids.map((id) => ({ id })) })).contacts;
}

export async function declineInvites(ids: number[]): Promise<void> {
  await call(contactsApi.decline, { invites: ids.map((id) => ({ id })) });
}

export async function deleteContacts(rows: ContactReference[]): Promise<void> {
  await call(contactsApi.delete, { contacts: rows.map(({ id, type }) => ({ id, type })) });
}

/** The table's row id: contact ids and invite ids are separate sequences, so the type is part of it. */
export function contactRowId(contact: Pick<Contact, 'id' | 'type'>): string {
  return `${contact.type}-${contact.id}`;
}
