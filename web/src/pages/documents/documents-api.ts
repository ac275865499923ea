import type { AccessEntry, AccessSaveItem, DocumentEntry } from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { call } from '../../api/client';

export async function fetchDocuments(): Promise<DocumentEntry[]> {
  return (await call(documentsApi.list)).documents;
}

export async function fetchDocument(id: number): Promise<DocumentEntry> {
  return (await call(documentsApi.get, { id })).document;
}

export async function createDocument(path: string): Promise<{ id: number; path: string }> {
  return call(documentsApi.create, { path });
}

export async function deleteDocuments(ids: number[]): Promise<{ deleted: number[]; left: number[] }> {
  return call(documentsApi.delete, { ids });
}

export async function copyDocuments(ids: number[]): Promise<DocumentEntry[]> {
  return (await call(documentsApi.copy, { ids })).documents;
}

export async function fetchAccess(id: number): Promise<AccessEntry[]> {
  return (await call(documentsApi.accessGet, { id })).access;
}

export async function saveAccess(id: number, access: AccessSaveItem[]): Promise<void> {
  await call(documentsApi.accessSave, { id, access });
}
