import { type IDBPDatabase, openDB } from 'idb';

/**
 * Opens the IndexedDB database `name` once per page, and again on the next call after another tab
 * deleted or upgraded it (this tab lets go at once, so that it is never the one blocking) or the
 * browser closed it. A failed open is tried again on the next call.
 */
export function reopeningDatabase(
  name: string,
  version: number,
  upgrade: (db: IDBPDatabase, oldVersion: number) => void,
): () => Promise<IDBPDatabase> {
  let opening: Promise<IDBPDatabase> | null = null;
  return () => {
    opening ??= openDB(name, version, {
      upgrade: (db, oldVersion) => upgrade(db, oldVersion),
      blocking() {
        void opening?.then((db) => db.close());
        opening = null;
      },
      terminated() {
        opening = null;
      },
    }).catch((error: unknown) => {
      opening = null;
      throw error;
    });
    return opening;
  };
}
