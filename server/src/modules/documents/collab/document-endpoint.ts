import { TITLE_MAX } from '@scriptorium/common/api/documents';
import { documentTitle } from '@scriptorium/common/editor/templates';
import { abilities } from '@scriptorium/common/rules/document-abilities';
import {
  type ClientCaretMessage,
  DOCUMENT_CLIENT_APP_SCHEMAS,
  type DocumentClientMessage,
  type DocumentServerMessage,
} from '@scriptorium/common/ws/document-messages';
import { defineWsEndpoint } from '../../../ws/endpoint';
import { findVisibleDocument } from '../queries';
import { CommitQueue, floodBurst } from './commit';
import { announcePresence, heardPresence, participantOf, presenceHeartbeat } from './presence';
import { advance, catchUp, handleCatchUp } from './relay';
import { author, autoRevision, handleReview, sendThreads, spreadThread } from './review-room';
import {
  type DocumentAdmission,
  DocumentRoom,
  type Socket,
  type Topic,
  type TopicPayload,
  topicPayload,
} from './room';

export { PRESENCE_MISSED_BEATS } from './presence';
export { SERVER_CLIENT_ID } from './review-room';
export type { DocumentAdmission } from './room';

/** The endpoint's name: ${ws_url_base}/document/<id>/. */
export const DOCUMENT_ENDPOINT = 'document';

async function handleCaret(socket: Socket, message: ClientCaretMessage): Promise<void> {
  await socket.topic.publish({
    kind: 'caret',
    session_id: socket.sessionId,
    id: socket.user.id,
    v: message.v,
    anchor: message.anchor,
    head: message.head,
  } satisfies TopicPayload);
}

/** Steps another process committed (or this one: then nothing is new). */
async function heardSteps(
  topic: Topic,
  room: DocumentRoom,
  payload: Extract<TopicPayload, { kind: 'steps' }>,
): Promise<void> {
  const end = payload.v + payload.ds.length;
  if (end <= room.version) return; // ours, or already read from the database
  if (payload.v > room.version) await catchUp(topic, room);
  else
    advance(
      topic,
      room,
      payload.ds.map((step, index) => ({
        version: payload.v + index + 1,
        step,
        clientId: payload.cids[index] ?? '',
      })),
    );
}

/**
 * ${ws_url_base}/document/<id>/: the collaboration server (issue 16), wiring sockets to rooms
 * (room.ts). The server is the authority (prosemirror-collab): a diff is checked step by step
 * (schema, positions, the sender's right), written to the step log, and only then confirmed; one
 * made on an older version is mapped over the steps committed since (commit.ts). Messages of one
 * document run one after the other in this process (the endpoint's topic queue); between processes
 * the document's row lock and version decide, and the topic channel announces committed steps.
 */
export function createDocumentEndpoint() {
  const rooms = new Map<number, DocumentRoom>();
  const startHeartbeat = presenceHeartbeat(rooms);
  const commits = new CommitQueue();

  return defineWsEndpoint<DocumentClientMessage, DocumentServerMessage, DocumentAdmission>({
    name: DOCUMENT_ENDPOINT,
    withId: true,
    clientMessages: DOCUMENT_CLIENT_APP_SCHEMAS,

    async admit(ctx, user, id) {
      if (id === null) return null;
      const doc = await findVisibleDocument(ctx.db, user.id, id);
      if (!doc) return null;
      return { right: doc.rights ?? 'write', isOwner: doc.rights === null, ownerId: doc.owner_id };
    },

    async opened(socket, _resumed) {
      const id = socket.id as number;
      let room = rooms.get(id);
      if (room) {
        await room.settled();
        await catchUp(socket.topic, room);
      } else {
        const loaded = await DocumentRoom.load(socket.topic.ctx, id);
        if (!loaded) return socket.deny();
        room = loaded;
        rooms.set(id, room);
      }
      room.topic = socket.topic;
      startHeartbeat(socket.topic.ctx);
      room.sessions.set(socket.sessionId, {
        sentVersion: room.version,
        participant: participantOf(socket),
        tokens: floodBurst(socket.topic.ctx),
        refilledAt: Date.now(),
      });
      // Always the whole document, also on a resumed session: a client that already has a state
      // keeps it and asks for the steps after its version (catch_up) instead.
      socket.send({
        type: 'doc_data',
        // The overview's title, as stored (a title over the limit kept from before the check on
        // commits is in the content in full).
        doc: {
          id,
          v: room.version,
          title: documentTitle(room.doc).slice(0, TITLE_MAX),
          content: room.doc.toJSON(),
        },
        access_right: socket.admission.right,
        is_owner: socket.admission.isOwner,
        abilities: abilities(socket.admission.right, { owner: socket.admission.isOwner }),
        session_id: socket.sessionId,
        participants: room.participants(),
      });
      await sendThreads(socket, id);
      await announcePresence(socket.topic, room, true);
    },

    async handle(socket, message, receivedAt) {
      const room = rooms.get(socket.id as number);
      if (!room) return;
      if (message.type === 'diff' || message.type === 'catch_up') {
        // Steps only from and to a socket that holds an editing session of the room.
        const session = room.sessions.get(socket.sessionId);
        if (!session) return;
        const editor = { socket, room, session };
        // A diff waits for the next group commit; the topic's next message need not wait for it.
        if (message.type === 'diff') commits.submit(editor, message, receivedAt);
        else {
          await room.settled();
          await handleCatchUp(editor, message);
        }
      } else if (message.type === 'caret') await handleCaret(socket, message);
      else {
        await room.settled();
        await handleReview(socket, room, message);
      }
    },

    async closed(socket) {
      const id = socket.id as number;
      const room = rooms.get(id);
      if (!room) return;
      await room.settled();
      room.sessions.delete(socket.sessionId);
      // The last editor left: keep what they did as an automatic revision.
      if (room.sessions.size === 0 && room.participants().length === 0)
        await autoRevision(socket.topic.ctx, room, author(socket));
      if (socket.topic.sockets().length === 0 && room.sessions.size === 0) rooms.delete(id);
      await announcePresence(socket.topic, room, false);
    },

    async topicMessage(topic, raw) {
      const parsed = topicPayload.safeParse(raw);
      const room = rooms.get(topic.id as number);
      if (!parsed.success || !room) return;
      const payload = parsed.data;
      if (payload.kind === 'steps') {
        await room.settled();
        await heardSteps(topic, room, payload);
      } else if (payload.kind === 'thread')
        await spreadThread(topic, room.id, payload.thread, payload.removed);
      else if (payload.kind === 'presence') await heardPresence(topic, room, payload);
      else
        topic.sendLocal(
          {
            type: 'caret',
            session_id: payload.session_id,
            id: payload.id,
            v: payload.v,
            anchor: payload.anchor,
            head: payload.head,
          },
          (target) => target.sessionId !== payload.session_id,
        );
    },
  });
}
