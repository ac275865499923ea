import {
  type BiblistResponse,
  type InvalidEntriesResponse,
  invalidEntriesResponse,
  type ListStamp,
  MAX_ENTRIES_PER_SAVE,
  type SaveResponse,
} from '@scriptorium/common/api/bibliography';
import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import type { BibCategory, BibEntry, EntryData } from '@scriptorium/common/bibliography/types';
import { ApiError, call } from '../../api/client';
import { type BibCache, readBibCache, writeBibCache, writeCachedCategories } from './bib-cache';

/** Entries per save request of an import: small enough for a smooth progress bar. */
export const IMPORT_CHUNK_SIZE = 250;

export interface Library {
  entries: BibEntry[];
  categories: BibCategory[];
}

export function fetchBiblist(
  cache: Pick<BibCache, 'last_modified_biblist' | 'number_of_entries' | 'owner_id'>,
) {
  return call(bibliographyApi.list, {
    last_modified: cache.last_modified_biblist,
    number_of_entries: cache.number_of_entries,
    user_id: cache.owner_id,
  });
}

/**
 * Spec section 4, bibliography cache: the cached list is shown at once (onCached), then the
 * cheap check runs; a list from the server replaces the cache, otherwise the cache stands.
 */
export async function loadLibrary(userId: number, onCached?: (library: Library) => void): Promise<Library> {
  const cache = await readBibCache();
  if (cache.owner_id === userId && cache.number_of_entries >= 0) {
    onCached?.({ entries: cache.biblist, categories: cache.bib_categories });
  }
  const answer: BiblistResponse = await fetchBiblist(cache);
  if (answer.bib_list) {
    const next: BibCache = {
      ...cache,
      last_modified_biblist: answer.last_modified ?? -1,
      number_of_entries: answer.number_of_entries ?? answer.bib_list.length,
      owner_id: answer.user_id,
      biblist: answer.bib_list as BibEntry[],
      bib_categories: answer.bib_categories,
    };
    await writeBibCache(next);
    return { entries: next.biblist, categories: answer.bib_categories };
  }
  if (JSON.stringify(cache.bib_categories) !== JSON.stringify(answer.bib_categories)) {
    await writeCachedCategories(answer.bib_categories);
  }
  return { entries: cache.biblist, categories: answer.bib_categories };
}

/**
 * Keeps the cache in step with a write of ours. The server's stamp is taken over only when its
 * previous stamp is the one we had: otherwise someone else wrote too, and the next check must
 * fetch the list (-1).
 */
export async function rememberWrite(userId: number, stamp: ListStamp, library: Library): Promise<void> {
  const cache = await readBibCache();
  const current = cache.owner_id === userId && cache.last_modified_biblist === stamp.previous_last_modified;
  await writeBibCache({
    ...cache,
    owner_id: userId,
    last_modified_biblist: current ? stamp.last_modified : -1,
    number_of_entries: current ? stamp.number_of_entries : -1,
    biblist: library.entries,
    bib_categories: library.categories,
  });
}

/** Categories do not move the list's stamp (biblist always sends them): only the copy changes. */
export function rememberCategories(categories: BibCategory[]): Promise<void> {
  return writeCachedCategories(categories);
}

export class InvalidEntriesError extends Error {
  constructor(readonly answer: InvalidEntriesResponse) {
    super('invalid entries');
  }
}

/** Saves entries keyed by id (the client's temporary ids when new). */
export async function saveEntries(bibs: Map<number, EntryData>, isNew: boolean): Promise<SaveResponse> {
  try {
    return await call(bibliographyApi.save, { is_new: isNew, bibs: Object.fromEntries(bibs) });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const parsed = invalidEntriesResponse.safeParse(error.body);
      if (parsed.success) throw new InvalidEntriesError(parsed.data);
    }
    throw error;
  }
}

/** Splits a large save into requests of at most `size` entries, reporting progress after each. */
export async function saveInChunks(
  entries: EntryData[],
  onProgress: (saved: number, total: number) => void,
  size = Math.min(IMPORT_CHUNK_SIZE, MAX_ENTRIES_PER_SAVE),
): Promise<{ saved: BibEntry[]; last: SaveResponse | null; first: SaveResponse | null }> {
  const saved: BibEntry[] = [];
  let first: SaveResponse | null = null;
  let last: SaveResponse | null = null;
  for (let start = 0; start < entries.length; start += size) {
    const chunk = entries.slice(start, start + size);
    const bibs = new Map(chunk.map((entry, index) => [-(start + index + 1), entry]));
    const answer = await saveEntries(bibs, true);
    first ??= answer;
    last = answer;
    const keys = new Map(answer.entry_keys);
    for (const [tempId, id] of answer.id_translations) {
      const data = bibs.get(tempId);
      if (data) saved.push({ ...data, id, entry_key: keys.get(id) ?? data.entry_key });
    }
    onProgress(Math.min(start + size, entries.length), entries.length);
  }
  return { saved, first, last };
}

export function deleteEntries(ids: number[]) {
  return call(bibliographyApi.delete, { ids });
}

export async function saveCategories(ids: number[], titles: string[]): Promise<BibCategory[]> {
  return (await call(bibliographyApi.saveCategories, { ids, titles })).entries;
}

export function deleteCategories(ids: number[]) {
  return call(bibliographyApi.deleteCategories, { ids });
}
