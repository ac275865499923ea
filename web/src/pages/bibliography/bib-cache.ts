import type { BibCategory, BibEntry } from '@scriptorium/common/bibliography/types';
import { type IDBPDatabase, openDB } from 'idb';

/** Spec sections 3, 4 and 9: the bibliography cache, version '1.1'. */
export const BIB_CACHE_VERSION = '1.1';
export const BIB_CACHE_DB = 'scriptorium-bibliography';
const STORE = 'cache';
const RECORD = 'bibliography';

export interface BibCache {
  version: string;
  last_modified_biblist: number;
  number_of_entries: number;
  owner_id: number;
  biblist: BibEntry[];
  /** Not in the spec's list, but kept so that the screen can draw its filter before the check returns. */
  bib_categories: BibCategory[];
}

/** The state of no cache at all: every value -1 (spec section 4), so the server sends the list. */
export function emptyCache(): BibCache {
  return {
    version: BIB_CACHE_VERSION,
    last_modified_biblist: -1,
    number_of_entries: -1,
    owner_id: -1,
    biblist: [],
    bib_categories: [],
  };
}

let opening: Promise<IDBPDatabase> | null = null;

function open(): Promise<IDBPDatabase> {
  opening ??= openDB(BIB_CACHE_DB, 1, {
    upgrade(db) {
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE);
    },
    // Another tab deleted or upgraded the database (e.g. a language change): reopen next time.
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
}

/**
 * The cached list, or the empty state. A cache of another version is discarded (spec 4); a
 * broken or unavailable database counts as no cache.
 */
export async function readBibCache(): Promise<BibCache> {
  try {
    const db = await open();
    const record = (await db.get(STORE, RECORD)) as Partial<BibCache> | undefined;
    if (!record || record.version !== BIB_CACHE_VERSION || !Array.isArray(record.biblist)) {
      if (record) await db.delete(STORE, RECORD);
      return emptyCache();
    }
    return { ...emptyCache(), ...record } as BibCache;
  } catch {
    return emptyCache();
  }
}

export async function writeBibCache(cache: BibCache): Promise<void> {
  try {
    const db = await open();
    await db.put(STORE, cache, RECORD);
  } catch {
    // A full or disabled store only costs the next start a full fetch.
  }
}

export async function clearBibCache(): Promise<void> {
  try {
    const db = await open();
    await db.delete(STORE, RECORD);
  } catch {
    // Nothing to clear.
  }
}
