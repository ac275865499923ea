import type { EntryData } from '../bibliography/types';
import type { ImportNoteItem } from './problems';

/**
 * What every reader (DOCX, ODT, native) hands over: a document that is valid for our schema, with
 * placeholders for what only the server can fill in (library image ids, bibliography keys of the
 * user's library, comment thread rows).
 */

/** `figure.attrs.src` of an imported image until the server has stored it: IMAGE_PREFIX + key. */
export const IMAGE_PREFIX = 'import:';

export interface ImportedImage {
  key: string;
  /** File name inside the source (for the library title and the report). */
  name: string;
  bytes: Uint8Array;
}

/** One bibliography entry; citations and the document's `bib_entry` nodes use `key` as their id. */
export interface ImportedEntry {
  key: string;
  data: EntryData;
}

export interface ImportedComment {
  author: string;
  /** Milliseconds since 1970; 0 when the file had none. */
  date: number;
  text: string;
}

/** A comment thread: `id` is the `comment` mark's id in the content. */
export interface ImportedThread {
  id: number;
  resolved: boolean;
  comments: ImportedComment[];
}

export interface ImportedDocument {
  format: 'docx' | 'odt' | 'native';
  title: string;
  /** ProseMirror JSON of the whole document (title, template parts, bibliography part). */
  content: Record<string, unknown>;
  images: ImportedImage[];
  bibliography: ImportedEntry[];
  threads: ImportedThread[];
  notes: ImportNoteItem[];
}

/** The image key of a figure: an imported file's placeholder, or the library id of a native file. */
export function figureImageKey(attrs: Record<string, unknown>): string | null {
  const src = typeof attrs.src === 'string' ? attrs.src : '';
  if (src.startsWith(IMAGE_PREFIX)) return src.slice(IMAGE_PREFIX.length);
  return typeof attrs.image === 'number' && attrs.image > 0 ? String(attrs.image) : null;
}
