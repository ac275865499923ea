import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, documentTitle, standardArticle } from '@scriptorium/common/editor/templates';
import { Step } from 'prosemirror-transform';
import { call } from '../api/client';
import { savedDocument } from '../pages/editor/collab-session';
import {
  addCreation,
  creationsOf,
  deleteCreation,
  deleteQueue,
  type PendingCreation,
  pendingEntries,
  type QueueRecord,
  queueKey,
  takeQueues,
  writeQueue,
} from './document-queue';

/**
 * Documents created offline (issue 20). A new document gets a negative temporary id and a queue
 * record holding a fresh Standard article at version 0, so that the editor opens and edits it from
 * the offline queue like any cached document (it opens no socket for it). Back online, the
 * document is created on the server with its content and a key of its own (a retry after a lost
 * answer gets the same document, never a second one); then the temporary records go and the page
 * moves to the real id.
 */

/** Whether an id is a temporary one of a document created offline. */
export function isTemporaryId(id: number): boolean {
  return id < 0;
}

function temporaryId(): number {
  const bytes = new Uint32Array(2);
  crypto.getRandomValues(bytes);
  // 47 bits: a safe integer, and never 0.
  return -((bytes[0] % 0x8000) * 0x1_0000_0000 + bytes[1] + 1);
}

/** The key the server remembers the creation by (common/src/api/documents.ts: client_key). */
export function creationKey(tempId: number): string {
  return `offline-${-tempId}`;
}

/** Creates a document offline in `path` for `owner`; answers its overview row (temporary id). */
export async function createOfflineDocument(
  owner: DocumentEntry['owner'],
  username: string,
  path: string,
): Promise<DocumentEntry> {
  const tempId = temporaryId();
  const now = Date.now();
  const entry: DocumentEntry = {
    id: tempId,
    title: '',
    path,
    owner,
    is_owner: true,
    rights: 'write',
    created: now,
    updated: now,
  };
  const clientId = creationKey(tempId);
  const record: QueueRecord = {
    key: queueKey(username, tempId, clientId),
    username,
    documentId: tempId,
    clientId,
    version: 0,
    doc: createDocument(schema, standardArticle).toJSON(),
    steps: [],
    right: 'write',
    isOwner: true,
    savedAt: now,
  };
  await writeQueue(record);
  await addCreation({ tempId, username, path, createdAt: now, entry });
  return entry;
}

/** The overview row of one document created offline, or null. */
export async function pendingEntry(username: string, tempId: number): Promise<DocumentEntry | null> {
  return (await pendingEntries(username)).find((entry) => entry.id === tempId) ?? null;
}

/** A queue's document with its steps applied: what the user wrote. */
function writtenDocument(record: QueueRecord) {
  let doc = savedDocument(record);
  for (const json of record.steps) {
    const result = Step.fromJSON(schema, json).apply(doc);
    if (result.doc) doc = result.doc;
  }
  return doc;
}

/** A document created offline, now on the server under `id`. */
export interface CreatedDocument {
  tempId: number;
  id: number;
  path: string;
}

/**
 * Creates one document written offline on the server, unless a tab has it open (that tab syncs it
 * once it let go). Answers the server's id, or null when it was skipped. Throws when the server
 * cannot be reached: everything stays as it was for the next try.
 */
export async function syncCreation(creation: PendingCreation): Promise<CreatedDocument | null> {
  const taken = await takeQueues(creation.username, creation.tempId);
  if (!taken) return null;
  try {
    const newest = [...taken.records].sort((a, b) => b.savedAt - a.savedAt)[0];
    const doc = newest ? writtenDocument(newest) : createDocument(schema, standardArticle);
    const created = await call(documentsApi.create, {
      path: creation.path,
      title: documentTitle(doc),
      client_key: creationKey(creation.tempId),
      content: JSON.stringify(doc.toJSON()),
    });
    // Only now, with the document on the server, does the local copy go.
    for (const record of taken.records) await deleteQueue(record.key);
    await deleteCreation(creation.tempId);
    return { tempId: creation.tempId, id: created.id, path: created.path };
  } finally {
    taken.release();
  }
}

/** Creates on the server every document `username` created offline that no tab has open. */
export async function syncCreations(username: string): Promise<CreatedDocument[]> {
  const done: CreatedDocument[] = [];
  for (const creation of await creationsOf(username)) {
    const created = await syncCreation(creation);
    if (created) done.push(created);
  }
  return done;
}
