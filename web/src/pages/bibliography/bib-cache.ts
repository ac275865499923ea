import type { BibCategory, BibEntry } from '@scriptorium/common/bibliography/types';
import { cacheDatabase } from '../../offline/cache-database';

/** Spec sections 3, 4 and 9: the bibliography cache, version '1.1'. */
export const BIB_CACHE_VERSION = '1.1';
export const BIB_CACHE_DB = 'scriptorium-bibliography';
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

const database = cacheDatabase(BIB_CACHE_DB);

/**
 * The cached list, or the empty state. A cache of another version is discarded (spec 4); a
 * broken or unavailable database counts as no cache.
 */
export async function readBibCache(): Promise<BibCache> {
  try {
    const [record, categories] = (await database.get([RECORD, CATEGORIES_RECORD])) as [
      Partial<BibCache> | undefined,
      BibCategory[] | undefined,
    ];
    if (!record || record.version !== BIB_CACHE_VERSION || !Array.isArray(record.biblist)) {
      if (record) await database.delete([RECORD]);
      return emptyCache();
    }
    return { ...emptyCache(), ...record, bib_categories: Array.isArray(categories) ? categories : [] };
  } catch {
    return emptyCache();
  }
}

export async function writeBibCache(cache: BibCache): Promise<void> {
  try {
    const { bib_categories, ...list } = cache;
    await database.put([
      [RECORD, list],
      [CATEGORIES_RECORD, bib_categories],
    ]);
  } catch {
    // A full or disabled store only costs the next start a full fetch.
  }
}

/** Stores the categories alone; the cached list stays as it is. */
export async function writeCachedCategories(categories: BibCategory[]): Promise<void> {
  try {
    await database.put([[CATEGORIES_RECORD, categories]]);
  } catch {
    // The next check answers them again.
  }
}

export async function clearBibCache(): Promise<void> {
  try {
    await database.delete([RECORD, CATEGORIES_RECORD]);
  } catch {
    // Nothing to clear.
  }
}
