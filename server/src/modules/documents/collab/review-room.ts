import { schema } from '@scriptorium/common/editor/schema';
import { documentTitle } from '@scriptorium/common/editor/templates';
import type { StepJson } from '@scriptorium/common/ws/document-messages';
import type { ReviewClientMessage } from '@scriptorium/common/ws/review-messages';
import { Slice } from 'prosemirror-model';
import { DocAttrStep, ReplaceStep, type Step } from 'prosemirror-transform';
import type { AppContext } from '../../../context';
import { displayName } from '../../user/presenters';
import { advance, catchUp, committed } from './relay';
import {
  answerThread,
  assignThread,
  createThread,
  deleteComment,
  editComment,
  listRevisions,
  mailMentions,
  ReviewRefusal,
  readPeople,
  readRevision,
  readThreads,
  resolveThread,
  saveRevision,
  type Viewer,
  visibleThread,
} from './review';
import { rightMayComment, rightMayEdit } from './rights';
import type { DocumentRoom, Socket, Topic, TopicPayload } from './room';
import { appendSteps, readSteps, readVersion, withDocumentLock } from './store';

/**
 * The room's review messages: comment threads (each change spread to every process's editors,
 * each editor shown what its right lets it see) and revisions (saved, listed, read, restored as a
 * new version on top, and the automatic ones).
 */

/** The review requests that write comments (every right but the read ones). */
const COMMENT_REQUESTS = new Set([
  'thread_create',
  'comment_answer',
  'comment_edit',
  'comment_delete',
  'thread_resolve',
  'thread_assign',
]);

/** The client id of steps the server makes itself (restoring a revision). */
export const SERVER_CLIENT_ID = 'server-restore';

export function author(socket: Socket) {
  return { id: socket.user.id, name: displayName(socket.user) };
}

/** An automatic revision of the room's document, unless nothing changed since the last one. */
export async function autoRevision(
  ctx: AppContext,
  room: DocumentRoom,
  by: { id: number; name: string } | null,
) {
  if (room.version <= room.revisedVersion) return;
  const now = Date.now();
  await saveRevision(ctx.db, {
    documentId: room.id,
    version: room.version,
    doc: room.doc,
    name: '',
    auto: true,
    user: by,
    now,
  });
  room.revisedVersion = room.version;
  room.revisedAt = now;
}

function viewerOf(socket: Socket): Viewer {
  return { userId: socket.user.id, right: socket.admission.right, ownerId: socket.admission.ownerId };
}

/** Sends every editor of this process what it may see of a thread (or that it went). */
export async function spreadThread(
  topic: Topic,
  id: number,
  threadId: number,
  removed: boolean,
): Promise<void> {
  const [thread] = removed ? [] : await readThreads(topic.ctx.db, id, threadId);
  for (const target of topic.sockets() as Socket[]) {
    const visible = thread ? visibleThread(thread, viewerOf(target)) : null;
    target.send(visible ? { type: 'thread', thread: visible } : { type: 'thread_removed', thread: threadId });
  }
}

export async function sendThreads(socket: Socket, id: number): Promise<void> {
  const viewer = viewerOf(socket);
  const threads = (await readThreads(socket.topic.ctx.db, id))
    .map((thread) => visibleThread(thread, viewer))
    .filter((thread) => thread !== null);
  const people = (await readPeople(socket.topic.ctx.db, id)).map(({ id: pid, name, username }) => ({
    id: pid,
    name,
    username,
  }));
  socket.send({ type: 'threads', threads, people });
}

/**
 * Restores a revision as a new version on top: the current document is kept as an automatic
 * revision first, then one step replaces the content (and the document's attributes), committed
 * and relayed like anybody's steps. Restoring the kept revision undoes the restore.
 */
async function restoreRevision(socket: Socket, room: DocumentRoom, revisionId: number): Promise<void> {
  const id = room.id;
  const ctx = socket.topic.ctx;
  const stored = await readRevision(ctx.db, id, revisionId);
  if (!stored) throw new ReviewRefusal('gone');
  const target = schema.nodeFromJSON(stored.content);
  const outcome = await withDocumentLock(ctx.db, ctx.dialect, id, async (trx) => {
    const version = await readVersion(trx, id);
    if (version === undefined) throw new ReviewRefusal('gone');
    if (version > room.version) advance(socket.topic, room, await readSteps(trx, id, room.version));
    const current = room.doc;
    const steps: Step[] = [new ReplaceStep(0, current.content.size, new Slice(target.content, 0, 0))];
    for (const [key, value] of Object.entries(target.attrs))
      if (current.attrs[key] !== value) steps.push(new DocAttrStep(key, value));
    let doc = current;
    for (const step of steps) {
      const result = step.apply(doc);
      if (!result.doc) throw new ReviewRefusal('invalid');
      doc = result.doc;
    }
    const now = Date.now();
    await saveRevision(trx, {
      documentId: id,
      version: room.version,
      doc: current,
      name: '',
      auto: true,
      user: author(socket),
      now,
    });
    const json = steps.map((step) => step.toJSON() as StepJson);
    await appendSteps(trx, {
      documentId: id,
      baseVersion: room.version,
      steps: json,
      clientId: SERVER_CLIENT_ID,
      userId: socket.user.id,
      doc,
      snapshot: true,
      now,
    });
    return { base: room.version, doc, json };
  });
  const version = outcome.base + outcome.json.length;
  room.contentVersion = version;
  room.needsSnapshot = false;
  room.revisedVersion = version;
  room.revisedAt = Date.now();
  await committed(
    socket.topic,
    room,
    outcome.json.map((step, index) => ({
      version: outcome.base + index + 1,
      step,
      clientId: SERVER_CLIENT_ID,
    })),
    outcome.doc,
  );
}

export async function handleReview(
  socket: Socket,
  room: DocumentRoom,
  message: ReviewClientMessage,
): Promise<void> {
  const id = room.id;
  const ctx = socket.topic.ctx;
  const viewer = viewerOf(socket);
  const { right } = socket.admission;
  const now = Date.now();
  const me = author(socket);
  try {
    // A comment request changes one thread: every process then tells its editors what they see.
    let changed: { thread: number; removed: boolean } | null = null;
    if (COMMENT_REQUESTS.has(message.type) && !rightMayComment(right)) throw new ReviewRefusal('rights');
    switch (message.type) {
      case 'thread_create':
      case 'comment_answer': {
        const comment = { author: me, text: message.text, now };
        if (message.type === 'thread_create') await createThread(ctx.db, id, message.thread, comment);
        else await answerThread(ctx.db, id, message.thread, viewer, comment);
        const [thread] = await readThreads(ctx.db, id, message.thread);
        mailMentions(ctx, {
          documentId: id,
          threadId: message.thread,
          threadUser: thread?.user ?? null,
          author: me,
          text: message.text,
          title: documentTitle(room.doc),
        });
        changed = { thread: message.thread, removed: false };
        break;
      }
      case 'comment_edit':
        changed = {
          thread: await editComment(ctx.db, id, message.comment, socket.user.id, message.text, now),
          removed: false,
        };
        break;
      case 'comment_delete':
        changed = await deleteComment(ctx.db, id, message.comment, socket.user.id);
        break;
      case 'thread_resolve':
        await resolveThread(ctx.db, id, message.thread, viewer, message.resolved);
        changed = { thread: message.thread, removed: false };
        break;
      case 'thread_assign':
        await assignThread(ctx.db, id, message.thread, viewer, message.user);
        changed = { thread: message.thread, removed: false };
        break;
      case 'revision_save': {
        if (!rightMayEdit(right)) throw new ReviewRefusal('rights');
        await catchUp(socket.topic, room);
        await saveRevision(ctx.db, {
          documentId: id,
          version: room.version,
          doc: room.doc,
          name: message.name.trim(),
          auto: false,
          user: me,
          now,
        });
        room.revisedVersion = room.version;
        room.revisedAt = now;
        break;
      }
      case 'revisions_list':
        if (right === 'read-without-comments') throw new ReviewRefusal('rights');
        socket.send({ type: 'revisions', rid: message.rid, revisions: await listRevisions(ctx.db, id) });
        return;
      case 'revision_get': {
        if (right === 'read-without-comments') throw new ReviewRefusal('rights');
        const stored = await readRevision(ctx.db, id, message.revision);
        if (!stored) throw new ReviewRefusal('gone');
        socket.send({
          type: 'revision',
          rid: message.rid,
          revision: stored.entry,
          content: stored.content,
        });
        return;
      }
      case 'revision_restore':
        if (right !== 'write') throw new ReviewRefusal('rights');
        await restoreRevision(socket, room, message.revision);
        break;
    }
    if (changed) await socket.topic.publish({ kind: 'thread', ...changed } satisfies TopicPayload);
    socket.send({ type: 'review_answer', rid: message.rid });
  } catch (error) {
    if (!(error instanceof ReviewRefusal)) throw error;
    socket.send({ type: 'review_answer', rid: message.rid, error: error.reason });
  }
}
