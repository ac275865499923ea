import * as z from 'zod/mini';
import { jsonField } from './form';
import { formIdField, jsonIdField, textField } from './text-rules';

/**
 * Written with zod/mini (text-rules.ts has the rules of fields.ts): the logged-in overview's chunk
 * loads this module at start, and classic zod there cost 13-20 ms of main-thread time (issue 23).
 */

/** Access rights, from least to most (the owner always holds every right). */
export const ACCESS_RIGHTS = [
  'read',
  'read-without-comments',
  'comment',
  'review',
  'write-tracked',
  'write',
] as const;
export const accessRight = z.enum(ACCESS_RIGHTS);
export type AccessRight = z.infer<typeof accessRight>;

/** Longest title and path we store; a path is a few folder names, not a document. */
export const TITLE_MAX = 255;
/** The largest content a document created offline may bring along (JSON characters). */
export const CREATED_CONTENT_MAX = 5_000_000;
export const PATH_MAX = 1000;
/** A typed path: cleaning adds at most a leading and a trailing slash, so it always fits PATH_MAX. */
export const PATH_INPUT_MAX = PATH_MAX - 2;

const documentId = formIdField;

/** A user as other users see them: no e-mail addresses leak through documents. */
export const documentUser = z.object({ id: z.number(), name: z.string(), username: z.string() });
export type DocumentUser = z.infer<typeof documentUser>;

/** One row of the overview: for a collaborator `path` is their own path for the document. */
export const documentEntry = z.object({
  id: z.number(),
  title: z.string(),
  path: z.string(),
  owner: documentUser,
  is_owner: z.boolean(),
  /** The user's right; the owner's is 'write'. */
  rights: accessRight,
  /** Milliseconds since the epoch. */
  created: z.number(),
  updated: z.number(),
});
export type DocumentEntry = z.infer<typeof documentEntry>;

/** POST list: no fields. */
export const documentListResponse = z.object({ documents: z.array(documentEntry) });

/** POST get {id}: the overview row plus what the editor placeholder needs. */
export const documentGetRequest = z.object({ id: documentId });
export const documentGetResponse = z.object({ document: documentEntry });

/** POST create {title?, path?}: answers the new document's id and its cleaned path. */
export const documentCreateRequest = z.object({
  title: z._default(z.optional(textField(z.maxLength(TITLE_MAX))), ''),
  path: z._default(z.optional(textField(z.maxLength(PATH_INPUT_MAX))), ''),
  /**
   * A document written offline (issue 20): the browser's own key for it, so that a retried call
   * answers the document the first call made, and its content (ProseMirror JSON text; the title
   * is then the content's title).
   */
  client_key: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/))),
  content: z.optional(textField(z.maxLength(CREATED_CONTENT_MAX))),
});
export const documentCreateResponse = z.object({ id: z.number(), path: z.string() });

/** The generic move call of spec section 7: {id, path} answering done. */
export const documentMoveRequest = z.object({ id: documentId, path: textField(z.maxLength(PATH_INPUT_MAX)) });
export const doneResponse = z.object({ done: z.literal(true) });

/** POST delete {ids[]}: the owner deletes; a collaborator leaves the document instead. */
export const documentDeleteRequest = z.object({
  ids: z.array(documentId).check(z.minLength(1), z.maxLength(10000)),
});
export const documentDeleteResponse = z.object({ deleted: z.array(z.number()), left: z.array(z.number()) });

/** POST copy {ids[], path?}: copies owned by the user; `path` (a folder) overrides where they go. */
export const documentCopyRequest = z.object({
  ids: z.array(documentId).check(z.minLength(1), z.maxLength(1000)),
  path: z.optional(textField(z.maxLength(PATH_INPUT_MAX))),
});
export const documentCopyResponse = z.object({ documents: z.array(documentEntry) });

/** Who holds a right: a user, or an invite to an e-mail address not yet accepted. */
export const holderType = z.enum(['user', 'userinvite']);
export type HolderType = z.infer<typeof holderType>;

export const accessEntry = z.object({
  holder_type: holderType,
  holder_id: z.number(),
  /** The user's display name, or the invited address. */
  name: z.string(),
  /** Shown for invites only (the address the invite went to); users' addresses stay private. */
  email: z.nullable(z.string()),
  rights: accessRight,
});
export type AccessEntry = z.infer<typeof accessEntry>;

/** POST access/get {id}: owner only. */
export const accessGetRequest = z.object({ id: documentId });
export const accessGetResponse = z.object({ access: z.array(accessEntry) });

/** POST access/save {id, access}: owner only; replaces every right of the document at once. */
export const accessSaveItem = z.object({
  holder_type: holderType,
  holder_id: jsonIdField,
  rights: accessRight,
});
export type AccessSaveItem = z.infer<typeof accessSaveItem>;
export const accessSaveRequest = z.object({
  id: documentId,
  access: jsonField(z.array(accessSaveItem).check(z.maxLength(1000))),
});
