import { z } from 'zod';
import { accessEntry, accessSaveRequest, CREATED_CONTENT_MAX, documentEntry, TITLE_MAX } from './documents';
import { textField } from './text-rules';
import { image } from './usermedia';

/**
 * Shapes of the public API's requests and answers (/api/v1/, issue 57) where they differ from the
 * app's own: lists come in pages, bibliography entries travel as CSL-JSON. The endpoints
 * themselves are in endpoints/v1.ts.
 */

/** The first page has no cursor; each answer names the next page's, or null after the last. */
export const pageRequest = z.object({
  cursor: z
    .string()
    .regex(/^[0-9]{1,10}$/)
    .optional()
    .describe('next_cursor of the previous page; omit it for the first page'),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('items per page (1-200)'),
});

export const nextCursor = z.string().nullable().describe('cursor of the next page, null after the last');

export const v1DocumentPage = z.object({ documents: z.array(documentEntry), next_cursor: nextCursor });

/** A document with its content: ProseMirror JSON of common/src/editor/schema.ts. */
export const v1DocumentWithContent = z.object({
  document: documentEntry,
  content: z.unknown().describe('the document as ProseMirror JSON (our schema)'),
});

/** One CSL-JSON item (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html). */
export const cslItem = z
  .object({ type: z.string().describe('CSL item type, e.g. article-journal') })
  .catchall(z.unknown());

/** A bibliography entry: its id, its citation key and its data as a CSL-JSON item. */
export const v1BibEntry = z.object({
  id: z.number(),
  key: z.string().describe('the citation key (the CSL item id)'),
  csl: cslItem,
});
export type V1BibEntry = z.infer<typeof v1BibEntry>;

export const v1BibPage = z.object({ entries: z.array(v1BibEntry), next_cursor: nextCursor });
export const v1BibEntryAnswer = z.object({ entry: v1BibEntry });

/** A CSL-JSON item as JSON text in a form field; its `id`, if any, becomes the citation key. */
export const v1BibEntryRequest = z.object({
  csl: z.string().max(200_000).describe('one CSL-JSON item as JSON text; its id is used as the citation key'),
});

export const v1ImagePage = z.object({ images: z.array(image), next_cursor: nextCursor });
export const v1ImageAnswer = z.object({ image });
/** An upload: the file (PNG, JPEG, GIF, WebP or SVG) and an optional title. */
export const v1ImageUpload = z.object({
  image: z.instanceof(Blob).describe('the image file'),
  title: z.string().max(255).optional(),
});

/** Ids in pages: the items after the cursor's id, in ascending id order. */
export function pageOf<T extends { id: number }>(
  items: readonly T[],
  page: { cursor?: string; limit: number },
): { items: T[]; next_cursor: string | null } {
  const after = page.cursor === undefined ? 0 : Number(page.cursor);
  const rest = items.filter((item) => item.id > after).sort((a, b) => a.id - b.id);
  const pageItems = rest.slice(0, page.limit);
  const more = rest.length > page.limit;
  return { items: pageItems, next_cursor: more ? String(pageItems[pageItems.length - 1].id) : null };
}

/**
 * New content for a document's body (or, with mode=replace and a whole document as `content`, for
 * the document): Markdown (pandoc's, with `[@key]` citations of your bibliography's keys) or
 * ProseMirror JSON. Applied through the collaboration server: open editors see it at once.
 */
export const v1ContentRequest = z.object({
  mode: z
    .enum(['append', 'replace'])
    .default('append')
    .describe('append to the body (default) or replace it'),
  markdown: z
    .string()
    .max(CREATED_CONTENT_MAX)
    .optional()
    .describe('Markdown text (pandoc: $math$, [^notes], pipe tables, [@key] citations)'),
  content: z
    .string()
    .max(CREATED_CONTENT_MAX)
    .optional()
    .describe('ProseMirror JSON text: an array of blocks, or (mode=replace) a whole document'),
});

export const v1ContentAnswer = z.object({
  version: z.number().describe('the document version after the change'),
  unknown_citations: z
    .array(z.string())
    .describe('citation keys no entry of your bibliography has (kept as text)'),
  unknown_images: z
    .array(z.string())
    .describe('image addresses that are no image of your library (kept as text)'),
});

export const v1TitleRequest = z.object({ title: textField(z.maxLength(TITLE_MAX)) });
export const v1VersionAnswer = z.object({
  version: z.number().describe('the document version after the change'),
});

/** A bibliography file to add: BibTeX, BibLaTeX, CSL-JSON, RIS or EndNote (tagged), as text. */
export const v1BibImportRequest = z.object({
  text: z.string().max(20_000_000).describe('the file as text (BibTeX, BibLaTeX, CSL-JSON, RIS, EndNote)'),
});
export const v1BibImportAnswer = z.object({
  entries: z.array(v1BibEntry).describe('the entries added'),
  messages: z
    .array(z.object({ level: z.enum(['error', 'warning']), code: z.string(), entry: z.string().nullable() }))
    .describe('what the reader could not take, or took with changes'),
});

export const v1Category = z.object({ id: z.number(), title: z.string() });
export const v1CategoryList = z.object({ categories: z.array(v1Category) });
export const v1CategoryRequest = z.object({ title: textField(z.minLength(1), z.maxLength(255)) });
export const v1CategoryAnswer = z.object({ category: v1Category });

/** The document's rights (owner only): users among your contacts and invites you sent. */
export const v1AccessList = z.object({ access: z.array(accessEntry) });
export const v1AccessRequest = z.object({ access: accessSaveRequest.shape.access });
