import type { Image, ImageCategory } from '@scriptorium/common/api/usermedia';
import { cacheDatabase } from '../../offline/cache-database';

/**
 * The browser's copy of the image library, kept like the bibliography cache (bib-cache.ts): the
 * server's stamp and count go with the list, and the cheap check (usermediaApi.imagesCheck)
 * answers the list only when they are stale. A small module of its own, so that the local
 * database of the offline work can take it over as one more store.
 */
export const IMAGE_CACHE_VERSION = '1';
export const IMAGE_CACHE_DB = 'scriptorium-images';
const RECORD = 'images';

export interface ImageCache {
  version: string;
  last_modified: number;
  number_of_images: number;
  owner_id: number;
  images: Image[];
  imageCategories: ImageCategory[];
}

/** No cache: every value -1, so the server sends the list. */
export function emptyImageCache(): ImageCache {
  return {
    version: IMAGE_CACHE_VERSION,
    last_modified: -1,
    number_of_images: -1,
    owner_id: -1,
    images: [],
    imageCategories: [],
  };
}

const database = cacheDatabase(IMAGE_CACHE_DB);

/** Whether this browser can keep a cache at all (no IndexedDB: every load is the plain list). */
export function imageCacheAvailable(): boolean {
  return typeof indexedDB !== 'undefined';
}

/** The cached library, or the empty state: another version or a broken database is no cache. */
export async function readImageCache(): Promise<ImageCache> {
  try {
    const [record] = (await database.get([RECORD])) as [Partial<ImageCache> | undefined];
    if (!record || record.version !== IMAGE_CACHE_VERSION || !Array.isArray(record.images)) {
      return emptyImageCache();
    }
    return { ...emptyImageCache(), ...record };
  } catch {
    return emptyImageCache();
  }
}

export async function writeImageCache(cache: ImageCache): Promise<void> {
  try {
    await database.put([[RECORD, cache]]);
  } catch {
    // A full or disabled store only costs the next start a full fetch.
  }
}

export async function clearImageCache(): Promise<void> {
  try {
    await database.delete([RECORD]);
  } catch {
    // Nothing to clear.
  }
}
