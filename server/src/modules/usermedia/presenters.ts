import type { Image, ImageCategory, ImageLicence, ImageType } from '@scriptorium/common/api/usermedia';
import type { Selectable } from 'kysely';
import type { UsermediaCategoriesTable, UsermediaImagesTable } from '../../db/schema';
import { imageFileName, thumbnailFileName } from './storage';

export type ImageRow = Selectable<UsermediaImagesTable>;
export type CategoryRow = Selectable<UsermediaCategoriesTable>;

/** The URL prefix of served files; the media routes answer under it. */
export const MEDIA_URL = '/media';

export function imageUrl(row: Pick<ImageRow, 'sha256' | 'file_type'>): string {
  return `${MEDIA_URL}/images/${imageFileName(row.sha256, row.file_type as ImageType)}`;
}

export function thumbnailUrl(row: Pick<ImageRow, 'sha256'>): string {
  return `${MEDIA_URL}/thumbnails/${thumbnailFileName(row.sha256)}`;
}

/** Spec section 3, Image. The owner and the hash stay inside (the hash is in the URLs only). */
export function presentImage(row: ImageRow, cats: number[]): Image {
  return {
    id: row.id,
    title: row.title,
    file_type: row.file_type as ImageType,
    width: row.width,
    height: row.height,
    size: row.size,
    added: row.added,
    thumbnail: thumbnailUrl(row),
    image: imageUrl(row),
    cats,
    copyright: { holder: row.copyright_holder, licence: row.licence as ImageLicence },
  };
}

export function presentCategory(row: CategoryRow): ImageCategory {
  return { id: row.id, category_title: row.category_title };
}
