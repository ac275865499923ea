import { z } from 'zod';

/**
 * Review messages of ${ws_url_base}/document/<id>/ (issue 18): comment threads and revisions.
 * They travel beside the collab messages of document-messages.ts on the same socket.
 *
 * Comments: a thread's id is chosen by the editor that anchors it (the `comment` mark's id) and
 * sent with `thread_create`; the anchor travels as an ordinary step. The server stores threads
 * (migration 010), checks the right, and tells every editor of the document what it may see:
 *   read-without-comments  nothing
 *   review                 its own threads, with its own answers and the owner's
 *   every other right      all threads
 * Every request carries `rid`; the server answers `review_answer` {rid, error?}.
 *
 * Revisions: named (`revision_save`) or automatic (at most every 10 minutes of editing, and when
 * the last editor leaves); listed, read and restored (a new version on top) by write users.
 */

const rid = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const id = z.number().int().positive().max(2_147_483_647);

/** Longest comment text, in characters. */
export const COMMENT_MAX = 10_000;
export const REVISION_NAME_MAX = 200;

const commentText = z
  .string()
  .max(COMMENT_MAX)
  .refine((text) => text.trim().length > 0 && !text.includes('\u0000'));

export const reviewPerson = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  username: z.string(),
});
export type ReviewPerson = z.infer<typeof reviewPerson>;

export const commentEntry = z.object({
  id: z.number().int().positive(),
  /** null: the account is gone. */
  user: z.number().int().positive().nullable(),
  name: z.string(),
  text: z.string(),
  created: z.number(),
  updated: z.number(),
});
export type CommentEntry = z.infer<typeof commentEntry>;

export const commentThread = z.object({
  id,
  user: z.number().int().positive().nullable(),
  resolved: z.boolean(),
  /** The co-author the thread is assigned to. */
  assigned: z.number().int().positive().nullable(),
  created: z.number(),
  /** The first is the thread's comment, the others answers, oldest first. */
  comments: z.array(commentEntry).min(1),
});
export type CommentThread = z.infer<typeof commentThread>;

export const revisionEntry = z.object({
  id: z.number().int().positive(),
  /** '' for an automatic revision. */
  name: z.string(),
  auto: z.boolean(),
  version: z.number().int().nonnegative(),
  user: z.number().int().positive().nullable(),
  username: z.string(),
  created: z.number(),
});
export type RevisionEntry = z.infer<typeof revisionEntry>;

/**
 * Why a review request was refused (nothing changed):
 *   rights   the sender's right does not allow it
 *   gone     the thread or comment was deleted meanwhile
 *   exists   a thread with this id exists already (anchor again with a new id)
 *   invalid  the text is empty or too long, the assignee is no co-author
 *   busy     the document is being restored by someone else (try again)
 */
export const REVIEW_ERRORS = ['rights', 'gone', 'exists', 'invalid', 'busy'] as const;
export const reviewError = z.enum(REVIEW_ERRORS);
export type ReviewError = z.infer<typeof reviewError>;

// Client -> server.
export const threadCreateMessage = z.object({
  type: z.literal('thread_create'),
  rid,
  thread: id,
  text: commentText,
});
export const commentAnswerMessage = z.object({
  type: z.literal('comment_answer'),
  rid,
  thread: id,
  text: commentText,
});
export const commentEditMessage = z.object({
  type: z.literal('comment_edit'),
  rid,
  comment: id,
  text: commentText,
});
export const commentDeleteMessage = z.object({ type: z.literal('comment_delete'), rid, comment: id });
export const threadResolveMessage = z.object({
  type: z.literal('thread_resolve'),
  rid,
  thread: id,
  resolved: z.boolean(),
});
export const threadAssignMessage = z.object({
  type: z.literal('thread_assign'),
  rid,
  thread: id,
  user: id.nullable(),
});
export const revisionSaveMessage = z.object({
  type: z.literal('revision_save'),
  rid,
  name: z
    .string()
    .max(REVISION_NAME_MAX)
    .refine((name) => name.trim().length > 0 && !name.includes('\u0000')),
});
export const revisionsListMessage = z.object({ type: z.literal('revisions_list'), rid });
export const revisionGetMessage = z.object({ type: z.literal('revision_get'), rid, revision: id });
export const revisionRestoreMessage = z.object({ type: z.literal('revision_restore'), rid, revision: id });

// Server -> client.
export const threadsMessage = z.object({
  type: z.literal('threads'),
  threads: z.array(commentThread),
  /** The owner and the co-authors: for assigning, mentioning and the names of authors. */
  people: z.array(reviewPerson),
});
export const threadMessage = z.object({ type: z.literal('thread'), thread: commentThread });
export const threadRemovedMessage = z.object({ type: z.literal('thread_removed'), thread: id });
export const reviewAnswerMessage = z.object({
  type: z.literal('review_answer'),
  rid,
  error: reviewError.optional(),
});
export const revisionsMessage = z.object({
  type: z.literal('revisions'),
  rid,
  revisions: z.array(revisionEntry),
});
export const revisionMessage = z.object({
  type: z.literal('revision'),
  rid,
  revision: revisionEntry,
  content: z.looseObject({ type: z.string() }),
});

export const REVIEW_CLIENT_SCHEMAS = {
  thread_create: threadCreateMessage,
  comment_answer: commentAnswerMessage,
  comment_edit: commentEditMessage,
  comment_delete: commentDeleteMessage,
  thread_resolve: threadResolveMessage,
  thread_assign: threadAssignMessage,
  revision_save: revisionSaveMessage,
  revisions_list: revisionsListMessage,
  revision_get: revisionGetMessage,
  revision_restore: revisionRestoreMessage,
} as const;

export const REVIEW_SERVER_SCHEMAS = {
  threads: threadsMessage,
  thread: threadMessage,
  thread_removed: threadRemovedMessage,
  review_answer: reviewAnswerMessage,
  revisions: revisionsMessage,
  revision: revisionMessage,
} as const;

export const reviewClientMessage = z.discriminatedUnion('type', [
  threadCreateMessage,
  commentAnswerMessage,
  commentEditMessage,
  commentDeleteMessage,
  threadResolveMessage,
  threadAssignMessage,
  revisionSaveMessage,
  revisionsListMessage,
  revisionGetMessage,
  revisionRestoreMessage,
]);
export const reviewServerMessage = z.discriminatedUnion('type', [
  threadsMessage,
  threadMessage,
  threadRemovedMessage,
  reviewAnswerMessage,
  revisionsMessage,
  revisionMessage,
]);
export type ReviewClientMessage = z.infer<typeof reviewClientMessage>;
export type ReviewServerMessage = z.infer<typeof reviewServerMessage>;

/** Co-authors named in a comment with @username (case-insensitive), for mention mails. */
export function mentionedUsernames(text: string): string[] {
  return [...new Set([...text.matchAll(/(?:^|[^\w@])@([\w.+-]+)/g)].map((m) => m[1].toLowerCase()))];
}
