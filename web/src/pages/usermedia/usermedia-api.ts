import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import type {
  Image,
  ImageCategory,
  ImageCopyright,
  ImagesResponse,
  SaveImageResponse,
} from '@scriptorium/common/api/usermedia';
import type { TFunction } from 'i18next';
import { ApiError, call } from '../../api/client';
import { readRows, throughCache, writeRows } from '../../offline/local-db';
import { imageCacheAvailable, readImageCache, writeImageCache } from './image-cache';

/**
 * The library: the cached copy's stamp goes with the request, and the server answers the images
 * only when that copy is stale; a new list replaces the cache. Without IndexedDB, the plain list.
 */
async function fetchImagesChecked(): Promise<ImagesResponse> {
  if (!imageCacheAvailable()) return call(usermediaApi.images);
  const cache = await readImageCache();
  const answer = await call(usermediaApi.imagesCheck, {
    last_modified: cache.last_modified,
    number_of_images: cache.number_of_images,
    user_id: cache.owner_id,
  });
  if (!answer.images) return { images: cache.images, imageCategories: answer.imageCategories };
  await writeImageCache({
    ...cache,
    last_modified: answer.last_modified,
    number_of_images: answer.number_of_images,
    owner_id: answer.user_id,
    images: answer.images,
    imageCategories: answer.imageCategories,
  });
  return { images: answer.images, imageCategories: answer.imageCategories };
}

/** The images and categories; offline, the ones cached in the local database (spec 4). */
export function fetchImages(): Promise<ImagesResponse> {
  return throughCache(
    fetchImagesChecked,
    async (answer) => {
      await writeRows('image_list', answer.images);
      await writeRows('image_categories', answer.imageCategories);
    },
    async () => {
      const images = await readRows<Image>('image_list');
      if (!images?.length) return null;
      return { images, imageCategories: (await readRows<ImageCategory>('image_categories')) ?? [] };
    },
  );
}

export async function saveCategories(edits: { id: number; title: string }[]): Promise<ImageCategory[]> {
  const answer = await call(usermediaApi.saveCategories, {
    ids: edits.map((edit) => edit.id),
    titles: edits.map((edit) => edit.title),
  });
  return answer.entries;
}

export async function deleteImages(ids: number[]): Promise<void> {
  await call(usermediaApi.delete, { ids });
}

export interface ImageFields {
  title: string;
  cats: number[];
  copyright: ImageCopyright;
}

function savedImage(answer: SaveImageResponse): Image {
  if (!answer.values) throw new Error(answer.errormsg.error ?? 'no image in the answer');
  return answer.values;
}

/** Title, categories and copyright of an existing image (spec 7: multipart, without a file). */
export async function updateImage(id: number, fields: ImageFields): Promise<Image> {
  return savedImage(await call(usermediaApi.save, { id, ...fields }));
}

/** Uploads a new image, reporting the share sent (0 to 1), which the dialog shows per file. */
export async function uploadImage(
  file: File,
  fields: ImageFields,
  onProgress: (fraction: number) => void,
): Promise<Image> {
  const answer = await call(
    usermediaApi.save,
    { id: 0, ...fields, image: file },
    { onUploadProgress: onProgress },
  );
  return savedImage(answer);
}

function serverMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as { errormsg?: { error?: unknown }; message?: unknown; form?: { errors?: unknown } };
  if (typeof record.errormsg?.error === 'string') return record.errormsg.error;
  if (typeof record.message === 'string') return record.message;
  const formErrors = record.form?.errors;
  if (Array.isArray(formErrors) && typeof formErrors[0] === 'string') return formErrors[0];
  return undefined;
}

/**
 * Spec section 8, image save: 413 gives 'Image is larger than the maximum permitted size';
 * otherwise the server's error message or the status text.
 */
export function saveErrorMessage(error: unknown, t: TFunction<'usermedia'>): string {
  if (error instanceof ApiError) {
    if (error.status === 413) return t('tooLarge');
    return serverMessage(error.body) ?? error.statusText ?? String(error.status);
  }
  if (!navigator.onLine) return t('offline');
  return error instanceof Error ? error.message : String(error);
}
