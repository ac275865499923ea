import { reopeningDatabase } from './reopening-db';

const STORE = 'cache';

/** A database of its own holding a cached list's records in one store, each under a fixed key. */
export interface CacheDatabase {
  /** The records under these keys, in their order (undefined where there is none). */
  get(keys: readonly string[]): Promise<unknown[]>;
  /** Writes the records (key, value) in one transaction. */
  put(records: readonly (readonly [string, unknown])[]): Promise<void>;
  /** Deletes the records under these keys in one transaction. */
  delete(keys: readonly string[]): Promise<void>;
}

/**
 * The database `name` (version 1, one store 'cache') of a list cache such as the bibliography's
 * or the image library's. Each call rejects when the database cannot be opened: the caller counts
 * that as no cache.
 */
export function cacheDatabase(name: string): CacheDatabase {
  const open = reopeningDatabase(name, 1, (db) => {
    if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE);
  });
  return {
    async get(keys) {
      const { store } = (await open()).transaction(STORE);
      return Promise.all(keys.map((key) => store.get(key)));
    },
    async put(records) {
      const transaction = (await open()).transaction(STORE, 'readwrite');
      await Promise.all([
        ...records.map(([key, value]) => transaction.store.put(value, key)),
        transaction.done,
      ]);
    },
    async delete(keys) {
      const transaction = (await open()).transaction(STORE, 'readwrite');
      await Promise.all([...keys.map((key) => transaction.store.delete(key)), transaction.done]);
    },
  };
}
