import type { BibCategory, BibEntry } from '@scriptorium/common/bibliography/types';
import { reopeningDatabase } from '../../offline/reopening-db';

/** Spec sections 3, 4 and 9: the bibliography cache, version '1.1'. */
export const BIB_CACHE_VERSION = '1.1';
export const BIB_CACHE_DB = 'scriptorium-bibliography';
const STORE = 'cache';
const RECORD = 'bibliography';
/** The categories live apart: the check answers them every time, and rewriting the whole list
 * (megabytes for 10,000 entries) just to store them again would hold up the page. */
const CATEGORIES_RECORD = 'categories';

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

const open = reopeningDatabase(BIB_CACHE_DB, 1, (db) => {
  if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE);
});

/**
 * The cached list, or the empty state. A cache of another version is discarded (spec 4); a
 * broken or unavailable database counts as no cache.
 */
export async function readBibCache(): Promise<BibCache> {
  try {
    const db = await open();
    const transaction = db.transaction(STORE);
    const [record, categories] = (await Promise.all([
      transaction.store.get(RECORD),
      transaction.store.get(CATEGORIES_RECORD),
    ])) as [Partial<BibCache> | undefined, BibCategory[] | undefined];
    if (!record || record.version !== BIB_CACHE_VERSION || !Array.isArray(record.biblist)) {
      if (record) await db.delete(STORE, RECORD);
      return emptyCache();
    }
    return { ...emptyCache(), ...record, bib_categories: Array.isArray(categories) ? categories : [] };
  } catch {
    return emptyCache();
  }
}

export async function writeBibCache(cache: BibCache): Promise<void> {
  try {
    const db = await open();
    const { bib_categories, ...list } = cache;
    const transaction = db.transaction(STORE, 'readwrite');
    await Promise.all([
      transaction.store.put(list, RECORD),
      transaction.store.put(bib_categories, CATEGORIES_RECORD),
      transaction.done,
    ]);
  } catch {
    // A full or disabled store only costs the next start a full fetch.
  }
}

/** Stores the categories alone; the cached list stays as it is. */
export async function writeCachedCategories(categories: BibCategory[]): Promise<void> {
  try {
    const db = await open();
    await db.put(STORE, categories, CATEGORIES_RECORD);
  } catch {
    // The next check answers them again.
  }
}

export async function clearBibCache(): Promise<void> {
  try {
    const db = await open();
    const transaction = db.transaction(STORE, 'readwrite');
    await Promise.all([
      transaction.store.delete(RECORD),
      transaction.store.delete(CATEGORIES_RECORD),
      transaction.done,
    ]);
  } catch {
    // Nothing to clear.
  }
}
