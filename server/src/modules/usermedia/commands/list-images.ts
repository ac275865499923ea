import type { ImagesCheckRequest } from '@scriptorium/common/api/usermedia';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/database';
import type { Actor } from '../../command';
import { presentCategory, presentImage } from '../presenters';
import {
  categoriesByImage,
  type ImageLibraryState,
  listOwnCategories,
  listOwnImages,
  readImageState,
} from '../queries';

/** An owner's list as JSON text, valid while the library's stamp is the one it was read under. */
interface CachedList extends ImageLibraryState {
  images: string;
  categories: string;
}

/** At most this many characters of cached lists per database (5,000 images are about 1.8 MB). */
const CACHE_BUDGET = 64 * 1024 * 1024;

/** Per database (tests run many apps in one process), per owner, least recently used first. */
const caches = new WeakMap<Db, Map<number, CachedList>>();

function cacheOf(db: Db): Map<number, CachedList> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

function remember(cache: Map<number, CachedList>, ownerId: number, entry: CachedList): void {
  cache.delete(ownerId);
  cache.set(ownerId, entry);
  let size = 0;
  for (const cached of cache.values()) size += cached.images.length + cached.categories.length;
  for (const [owner, cached] of cache) {
    if (size <= CACHE_BUDGET) break;
    cache.delete(owner);
    size -= cached.images.length + cached.categories.length;
  }
}

/**
 * The owner's images and categories as JSON text. The stamp is read first (one indexed row); a
 * list built under the same stamp is sent as it was, else the rows are read and presented again.
 * Every write to the library moves the stamp in its own transaction (touchImageState), in any
 * process, so a cached list is never older than its stamp says. A write between the stamp and
 * the rows leaves newer rows under an older stamp, which the next request no longer matches.
 */
async function currentList(db: Db, ownerId: number): Promise<CachedList> {
  const state = await readImageState(db, ownerId);
  const cache = cacheOf(db);
  const cached = cache.get(ownerId);
  if (
    cached &&
    cached.last_modified === state.last_modified &&
    cached.number_of_images === state.number_of_images
  ) {
    remember(cache, ownerId, cached);
    return cached;
  }
  const [rows, cats, categories] = await Promise.all([
    listOwnImages(db, ownerId),
    categoriesByImage(db, ownerId),
    listOwnCategories(db, ownerId),
  ]);
  const entry: CachedList = {
    ...state,
    images: JSON.stringify(rows.map((row) => presentImage(row, cats.get(row.id) ?? []))),
    categories: JSON.stringify(categories.map(presentCategory)),
  };
  remember(cache, ownerId, entry);
  return entry;
}

/** GET /api/usermedia/images/: the user's images and image categories (JSON text). */
export async function listImages(ctx: AppContext, owner: Actor): Promise<string> {
  const list = await currentList(ctx.db, owner.id);
  return `{"images":${list.images},"imageCategories":${list.categories}}`;
}

/**
 * The same with the client's cached state: the images only when its copy is stale (a newer
 * change here, another count, or another user's cache); categories and stamp always.
 */
export async function checkImages(
  ctx: AppContext,
  owner: Actor,
  client: Required<{ [K in keyof ImagesCheckRequest]: number }>,
): Promise<string> {
  const ownerId = owner.id;
  const list = await currentList(ctx.db, ownerId);
  const current =
    client.user_id === ownerId &&
    client.number_of_images === list.number_of_images &&
    client.last_modified >= list.last_modified;
  const images = current ? '' : `"images":${list.images},`;
  return `{${images}"imageCategories":${list.categories},"user_id":${ownerId},"last_modified":${list.last_modified},"number_of_images":${list.number_of_images}}`;
}
