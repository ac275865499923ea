import { z } from 'zod';
import { formId, jsonId, text } from '../api/fields';
import { jsonField } from '../api/form';
import { PAPER_SIZES } from '../editor/vocabulary';
import { itemCreateRequest, itemListFields, itemSaveRequest } from './items-api';

/**
 * The Books plugin's contract. A book is an ordered list of chapters, each a document; `part`
 * groups consecutive chapters under a part title. An exporter walks `chapters` in order and starts
 * a new part whenever `part` changes.
 */

export const BOOK_TITLE_MAX = 255;
/** A book is shared like a document, with the two rights a book knows. */
export const BOOK_RIGHTS = ['read', 'write'] as const;
export const bookRight = z.enum(BOOK_RIGHTS);
export type BookRight = z.infer<typeof bookRight>;

export const bookMetadata = z.object({
  authors: text().max(1000).default(''),
  publisher: text().max(255).default(''),
  isbn: text().max(32).default(''),
  copyright: text().max(1000).default(''),
  language: text().max(20).default(''),
  /** An image of the owner's image library, or null. */
  cover_image: jsonId.nullable().default(null),
});
export type BookMetadata = z.infer<typeof bookMetadata>;

/** Where a book's bibliography goes: one at the end of the book, or one after each chapter. */
export const BOOK_BIBLIOGRAPHY_PLACES = ['book', 'chapter'] as const;

export const bookSettings = z.object({
  citation_style: text().max(100).default(''),
  paper_size: z.enum(PAPER_SIZES).default('A4'),
  bibliography: z.enum(BOOK_BIBLIOGRAPHY_PLACES).default('book'),
});
export type BookSettings = z.infer<typeof bookSettings>;

export const bookListEntry = z.object({
  ...itemListFields,
  is_owner: z.boolean(),
  owner: z.string(),
  /** null for the owner. */
  rights: bookRight.nullable(),
});
export type BookListEntry = z.infer<typeof bookListEntry>;

/** GET /api/books/list/: the books the user owns or holds a right to. */
export const bookListResponse = z.object({ books: z.array(bookListEntry) });
export type BookListResponse = z.infer<typeof bookListResponse>;

export const bookChapter = z.object({
  document_id: z.number(),
  /** The part this chapter belongs to ('' for none). */
  part: z.string(),
  /** false when the viewer cannot read the document (it was unshared): no title, no link. */
  available: z.boolean(),
  title: z.string(),
  /** The document's path for the viewer (its address). */
  path: z.string(),
});
export type BookChapter = z.infer<typeof bookChapter>;

export const bookEntry = bookListEntry.extend({
  metadata: bookMetadata,
  settings: bookSettings,
  chapters: z.array(bookChapter),
});
export type BookEntry = z.infer<typeof bookEntry>;

export const bookGetResponse = z.object({ book: bookEntry });

export const bookCreateRequest = itemCreateRequest(BOOK_TITLE_MAX, {});

export const bookSaveRequest = itemSaveRequest(BOOK_TITLE_MAX, {
  metadata: jsonField(bookMetadata),
  settings: jsonField(bookSettings),
});

export const chapterInput = z.object({ document_id: jsonId, part: text().trim().max(255).default('') });
export type ChapterInput = z.input<typeof chapterInput>;
/** Replaces the chapter list in the order given (each document at most once). */
export const bookChaptersRequest = z.object({
  id: formId,
  chapters: jsonField(z.array(chapterInput).max(500)),
});

export const bookAccessEntry = z.object({ user_id: z.number(), name: z.string(), rights: bookRight });
export type BookAccessEntry = z.infer<typeof bookAccessEntry>;
export const bookAccessResponse = z.object({ access: z.array(bookAccessEntry) });
export const bookAccessSaveRequest = z.object({
  id: formId,
  access: jsonField(z.array(z.object({ user_id: jsonId, rights: bookRight })).max(1000)),
});

/** The formats a whole book is exported to (issue 21; PDF is laid out by the server). */
export const BOOK_EXPORT_FORMATS = ['epub', 'pdf', 'docx', 'html', 'latex'] as const;
export type BookExportFormat = (typeof BOOK_EXPORT_FORMATS)[number];

export function isBookExportFormat(name: string): name is BookExportFormat {
  return (BOOK_EXPORT_FORMATS as readonly string[]).includes(name);
}
