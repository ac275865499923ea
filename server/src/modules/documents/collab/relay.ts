import { TITLE_MAX } from '@scriptorium/common/api/documents';
import { schema } from '@scriptorium/common/editor/schema';
import { documentTitle } from '@scriptorium/common/editor/templates';
import type { CatchUpMessage } from '@scriptorium/common/ws/document-messages';
import type { Node as PMNode } from 'prosemirror-model';
import { Step } from 'prosemirror-transform';
import { sendToUsers } from '../../../ws/hub';
import { documentViewerIds } from '../queries';
import {
  type DocumentRoom,
  type Editor,
  type SessionState,
  type Socket,
  stepsMessage,
  type Topic,
  type TopicPayload,
} from './room';
import { readSteps, type StoredStep } from './store';

/**
 * Committed steps on their way: to this process's editing sessions (each gets every step once, in
 * order), to the other processes (the topic's channel), and to a client catching up.
 */

/**
 * Sends steps the sessions of this process have not seen yet, oldest first: one message for all
 * the sessions that miss the same steps (after a group commit, nearly all of them).
 */
export function relay(topic: Topic, room: DocumentRoom, steps: StoredStep[], except?: string): void {
  if (steps.length === 0) return;
  const first = steps[0].version - 1;
  const last = steps[steps.length - 1].version;
  /** Sessions by the version their steps start from. */
  const from = new Map<number, Set<string>>();
  for (const [sessionId, session] of room.sessions) {
    if (sessionId === except || session.sentVersion >= last) continue;
    if (session.sentVersion < first) continue; // cannot happen: relays are in order
    const sessions = from.get(session.sentVersion) ?? new Set<string>();
    sessions.add(sessionId);
    from.set(session.sentVersion, sessions);
    session.sentVersion = last;
  }
  for (const [version, sessions] of from)
    topic.sendLocal(stepsMessage(version, steps.slice(version - first)), (target) =>
      sessions.has(target.sessionId),
    );
}

/** Applies steps committed elsewhere (another process, read from the log) to the room and relays them. */
export function advance(topic: Topic, room: DocumentRoom, steps: StoredStep[], except?: string): void {
  const fresh = steps.filter((step) => step.version > room.version);
  if (fresh.length === 0) return;
  if (fresh[0].version !== room.version + 1) throw new Error('a gap in the steps');
  let doc = room.doc;
  for (const stored of fresh) {
    const result = Step.fromJSON(schema, stored.step).apply(doc);
    if (!result.doc) throw new Error(`committed step ${stored.version} does not apply here`);
    doc = result.doc;
  }
  room.doc = doc;
  room.version = fresh[fresh.length - 1].version;
  room.remember(fresh);
  relay(topic, room, fresh, except);
}

/** Brings the room up to the database's version (steps other processes committed). */
export async function catchUp(topic: Topic, room: DocumentRoom): Promise<void> {
  const steps = await readSteps(topic.ctx.db, room.id, room.version);
  if (steps.length) advance(topic, room, steps);
}

/**
 * Steps committed here (the document now `doc`): the room takes them, then they are announced.
 */
export async function committed(
  topic: Topic,
  room: DocumentRoom,
  stored: StoredStep[],
  doc: PMNode,
): Promise<void> {
  const titleBefore = documentTitle(room.doc);
  room.take(stored, doc);
  await announce(topic, room, stored, titleBefore);
}

/**
 * Steps the room took from a commit of this process (`titleBefore`: the title before them): this
 * process's other editors get them, and the other processes hear of them (one message each, also
 * for the diffs of a group commit).
 */
export async function announce(
  topic: Topic,
  room: DocumentRoom,
  stored: StoredStep[],
  titleBefore: string,
): Promise<void> {
  relay(topic, room, stored);
  await topic.publish({
    kind: 'steps',
    v: stored[0].version - 1,
    ds: stored.map((s) => s.step),
    cids: stored.map((s) => s.clientId),
  } satisfies TopicPayload);
  // The title node is the overview's title: every open overview of the document shows it live.
  const title = documentTitle(room.doc).slice(0, TITLE_MAX);
  if (title !== titleBefore.slice(0, TITLE_MAX)) {
    await sendToUsers(topic.ctx, await documentViewerIds(topic.ctx.db, room.id), {
      type: 'document_title',
      id: room.id,
      title,
    });
  }
}

/** Sends the session the committed steps up to version `upTo` it has not been sent yet. */
export async function sendMissing(
  socket: Socket,
  room: DocumentRoom,
  session: SessionState,
  upTo: number,
): Promise<void> {
  if (session.sentVersion >= upTo) return;
  const missing = (await room.stepsAfter(socket.topic.ctx, session.sentVersion)).filter(
    (stored) => stored.version <= upTo,
  );
  if (missing.length) {
    socket.send(stepsMessage(session.sentVersion, missing));
    session.sentVersion = missing[missing.length - 1].version;
  }
}

/**
 * reject_diff 'stale', after the steps the session has not been sent yet (what is already on its
 * way reaches the client before this answer), from memory when the room still holds them.
 */
export async function answerStale(
  socket: Socket,
  room: DocumentRoom,
  session: SessionState,
  rid: number,
): Promise<void> {
  await sendMissing(socket, room, session, room.version);
  socket.send({ type: 'reject_diff', rid, reason: 'stale' });
}

/**
 * catch_up: a client that kept its state across a new server session (a lost socket, a restart)
 * gets every committed step after its version, with client ids, in one diff. Relays it got since
 * doc_data started at a later version and were ignored by it; this diff covers them, and later
 * relays continue from here.
 */
export async function handleCatchUp(
  { socket, room, session }: Editor,
  message: CatchUpMessage,
): Promise<void> {
  // A client ahead of the step log cannot be helped by steps: it rebuilt from doc_data already.
  if (message.v > room.version) return;
  const steps = await room.stepsAfter(socket.topic.ctx, message.v);
  if (steps.length) socket.send(stepsMessage(message.v, steps));
  session.sentVersion = Math.max(session.sentVersion, room.version);
}
