import { type IDBPDatabase, openDB } from 'idb';
import { localUser, onLocalUserChange } from './local-user';

/**
 * The spec's local database (sections 3, 4 and 9): named after the username, version 4, one store
 * per route table, each keyed by id; the contacts page's store user_data holds one record, id 1.
 * On an open error or a missing store it is deleted and recreated. The screens write what the
 * server answered and read it back when the server cannot be reached (offline viewing).
 */
export const LOCAL_DB_VERSION = 4;
export const LOCAL_STORES = [
  // Route / and /documents/: the document overview (and the editor's document entries).
  'document_list',
  // Route /usermedia/: images and their categories.
  'image_list',
  'image_categories',
  // Route /templates/ and /books/ (plugins).
  'templates_list',
  'books_data',
  // Route /user/contacts/: one record { id: 1, contacts }.
  'user_data',
] as const;
export type LocalStore = (typeof LOCAL_STORES)[number];

let opening: Promise<IDBPDatabase | null> | null = null;

export { localUser, setLocalUser } from './local-user';

// Another user (or none, after logout): the database of the new name is used from now on.
onLocalUserChange(() => {
  const previous = opening;
  opening = null;
  void previous?.then((db) => db?.close());
});

function openOnce(name: string): Promise<IDBPDatabase> {
  return openDB(name, LOCAL_DB_VERSION, {
    upgrade(db) {
      for (const store of LOCAL_STORES)
        if (!db.objectStoreNames.contains(store)) db.createObjectStore(store, { keyPath: 'id' });
    },
    blocking() {
      // Another tab deletes or upgrades it: let go, open again next time.
      void opening?.then((db) => db?.close());
      opening = null;
    },
  });
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

/** The user's database, or null (no user, no IndexedDB, or it cannot be made). */
export function localDb(): Promise<IDBPDatabase | null> {
  const name = localUser();
  if (!name || typeof indexedDB === 'undefined') return Promise.resolve(null);
  opening ??= (async () => {
    try {
      const db = await openOnce(name);
      if (LOCAL_STORES.every((store) => db.objectStoreNames.contains(store))) return db;
      db.close();
    } catch {
      // Broken, or a newer version from another build: start again (spec 4).
    }
    await deleteDatabase(name);
    try {
      return await openOnce(name);
    } catch {
      return null;
    }
  })();
  return opening;
}

/** Replaces a store's rows with the server's answer. */
export async function writeRows(store: LocalStore, rows: readonly object[]): Promise<void> {
  const db = await localDb();
  if (!db) return;
  const tx = db.transaction(store, 'readwrite');
  await tx.store.clear();
  await Promise.all([...rows.map((row) => tx.store.put(row)), tx.done]);
}

/** Adds or updates some rows of a store (e.g. one document entry). */
export async function putRows(store: LocalStore, rows: readonly object[]): Promise<void> {
  const db = await localDb();
  if (!db) return;
  const tx = db.transaction(store, 'readwrite');
  await Promise.all([...rows.map((row) => tx.store.put(row)), tx.done]);
}

export async function readRows<T>(store: LocalStore): Promise<T[] | null> {
  const db = await localDb();
  if (!db) return null;
  const rows = (await db.getAll(store)) as T[];
  return rows;
}

export async function readRow<T>(store: LocalStore, id: number): Promise<T | null> {
  const db = await localDb();
  if (!db) return null;
  return ((await db.get(store, id)) as T | undefined) ?? null;
}

/** Whether a failed call failed for want of a connection (rather than an answer of the server). */
export function isNetworkFailure(error: unknown): boolean {
  return !navigator.onLine || error instanceof TypeError;
}

/**
 * Online: the server's answer, written to the cache on the way. When the server cannot be reached
 * (offline, network error) and the cache has something: the cached answer instead.
 */
export async function throughCache<T>(
  fetch: () => Promise<T>,
  write: (answer: T) => Promise<void>,
  read: () => Promise<T | null>,
): Promise<T> {
  if (navigator.onLine) {
    try {
      const answer = await fetch();
      void write(answer).catch(() => {});
      return answer;
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
      const cached = await read().catch(() => null);
      if (cached) return cached;
      throw error;
    }
  }
  const cached = await read().catch(() => null);
  if (cached) return cached;
  return fetch();
}

/**
 * An overview's rows through the cache: the server's list, kept in `store` on the way; offline,
 * the rows kept there (none kept counts as no cached answer).
 */
export function rowsThroughCache<T extends object>(
  store: LocalStore,
  fetch: () => Promise<T[]>,
): Promise<T[]> {
  return throughCache(
    fetch,
    (rows) => writeRows(store, rows),
    async () => {
      const rows = await readRows<T>(store);
      return rows?.length ? rows : null;
    },
  );
}
