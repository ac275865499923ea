import {
  deleteImagesResponse,
  type Image,
  type ImageCategory,
  type ImageCopyright,
  type ImagesResponse,
  imagesResponse,
  saveCategoriesResponse,
  saveImageResponse,
} from '@scriptorium/common/api/usermedia';
import type { TFunction } from 'i18next';
import { ApiError, apiDelete, apiGet, apiPost, readCookie } from '../../api/client';

export const IMAGES_PATH = '/api/usermedia/images/';
export const SAVE_PATH = '/api/usermedia/save/';
export const SAVE_CATEGORY_PATH = '/api/usermedia/save_category/';
export const DELETE_PATH = '/api/usermedia/delete/';

export function fetchImages(): Promise<ImagesResponse> {
  return apiGet(IMAGES_PATH, imagesResponse);
}

export async function saveCategories(edits: { id: number; title: string }[]): Promise<ImageCategory[]> {
  const answer = await apiPost(
    SAVE_CATEGORY_PATH,
    { ids: edits.map((edit) => edit.id), titles: edits.map((edit) => edit.title) },
    saveCategoriesResponse,
  );
  return answer.entries;
}

export async function deleteImages(ids: number[]): Promise<void> {
  await apiDelete(DELETE_PATH, { ids }, deleteImagesResponse);
}

export interface ImageFields {
  title: string;
  cats: number[];
  copyright: ImageCopyright;
}

function imageForm(fields: ImageFields, id: number): FormData {
  const form = new FormData();
  form.append('id', String(id));
  form.append('title', fields.title);
  form.append('cats', JSON.stringify(fields.cats));
  form.append('copyright', JSON.stringify(fields.copyright));
  return form;
}

function savedImage(body: unknown): Image {
  const answer = saveImageResponse.parse(body);
  if (!answer.values) throw new Error(answer.errormsg.error ?? 'no image in the answer');
  return answer.values;
}

/** Title, categories and copyright of an existing image (spec 7: multipart, without a file). */
export async function updateImage(id: number, fields: ImageFields): Promise<Image> {
  return savedImage(await apiPost(SAVE_PATH, imageForm(fields, id)));
}

/**
 * Uploads a new image. XMLHttpRequest rather than fetch: only it reports upload progress, which
 * the dialog shows per file. Errors are ApiErrors like the other calls, so they map alike.
 */
export function uploadImage(
  file: File,
  fields: ImageFields,
  onProgress: (fraction: number) => void,
): Promise<Image> {
  const form = imageForm(fields, 0);
  form.append('image', file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', SAVE_PATH);
    request.setRequestHeader('Accept', 'application/json');
    const csrf = readCookie('csrftoken');
    if (csrf) request.setRequestHeader('X-CSRFToken', csrf);
    request.withCredentials = true;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: unknown = null;
      try {
        body = request.responseText ? JSON.parse(request.responseText) : null;
      } catch {
        body = request.responseText;
      }
      if (request.status < 200 || request.status >= 300) {
        reject(new ApiError(request.status, request.statusText, body));
        return;
      }
      try {
        onProgress(1);
        resolve(savedImage(body));
      } catch (error) {
        reject(error);
      }
    };
    request.onerror = () => reject(new TypeError('Network error'));
    request.send(form);
  });
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
