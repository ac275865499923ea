import type { AccessRight, DocumentEntry } from '@scriptorium/common/api/documents';
import type { SavedSession } from '../pages/editor/collab-session';
import { QUEUE_DB } from './queue-name';
import { reopeningDatabase } from './reopening-db';

export { QUEUE_DB };

/**
 * The offline queue of the editor: per tab and document, the confirmed document at a version and
 * the tab's unconfirmed steps on top (issue 20: a reload or a closed tab loses nothing). It lives in
 * its own database, apart from the spec's local database (which is deleted and recreated when it
 * cannot be opened) and is never emptied by clearCaches: it holds work the server has not got yet.
 *
 * Two tabs never write over each other: each tab writes only the record of its own client id, and
 * holds a Web Lock named after it while it lives. A record whose lock is free belongs to a closed
 * tab; the next tab that opens the document adopts it (same client id, so the server recognises
 * the steps it already committed), or, without steps, uses it as the cached document.
 */
const QUEUES = 'queues';
const COPIES = 'copies';
const CREATIONS = 'creations';

/** A document created offline (negative temporary id), waiting to be created on the server. */
export interface PendingCreation {
  tempId: number;
  username: string;
  /** The folder it was created in. */
  path: string;
  createdAt: number;
  /** Its row in the overview until then. */
  entry: DocumentEntry;
}

export interface QueueRecord extends SavedSession {
  /** `${username}:${documentId}:${clientId}` */
  key: string;
  username: string;
  documentId: number;
  right: AccessRight;
  isOwner: boolean;
  /** When it was last written (ms since epoch). */
  savedAt: number;
}

/** Our document just before a large or lossy merge, kept for the user (see CollabSession.onDivergence). */
export interface OfflineCopy {
  id?: number;
  username: string;
  documentId: number;
  doc: unknown;
  savedAt: number;
}

// A later version's tab asks this one to let go (blocking), so that its upgrade never waits.
const open = reopeningDatabase(QUEUE_DB, 2, (db, oldVersion) => {
  if (oldVersion < 1) {
    const queues = db.createObjectStore(QUEUES, { keyPath: 'key' });
    queues.createIndex('document', ['username', 'documentId']);
    const copies = db.createObjectStore(COPIES, { keyPath: 'id', autoIncrement: true });
    copies.createIndex('document', ['username', 'documentId']);
  }
  if (oldVersion < 2) db.createObjectStore(CREATIONS, { keyPath: 'tempId' }).createIndex('user', 'username');
});

export function queueKey(username: string, documentId: number, clientId: string): string {
  return `${username}:${documentId}:${clientId}`;
}

/**
 * A queue's document is a record of its own in the same store, under this key: written only when
 * the document changes, while the queue's record (its steps) is written after every change.
 * Having no username or document id, it stays out of the 'document' index.
 * (Records written before this split hold their document inline and are read as they are.)
 */
const documentKey = (key: string) => `${key}#document`;

export async function queuesOf(username: string, documentId: number): Promise<QueueRecord[]> {
  const store = (await open()).transaction(QUEUES).store;
  const records: QueueRecord[] = await store.index('document').getAll([username, documentId]);
  const withDocuments = await Promise.all(
    records.map(async (record) =>
      record.doc === undefined ? { ...record, doc: (await store.get(documentKey(record.key)))?.doc } : record,
    ),
  );
  return withDocuments.filter((record) => record.doc !== undefined);
}

/** The document object last written for each queue: the same object is not written again. */
const writtenDocuments = new Map<string, unknown>();

/**
 * Writes a queue record. Its document goes to a record of its own, and only when it is another
 * object than the one written last for this queue: the queue's record (steps) stays small to copy.
 */
export async function writeQueue(record: QueueRecord): Promise<void> {
  const { doc, ...rest } = record;
  const transaction = (await open()).transaction(QUEUES, 'readwrite');
  const writes: Promise<unknown>[] = [transaction.store.put(rest)];
  const docChanged = writtenDocuments.get(record.key) !== doc;
  if (docChanged) writes.push(transaction.store.put({ key: documentKey(record.key), doc }));
  await Promise.all([...writes, transaction.done]);
  if (docChanged) writtenDocuments.set(record.key, doc);
}

export async function deleteQueue(key: string): Promise<void> {
  const transaction = (await open()).transaction(QUEUES, 'readwrite');
  await Promise.all([
    transaction.store.delete(key),
    transaction.store.delete(documentKey(key)),
    transaction.done,
  ]);
  writtenDocuments.delete(key);
}

export async function keepOfflineCopy(copy: OfflineCopy): Promise<number> {
  return Number(await (await open()).add(COPIES, copy));
}

export async function offlineCopies(username: string, documentId: number): Promise<OfflineCopy[]> {
  return (await open()).getAllFromIndex(COPIES, 'document', [username, documentId]);
}

export async function deleteOfflineCopy(id: number): Promise<void> {
  await (await open()).delete(COPIES, id);
}

export async function addCreation(creation: PendingCreation): Promise<void> {
  await (await open()).put(CREATIONS, creation);
}

export async function creationsOf(username: string): Promise<PendingCreation[]> {
  return (await open()).getAllFromIndex(CREATIONS, 'user', username);
}

/**
 * The overview rows of the documents `username` created offline and not yet on the server. Here,
 * not in offline-documents.ts, so that the overview lists them without loading the editor's code.
 */
export async function pendingEntries(username: string): Promise<DocumentEntry[]> {
  try {
    return (await creationsOf(username)).map((creation) => creation.entry);
  } catch {
    return [];
  }
}

export async function deleteCreation(tempId: number): Promise<void> {
  await (await open()).delete(CREATIONS, tempId);
}

/**
 * Every queue of a document, locked, if no open tab holds any of them (null otherwise): what a
 * document created offline is made of, taken whole so that no tab edits it meanwhile.
 */
export async function takeQueues(
  username: string,
  documentId: number,
): Promise<{ records: QueueRecord[]; release: Release } | null> {
  const records = await queuesOf(username, documentId);
  const releases: Release[] = [];
  const release = () => {
    for (const free of releases) free();
  };
  for (const record of records) {
    const free = await tryLock(lockName(record.key));
    if (!free) {
      release();
      return null;
    }
    releases.push(free);
  }
  return { records, release };
}

/** Releases a held lock. */
export type Release = () => void;

/**
 * Takes the Web Lock `name` if nobody holds it, and holds it until released (or the tab closes).
 * Without Web Locks (old browsers, tests) every lock is free: the per-tab session storage key
 * below still keeps a reloaded tab on its own queue.
 */
export function tryLock(name: string): Promise<Release | null> {
  const locks = globalThis.navigator?.locks;
  if (!locks) return Promise.resolve(() => {});
  return new Promise((resolve) => {
    void locks.request(name, { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve(null);
        return;
      }
      return new Promise<void>((release) => resolve(() => release()));
    });
  });
}

const lockName = (key: string) => `scriptorium-queue:${key}`;
const tabKey = (username: string, documentId: number) => `scriptorium-queue:${username}:${documentId}`;

export interface PickedQueue {
  clientId: string;
  /** The saved session to start from (ours, an adopted one, or another tab's document without its steps). */
  saved: QueueRecord | null;
  release: Release;
}

function newClientId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Chooses this tab's queue for a document: the one this tab had before a reload; else a closed
 * tab's queue with unsent steps (adopted with its client id); else a new client id starting from
 * the newest cached document. Closed tabs' records without steps are tidied away.
 */
export async function pickQueue(username: string, documentId: number): Promise<PickedQueue> {
  let records: QueueRecord[] = [];
  try {
    records = await queuesOf(username, documentId);
  } catch {
    // No IndexedDB (private mode in some browsers): online editing works without the queue.
  }
  records.sort((a, b) => b.savedAt - a.savedAt);
  const ownId = readTabKey(username, documentId);
  const own = records.find((record) => record.clientId === ownId);
  const candidates = [
    ...(own ? [own] : []),
    ...records.filter((record) => record !== own && record.steps.length > 0).reverse(),
  ];
  for (const record of candidates) {
    const release = await tryLock(lockName(record.key));
    if (!release) continue;
    writeTabKey(username, documentId, record.clientId);
    return { clientId: record.clientId, saved: record, release };
  }
  const clientId = newClientId();
  const release = (await tryLock(lockName(queueKey(username, documentId, clientId)))) ?? (() => {});
  writeTabKey(username, documentId, clientId);
  const newest = records[0];
  for (const record of records) {
    if (record.steps.length || record === newest) continue;
    const free = await tryLock(lockName(record.key));
    if (!free) continue;
    await deleteQueue(record.key).catch(() => {});
    free();
  }
  return {
    clientId,
    saved: newest ? { ...newest, key: queueKey(username, documentId, clientId), clientId, steps: [] } : null,
    release,
  };
}

function readTabKey(username: string, documentId: number): string | null {
  try {
    return sessionStorage.getItem(tabKey(username, documentId));
  } catch {
    return null;
  }
}

function writeTabKey(username: string, documentId: number, clientId: string): void {
  try {
    sessionStorage.setItem(tabKey(username, documentId), clientId);
  } catch {
    // Without session storage a reload adopts the queue through its free lock instead.
  }
}

/**
 * Writes the newest state of one queue, never two writes at once and never an older state after a
 * newer one: while a write runs, later changes wait and only the latest of them is written next.
 * A write starts in the change's own task: a reload or a closed tab a moment later must find every
 * keystroke (a write delayed by even 200 ms lost the last words of a reload in the browser specs).
 * That stays cheap because the record holds steps only; the document is written apart, rarely.
 */
export class QueueWriter {
  private running: Promise<void> | null = null;
  private pending: (() => QueueRecord | null) | null = null;

  /** Starts a write that waits for its `defer`. */
  private startDeferred: (() => void) | null = null;

  /**
   * Writes the newest state. With `defer`, the first write of a run starts when `defer` says; a
   * later schedule without it starts that write at once.
   */
  schedule(get: () => QueueRecord | null, defer?: (start: () => void) => void): void {
    this.pending = get;
    if (this.running) {
      if (!defer) this.startDeferred?.();
      return;
    }
    if (!defer) {
      this.running = this.drain();
      return;
    }
    this.running = new Promise<void>((start) => {
      this.startDeferred = start;
      defer(start);
    }).then(() => {
      this.startDeferred = null;
      return this.drain();
    });
  }

  /** Writes made by `writeNow` beside a running one, until they are done. */
  private readonly besides = new Set<Promise<void>>();

  /**
   * Leaving the page: the newest state is written at once, also while a write still runs (one
   * waiting behind it would start after the page is gone, and the last keystrokes with it).
   * IndexedDB runs readwrite transactions on a store in the order they were made, so this newest
   * state still lands after the running write's older one.
   */
  writeNow(get: () => QueueRecord | null): void {
    // Nothing running, or a deferred run not started yet: a schedule without defer starts it now.
    if (!this.running || this.startDeferred) {
      this.schedule(get);
      return;
    }
    this.pending = null;
    const record = get();
    if (!record) return;
    const write = writeQueue(record)
      .catch(() => {})
      .finally(() => this.besides.delete(write));
    this.besides.add(write);
  }

  /** Resolves once everything scheduled so far is written. */
  async idle(): Promise<void> {
    while (this.running || this.besides.size > 0) await (this.running ?? Promise.all(this.besides));
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending) {
        const get = this.pending;
        this.pending = null;
        const record = get();
        if (record) await writeQueue(record).catch(() => {});
      }
    } finally {
      this.running = null;
    }
  }
}
