import * as z from 'zod/mini';
import { formIdField, textField } from './text-rules';

/**
 * Bibliography sources (issue 57): a BibTeX, BibLaTeX or CSL-JSON file at a URL, or a Zotero
 * library through the Zotero Web API, synced into a category of the user's bibliography.
 */
export const BIB_SOURCE_KINDS = ['url', 'zotero'] as const;
export const MAX_SOURCES_PER_USER = 20;
export const SOURCE_URL_MAX_LENGTH = 2000;

/** One line of a sync report's errors: `code` names the cause (a key of sourceError.* in the texts). */
export const sourceProblem = z.object({
  code: z.string(),
  /** The entry concerned (its key in the source), when the problem is an entry's. */
  entry: z.nullable(z.string()),
  /** A detail such as the HTTP status. */
  detail: z.optional(z.string()),
});
export type SourceProblem = z.infer<typeof sourceProblem>;

/** What the last sync did: keys of the entries added, updated and gone; its errors. */
export const sourceReport = z.object({
  at: z.number(),
  /** True when the source answered "not modified" (304): nothing was read. */
  not_modified: z.boolean(),
  added: z.array(z.string()),
  updated: z.array(z.string()),
  gone: z.array(z.string()),
  errors: z.array(sourceProblem),
});
export type SourceReport = z.infer<typeof sourceReport>;

/** A source as listed; its Zotero key is never sent back (only whether it has one). */
export const bibSource = z.object({
  id: z.number(),
  kind: z.enum(BIB_SOURCE_KINDS),
  title: z.string(),
  url: z.nullable(z.string()),
  zotero_library: z.nullable(z.enum(['user', 'group'])),
  zotero_id: z.nullable(z.string()),
  zotero_collection: z.nullable(z.string()),
  has_key: z.boolean(),
  category_id: z.nullable(z.number()),
  synced_at: z.nullable(z.number()),
  /** Entries of the source in the bibliography, and how many of them the source no longer has. */
  entries: z.number(),
  gone: z.number(),
  report: z.nullable(sourceReport),
});
export type BibSource = z.infer<typeof bibSource>;

export const sourceListResponse = z.object({ sources: z.array(bibSource) });

export const sourceAddRequest = z.object({
  kind: z.enum(BIB_SOURCE_KINDS),
  title: textField(z.trim(), z.minLength(1), z.maxLength(200)),
  url: z.optional(textField(z.trim(), z.maxLength(SOURCE_URL_MAX_LENGTH))),
  zotero_library: z.optional(z.enum(['user', 'group'])),
  zotero_id: z.optional(textField(z.trim(), z.regex(/^\d{1,20}$/))),
  zotero_key: z.optional(textField(z.trim(), z.maxLength(100))),
  zotero_collection: z.optional(textField(z.trim(), z.regex(/^[A-Z0-9]{0,20}$/))),
});
export type SourceAddRequest = z.input<typeof sourceAddRequest>;

/** The new source after its first sync (its report says what came). */
export const sourceAnswer = z.object({ source: bibSource });

export const sourceIdRequest = z.object({ id: formIdField });
