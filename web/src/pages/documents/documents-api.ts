import type { AccessEntry, AccessSaveItem, DocumentEntry } from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { call } from '../../api/client';
import { pendingEntries } from '../../offline/document-queue';
import {
  isNetworkFailure,
  localUser,
  putRows,
  readRow,
  readRows,
  throughCache,
  writeRows,
} from '../../offline/local-db';

/** The server's list, kept in the local database for offline use; the cached one when offline. */
function listThroughCache(): Promise<DocumentEntry[]> {
  return throughCache(
    async () => (await call(documentsApi.list)).documents,
    (rows) => writeRows('document_list', rows),
    async () => {
      const rows = await readRows<DocumentEntry>('document_list');
      return rows?.length ? rows : null;
    },
  );
}

/**
 * The overview's rows; offline, the ones cached in the local database (issue 20). Documents
 * created offline are created on the server first when online, and listed until then.
 */
export async function fetchDocuments(): Promise<DocumentEntry[]> {
  const username = localUser();
  // The list is asked for before the local database is read, not after it: on a cold start,
  // opening that database takes a phone hundreds of milliseconds (issue 23).
  let listed = listThroughCache();
  // Handled below, after that read; meanwhile a failure is not reported as unhandled.
  listed.catch(() => {});
  let pending = username ? await pendingEntries(username) : [];
  if (username && pending.length > 0 && navigator.onLine) {
    // Creating them needs the editor's code (ProseMirror): it loads only when there are some.
    const { syncCreations } = await import('../../offline/offline-documents');
    // The first list is awaited (not left to finish after the second and cache an older list).
    await listed.catch(() => []);
    await syncCreations(username).catch(() => []);
    pending = await pendingEntries(username);
    listed = listThroughCache();
  }
  // Offline with nothing cached yet, the documents made on this device are the whole list.
  const rows = pending.length
    ? await listed.catch((error: unknown) => {
        if (isNetworkFailure(error)) return [];
        throw error;
      })
    : await listed;
  return [...rows, ...pending];
}

export async function fetchDocument(id: number): Promise<DocumentEntry> {
  return throughCache(
    async () => (await call(documentsApi.get, { id })).document,
    (entry) => putRows('document_list', [entry]),
    () => readRow<DocumentEntry>('document_list', id),
  );
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
