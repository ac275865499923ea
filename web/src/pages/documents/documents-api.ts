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
import { apiPost } from '../../api/client';

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
