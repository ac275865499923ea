import { z } from 'zod';
import { cacheNumber, formId, formIdOrZero, jsonId, text } from './fields';
import { jsonField } from './form';

/**
 * The image library (spec sections 2.5, 3, 5, 7 and 9): what server and browser agree on.
 * Pure rules live here too so that both sides and the tests use the same ones.
 */

/** Content types the server accepts after sniffing the bytes (never the name or declared type). */
export const ACCEPTED_IMAGE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/avif',
  'image/gif',
  'image/svg+xml',
] as const;
export type ImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/** What the file picker offers; the server still sniffs whatever arrives. */
export const IMAGE_ACCEPT_ATTRIBUTE = ACCEPTED_IMAGE_TYPES.join(',');

/** Default of MEDIA_MAX_SIZE: 10 MB. */
export const DEFAULT_MEDIA_MAX_SIZE = 10 * 1024 * 1024;

/** Licences offered in the image dialog: SPDX ids plus two plain states; '' means not stated. */
export const IMAGE_LICENCES = [
  '',
  'CC-BY-4.0',
  'CC-BY-SA-4.0',
  'CC-BY-ND-4.0',
  'CC-BY-NC-4.0',
  'CC-BY-NC-SA-4.0',
  'CC-BY-NC-ND-4.0',
  'CC0-1.0',
  'public-domain',
  'all-rights-reserved',
] as const;
export type ImageLicence = (typeof IMAGE_LICENCES)[number];

export const imageCopyright = z.object({
  holder: text().trim().max(300).default(''),
  licence: z.enum(IMAGE_LICENCES).default(''),
});
export type ImageCopyright = z.infer<typeof imageCopyright>;

/** Spec section 3: Image. `added` is milliseconds since the epoch. */
export const image = z.object({
  id: z.number().int(),
  title: z.string(),
  file_type: z.enum(ACCEPTED_IMAGE_TYPES),
  width: z.number().int(),
  height: z.number().int(),
  /** Bytes of the stored file. */
  size: z.number().int(),
  added: z.number(),
  /** URL of the thumbnail under /media/. */
  thumbnail: z.string(),
  /** URL of the image under /media/. */
  image: z.string(),
  cats: z.array(z.number().int()),
  copyright: imageCopyright,
});
export type Image = z.infer<typeof image>;

/** Spec section 3: Image category. */
export const imageCategory = z.object({ id: z.number().int(), category_title: z.string() });
export type ImageCategory = z.infer<typeof imageCategory>;

/** GET /api/usermedia/images/ */
export const imagesResponse = z.object({
  images: z.array(image),
  imageCategories: z.array(imageCategory),
});
export type ImagesResponse = z.infer<typeof imagesResponse>;

/**
 * GET /api/usermedia/images/ with the client's cached state (the bibliography's protocol, spec
 * section 7's biblist): the stamp and count it holds and whose library it is. Without these
 * fields the call is the spec's plain list.
 */
export const imagesCheckRequest = z.object({
  last_modified: cacheNumber,
  number_of_images: cacheNumber,
  user_id: cacheNumber,
});
export type ImagesCheckRequest = z.input<typeof imagesCheckRequest>;

/**
 * The answer to the check: the categories, the owner and the current stamp always; `images` only
 * when the client's copy is stale (a newer change, another count, another user's cache).
 */
export const imagesCheckResponse = z.object({
  images: z.array(image).optional(),
  imageCategories: z.array(imageCategory),
  user_id: z.number().int(),
  last_modified: z.number(),
  number_of_images: z.number().int(),
});
export type ImagesCheckResponse = z.infer<typeof imagesCheckResponse>;

const idField = formIdOrZero;
const positiveId = formId;

/** Form arrays arrive as string lists; a single `name[]` entry is still a list. */
const idList = z.array(positiveId).max(10000);

/**
 * POST /api/usermedia/save/ (multipart): the image fields. id 0 (or absent) is a new image and
 * needs the file; an existing image changes only its title, categories and copyright.
 */
export const saveImageFields = z.object({
  id: idField.default(0),
  title: text().trim().max(255).default(''),
  cats: z._default(jsonField(z.array(jsonId).max(1000)), []),
  copyright: z._default(jsonField(imageCopyright), { holder: '', licence: '' }),
});
export type SaveImageFields = z.infer<typeof saveImageFields>;

/** Answer of POST /api/usermedia/save/: errormsg is empty on success, `{ error }` on failure. */
export const saveImageResponse = z.object({
  errormsg: z.object({ error: z.string().optional() }),
  values: image.optional(),
});
export type SaveImageResponse = z.infer<typeof saveImageResponse>;

/** DELETE /api/usermedia/delete/ */
export const deleteImagesRequest = z.object({ ids: idList.min(1) });
export const deleteImagesResponse = z.object({ ids: z.array(z.number().int()) });

/** POST /api/usermedia/save_category/: parallel lists; id 0 is a new category. */
export const saveCategoriesRequest = z
  .object({
    ids: z.array(idField).max(1000).default([]),
    titles: z.array(text().max(255)).max(1000).default([]),
  })
  .refine((value) => value.ids.length === value.titles.length, { path: ['titles'] });
export const saveCategoriesResponse = z.object({ entries: z.array(imageCategory) });

export interface CategoryEdit {
  id: number;
  title: string;
}

/**
 * Spec section 5, category editing: titles are trimmed, empty titles are dropped, id 0 is new.
 * Categories that are left out are removed by the server (replace-all).
 */
export function normaliseCategoryEdits(ids: readonly number[], titles: readonly string[]): CategoryEdit[] {
  const edits: CategoryEdit[] = [];
  const seen = new Set<number>();
  titles.forEach((raw, index) => {
    const title = raw.trim();
    const id = ids[index] ?? 0;
    if (!title) return;
    // An existing id listed twice would be renamed twice; the first wins, like in a form.
    if (id !== 0 && seen.has(id)) return;
    if (id !== 0) seen.add(id);
    edits.push({ id, title });
  });
  return edits;
}

/** Spec 2.5 and 3: the file type column shows the subtype in upper case (image/png -> PNG). */
export function fileTypeLabel(mime: string): string {
  const slash = mime.indexOf('/');
  return (slash >= 0 ? mime.slice(slash + 1) : mime).toUpperCase();
}

/**
 * Spec 2.5 and 9: column 0 (the id) is always hidden; below 500 px column 1 (the select
 * checkbox) is hidden too.
 */
export const NARROW_WINDOW_WIDTH = 500;

/** Spec 9 table defaults. */
export const IMAGE_TABLE_PAGE_SIZE = 10;
export const IMAGE_TABLE_PAGE_SIZES = [5, 10, 15, 20, 25] as const;
