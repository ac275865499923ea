import type { AccessRight } from '@scriptorium/common/api/documents';
import { documentUrl } from '@scriptorium/common/rules/paths';
import {
  type CommentThread,
  mentionedUsernames,
  type ReviewError,
  type ReviewPerson,
  type RevisionEntry,
} from '@scriptorium/common/ws/review-messages';
import type { Kysely } from 'kysely';
import type { Node as PMNode } from 'prosemirror-model';
import type { AppContext } from '../../../context';
import type { Database } from '../../../db/schema';
import { mailLanguage, translator } from '../../../i18n/translate';
import { enqueueMailJob } from '../../../mail/queue';
import { escapeHtml } from '../../../util/escape-html';
import { displayName, NAME_COLUMNS } from '../../user/presenters';
import { rightSeesComments } from './rights';

/**
 * Comment threads and revisions of a document (issue 18), stored by migration 010. The document
 * endpoint calls these inside its topic queue; what each editor may see is decided here
 * (`visibleThread`).
 */

type Executor = Kysely<Database>;

/** At most this long between automatic revisions while a document is edited. */
export const AUTO_REVISION_MS = 10 * 60 * 1000;

export interface Viewer {
  userId: number;
  right: AccessRight;
  ownerId: number;
}

export class ReviewRefusal extends Error {
  constructor(readonly reason: ReviewError) {
    super(reason);
  }
}

// ---------------------------------------------------------------------------------------------
// Threads.

export async function readThreads(
  db: Executor,
  documentId: number,
  threadId?: number,
): Promise<CommentThread[]> {
  let threadQuery = db.selectFrom('document_threads').selectAll().where('document_id', '=', documentId);
  let commentQuery = db.selectFrom('document_comments').selectAll().where('document_id', '=', documentId);
  if (threadId !== undefined) {
    threadQuery = threadQuery.where('thread_id', '=', threadId);
    commentQuery = commentQuery.where('thread_id', '=', threadId);
  }
  const [threads, comments] = await Promise.all([
    threadQuery.orderBy('created_at').execute(),
    commentQuery.orderBy('id').execute(),
  ]);
  const byThread = new Map<number, CommentThread>();
  for (const row of threads)
    byThread.set(row.thread_id, {
      id: row.thread_id,
      user: row.user_id,
      resolved: Boolean(row.resolved),
      assigned: row.assigned_to,
      created: Number(row.created_at),
      comments: [],
    });
  for (const row of comments)
    byThread.get(row.thread_id)?.comments.push({
      id: row.id,
      user: row.user_id,
      name: row.user_name,
      text: row.text,
      created: Number(row.created_at),
      updated: Number(row.updated_at),
    });
  return [...byThread.values()].filter((thread) => thread.comments.length > 0);
}

/**
 * What one editor may see of a thread: nothing without comments; a reviewer their own threads
 * with their own answers and the owner's; everyone else all of it.
 */
export function visibleThread(thread: CommentThread, viewer: Viewer): CommentThread | null {
  if (!rightSeesComments(viewer.right)) return null;
  if (viewer.right !== 'review') return thread;
  if (thread.user !== viewer.userId) return null;
  return {
    ...thread,
    comments: thread.comments.filter((c) => c.user === viewer.userId || c.user === viewer.ownerId),
  };
}

/** The owner and everyone holding a right to the document (not pending invites). */
export async function readPeople(
  db: Executor,
  documentId: number,
): Promise<(ReviewPerson & { right: AccessRight | null })[]> {
  const owner = await db
    .selectFrom('documents')
    .innerJoin('users', 'users.id', 'documents.owner_id')
    .select(['users.id', ...NAME_COLUMNS])
    .where('documents.id', '=', documentId)
    .executeTakeFirst();
  const holders = await db
    .selectFrom('document_access')
    .innerJoin('users', 'users.id', 'document_access.user_id')
    .select(['users.id', ...NAME_COLUMNS, 'document_access.rights'])
    .where('document_access.document_id', '=', documentId)
    .execute();
  const person = (row: { id: number; username: string; first_name: string; last_name: string }) => ({
    id: row.id,
    username: row.username,
    name: displayName(row),
  });
  return [
    ...(owner ? [{ ...person(owner), right: null }] : []),
    ...holders.map((row) => ({ ...person(row), right: row.rights as AccessRight })),
  ];
}

async function threadRow(db: Executor, documentId: number, threadId: number) {
  return db
    .selectFrom('document_threads')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('thread_id', '=', threadId)
    .executeTakeFirst();
}

/** The thread must exist and be visible to the viewer (a reviewer only works on their own). */
async function requireThread(db: Executor, documentId: number, threadId: number, viewer: Viewer) {
  const row = await threadRow(db, documentId, threadId);
  if (!row) throw new ReviewRefusal('gone');
  if (viewer.right === 'review' && row.user_id !== viewer.userId) throw new ReviewRefusal('rights');
  return row;
}

export interface Author {
  id: number;
  name: string;
}

/** A comment being written: by whom, its text and when. */
export interface NewComment {
  author: Author;
  text: string;
  now: number;
}

/**
 * A comment as stored: the author's account (null for none, as for comments imported from a
 * file), the name shown for them, the text and its time.
 */
export interface StoredComment {
  user: number | null;
  name: string;
  text: string;
  at: number;
}

function storedComment({ author, text, now }: NewComment): StoredComment {
  return { user: author.id, name: author.name, text, at: now };
}

export async function createThread(
  db: Executor,
  documentId: number,
  threadId: number,
  comment: NewComment,
): Promise<void> {
  if (await threadRow(db, documentId, threadId)) throw new ReviewRefusal('exists');
  const thread = { user: comment.author.id, resolved: false, created: comment.now };
  await insertThread(db, documentId, threadId, thread, [storedComment(comment)]);
}

/** Stores a new thread (assigned to nobody) and its comments, the thread's own first. */
export async function insertThread(
  db: Executor,
  documentId: number,
  threadId: number,
  thread: { user: number | null; resolved: boolean; created: number },
  comments: readonly StoredComment[],
): Promise<void> {
  await db
    .insertInto('document_threads')
    .values({
      document_id: documentId,
      thread_id: threadId,
      user_id: thread.user,
      resolved: thread.resolved ? 1 : 0,
      assigned_to: null,
      created_at: thread.created,
    })
    .execute();
  for (const comment of comments) await insertComment(db, documentId, threadId, comment);
}

async function insertComment(
  db: Executor,
  documentId: number,
  threadId: number,
  comment: StoredComment,
): Promise<void> {
  await db
    .insertInto('document_comments')
    .values({
      document_id: documentId,
      thread_id: threadId,
      user_id: comment.user,
      user_name: comment.name,
      text: comment.text,
      created_at: comment.at,
      updated_at: comment.at,
    })
    .execute();
}

export async function answerThread(
  db: Executor,
  documentId: number,
  threadId: number,
  viewer: Viewer,
  comment: NewComment,
): Promise<void> {
  await requireThread(db, documentId, threadId, viewer);
  await insertComment(db, documentId, threadId, storedComment(comment));
}

async function ownComment(db: Executor, documentId: number, commentId: number, userId: number) {
  const row = await db
    .selectFrom('document_comments')
    .select(['id', 'thread_id', 'user_id'])
    .where('document_id', '=', documentId)
    .where('id', '=', commentId)
    .executeTakeFirst();
  if (!row) throw new ReviewRefusal('gone');
  if (row.user_id !== userId) throw new ReviewRefusal('rights');
  return row;
}

/** Edits an own comment; answers the thread's id. */
export async function editComment(
  db: Executor,
  documentId: number,
  commentId: number,
  userId: number,
  text: string,
  now: number,
): Promise<number> {
  const row = await ownComment(db, documentId, commentId, userId);
  await db
    .updateTable('document_comments')
    .set({ text, updated_at: now })
    .where('id', '=', commentId)
    .execute();
  return row.thread_id;
}

/**
 * Deletes an own comment; the thread's first comment takes the thread with it. Answers the
 * thread's id and whether the thread is gone.
 */
export async function deleteComment(
  db: Executor,
  documentId: number,
  commentId: number,
  userId: number,
): Promise<{ thread: number; removed: boolean }> {
  const row = await ownComment(db, documentId, commentId, userId);
  const first = await db
    .selectFrom('document_comments')
    .select('id')
    .where('document_id', '=', documentId)
    .where('thread_id', '=', row.thread_id)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (first?.id === commentId) {
    await db
      .deleteFrom('document_comments')
      .where('document_id', '=', documentId)
      .where('thread_id', '=', row.thread_id)
      .execute();
    await db
      .deleteFrom('document_threads')
      .where('document_id', '=', documentId)
      .where('thread_id', '=', row.thread_id)
      .execute();
    return { thread: row.thread_id, removed: true };
  }
  await db.deleteFrom('document_comments').where('id', '=', commentId).execute();
  return { thread: row.thread_id, removed: false };
}

export async function resolveThread(
  db: Executor,
  documentId: number,
  threadId: number,
  viewer: Viewer,
  resolved: boolean,
): Promise<void> {
  await requireThread(db, documentId, threadId, viewer);
  await db
    .updateTable('document_threads')
    .set({ resolved: resolved ? 1 : 0 })
    .where('document_id', '=', documentId)
    .where('thread_id', '=', threadId)
    .execute();
}

export async function assignThread(
  db: Executor,
  documentId: number,
  threadId: number,
  viewer: Viewer,
  assignee: number | null,
): Promise<void> {
  await requireThread(db, documentId, threadId, viewer);
  if (assignee !== null) {
    const people = await readPeople(db, documentId);
    const person = people.find((p) => p.id === assignee);
    if (!person || (person.right !== null && !rightSeesComments(person.right)))
      throw new ReviewRefusal('invalid');
  }
  await db
    .updateTable('document_threads')
    .set({ assigned_to: assignee })
    .where('document_id', '=', documentId)
    .where('thread_id', '=', threadId)
    .execute();
}

/**
 * Mails a link to every co-author named with @username in a comment, who may see the thread
 * (after the answer, through the mail queue).
 */
export function mailMentions(
  ctx: AppContext,
  input: {
    documentId: number;
    threadId: number;
    threadUser: number | null;
    author: Author;
    text: string;
    title: string;
  },
): void {
  const names = mentionedUsernames(input.text);
  if (!names.length) return;
  const log = { error: (details: object, message: string) => console.error(message, details) };
  enqueueMailJob(ctx, 'comment mention mail', log, async () => {
    const people = await readPeople(ctx.db, input.documentId);
    for (const person of people) {
      if (person.id === input.author.id || !names.includes(person.username.toLowerCase())) continue;
      if (person.right === 'read-without-comments') continue;
      if (person.right === 'review' && person.id !== input.threadUser) continue;
      const user = await ctx.db
        .selectFrom('users')
        .select(['language', 'is_active'])
        .where('id', '=', person.id)
        .executeTakeFirst();
      const address = await ctx.db
        .selectFrom('user_emails')
        .select('address')
        .where('user_id', '=', person.id)
        .orderBy('is_primary', 'desc')
        .executeTakeFirst();
      if (!user?.is_active || !address) continue;
      const t = translator('server', mailLanguage(user));
      const values = { name: input.author.name, title: input.title || t('review.untitled') };
      const link = `${ctx.config.siteUrl}${documentUrl('', input.documentId)}`;
      const paragraphs = [t('review.mentionText', values), input.text];
      await ctx.mailer.send({
        to: address.address,
        subject: t('review.mentionSubject', values),
        text: [...paragraphs, link].join('\n\n'),
        html: `<!doctype html><html><body>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p></body></html>`,
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Revisions.

export interface RevisionInput {
  documentId: number;
  version: number;
  doc: PMNode;
  name: string;
  auto: boolean;
  user: Author | null;
  now: number;
}

export async function saveRevision(db: Executor, input: RevisionInput): Promise<number> {
  const row = await db
    .insertInto('document_revisions')
    .values({
      document_id: input.documentId,
      version: input.version,
      name: input.name,
      auto: input.auto ? 1 : 0,
      user_id: input.user?.id ?? null,
      user_name: input.user?.name ?? '',
      content: JSON.stringify(input.doc.toJSON()),
      created_at: input.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const REVISION_COLUMNS = ['id', 'name', 'auto', 'version', 'user_id', 'user_name', 'created_at'] as const;

function presentRevision(row: {
  id: number;
  name: string;
  auto: number;
  version: number;
  user_id: number | null;
  user_name: string;
  created_at: number;
}): RevisionEntry {
  return {
    id: row.id,
    name: row.name,
    auto: Boolean(row.auto),
    version: row.version,
    user: row.user_id,
    username: row.user_name,
    created: Number(row.created_at),
  };
}

/** Newest first. */
export async function listRevisions(db: Executor, documentId: number): Promise<RevisionEntry[]> {
  const rows = await db
    .selectFrom('document_revisions')
    .select(REVISION_COLUMNS)
    .where('document_id', '=', documentId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(presentRevision);
}

export async function readRevision(
  db: Executor,
  documentId: number,
  revisionId: number,
): Promise<{ entry: RevisionEntry; content: Record<string, unknown> & { type: string } } | undefined> {
  const row = await db
    .selectFrom('document_revisions')
    .select([...REVISION_COLUMNS, 'content'])
    .where('document_id', '=', documentId)
    .where('id', '=', revisionId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { entry: presentRevision(row), content: JSON.parse(row.content) };
}

/** The newest revision's version and time (for automatic revisions), or undefined. */
export async function latestRevision(
  db: Executor,
  documentId: number,
): Promise<{ version: number; created: number } | undefined> {
  const row = await db
    .selectFrom('document_revisions')
    .select(['version', 'created_at'])
    .where('document_id', '=', documentId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { version: row.version, created: Number(row.created_at) } : undefined;
}
