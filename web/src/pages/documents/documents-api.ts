import {
  type Contact,
  contactsListResponse,
  inviteAddError,
  inviteAddResponse,
} from '@scriptorium/common/api/contacts';
import {
  type AccessEntry,
  type AccessSaveItem,
  accessGetResponse,
  DOCUMENTS_API,
  type DocumentEntry,
  documentCopyResponse,
  documentCreateResponse,
  documentDeleteResponse,
  documentGetResponse,
  documentListResponse,
  doneResponse,
} from '@scriptorium/common/api/documents';
import { ApiError, apiPost } from '../../api/client';

export async function fetchDocuments(): Promise<DocumentEntry[]> {
  return (await apiPost(DOCUMENTS_API.list, {}, documentListResponse)).documents;
}

export async function fetchDocument(id: number): Promise<DocumentEntry> {
  return (await apiPost(DOCUMENTS_API.get, { id }, documentGetResponse)).document;
}

export async function createDocument(path: string): Promise<{ id: number; path: string }> {
  return apiPost(DOCUMENTS_API.create, { path }, documentCreateResponse);
}

export async function deleteDocuments(ids: number[]): Promise<{ deleted: number[]; left: number[] }> {
  return apiPost(DOCUMENTS_API.delete, { ids }, documentDeleteResponse);
}

export async function copyDocuments(ids: number[]): Promise<DocumentEntry[]> {
  return (await apiPost(DOCUMENTS_API.copy, { ids }, documentCopyResponse)).documents;
}

export async function fetchAccess(id: number): Promise<AccessEntry[]> {
  return (await apiPost(DOCUMENTS_API.accessGet, { id }, accessGetResponse)).access;
}

export async function saveAccess(id: number, access: AccessSaveItem[]): Promise<void> {
  await apiPost(DOCUMENTS_API.accessSave, { id, access: JSON.stringify(access) }, doneResponse);
}

/** The user's contacts (the contacts module's list call, spec 7). */
export async function fetchContacts(): Promise<Contact[]> {
  return (await apiPost('/api/user/contacts/list/', {}, contactsListResponse)).contacts;
}

/**
 * Invites a person by e-mail address (the contacts module's call, spec 7): the new contact, or
 * the server's translated reason (spec 8 error 1, 2 or 3) when it refuses.
 */
export async function inviteContact(address: string): Promise<{ contact: Contact } | { error: string }> {
  try {
    return await apiPost('/api/user/invites/add/', { user_string: address }, inviteAddResponse);
  } catch (error) {
    const refused = error instanceof ApiError ? inviteAddError.safeParse(error.body) : null;
    if (refused?.success) return { error: refused.data.message };
    throw error;
  }
}
