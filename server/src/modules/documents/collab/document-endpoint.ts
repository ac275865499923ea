import { type AccessRight, TITLE_MAX } from '@scriptorium/common/api/documents';
import { rebaseSteps } from '@scriptorium/common/editor/rebase-steps';
import { schema } from '@scriptorium/common/editor/schema';
import { documentTitle } from '@scriptorium/common/editor/templates';
import {
  type CatchUpMessage,
  type ClientCaretMessage,
  type ClientDiffMessage,
  DOCUMENT_CLIENT_APP_SCHEMAS,
  type DocumentClientMessage,
  type DocumentServerMessage,
  type Participant,
  participant,
  type RejectReason,
  type StepJson,
  stepJson,
} from '@scriptorium/common/ws/document-messages';
import type { ReviewClientMessage } from '@scriptorium/common/ws/review-messages';
import { type Node as PMNode, Slice } from 'prosemirror-model';
import { DocAttrStep, ReplaceStep, Step } from 'prosemirror-transform';
import { z } from 'zod';
import type { AppContext } from '../../../context';
import { defineWsEndpoint, type EndpointSocket, type EndpointTopic } from '../../../ws/endpoint';
import { liveHub, sendToUsers } from '../../../ws/hub';
import { avatarUrl } from '../../user/avatar';
import { displayName } from '../../user/presenters';
import { documentViewerIds, findVisibleDocument } from '../queries';
import { applySteps, parseSteps, Refusal } from './apply-steps';
import {
  AUTO_REVISION_MS,
  answerThread,
  assignThread,
  createThread,
  deleteComment,
  editComment,
  latestRevision,
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
import { othersThreadsOf, removesCommentMarks, rightMayComment, rightMayEdit, stepChecker } from './rights';
import {
  appendSteps,
  readHead,
  readSteps,
  readVersion,
  readVersionAndRight,
  SNAPSHOT_EVERY,
  type StoredStep,
  withDocumentLock,
} from './store';

/** The endpoint's name: ${ws_url_base}/document/<id>/. */
export const DOCUMENT_ENDPOINT = 'document';

export interface DocumentAdmission {
  right: AccessRight;
  isOwner: boolean;
  ownerId: number;
}

type Socket = EndpointSocket<DocumentServerMessage, DocumentAdmission>;
type Topic = EndpointTopic<DocumentServerMessage>;

/** What processes tell each other about one document (its topic's channel). */
const topicPayload = z.discriminatedUnion('kind', [
  /** Steps committed at version v (v + ds.length is the new version). */
  z.object({
    kind: z.literal('steps'),
    v: z.number().int().nonnegative(),
    ds: z.array(stepJson).min(1),
    cids: z.array(z.string()).min(1),
  }),
  /** A process's participants of the document; `ask`: the others answer with theirs. */
  z.object({
    kind: z.literal('presence'),
    process: z.string(),
    participants: z.array(participant),
    ask: z.boolean(),
  }),
  /** A comment thread changed (or went): every process tells its editors what they may see. */
  z.object({ kind: z.literal('thread'), thread: z.number().int().positive(), removed: z.boolean() }),
  z.object({
    kind: z.literal('caret'),
    session_id: z.string(),
    id: z.number().int().positive(),
    v: z.number().int().nonnegative(),
    anchor: z.number().int().nonnegative(),
    head: z.number().int().nonnegative(),
  }),
]);
type TopicPayload = z.infer<typeof topicPayload>;

interface RemotePresence {
  participants: Participant[];
  heardAt: number;
}

/** A process not heard for this many heartbeats has crashed: its participants are dropped. */
export const PRESENCE_MISSED_BEATS = 3;

interface SessionState {
  /** Steps up to this version were sent to the session (doc_data, relays, its own confirms). */
  sentVersion: number;
  participant: Participant;
  tokens: number;
  refilledAt: number;
}

/** A socket of the room's editors, with its editing session: what steps come from and go to. */
interface Editor {
  socket: Socket;
  room: Room;
  id: number;
  session: SessionState;
}

/** One document as this process holds it: the current content, and its editors here. */
interface Room {
  doc: PMNode;
  version: number;
  /** The stored content is not a document of the schema: the next commit writes a snapshot. */
  needsSnapshot: boolean;
  contentVersion: number;
  sessions: Map<string, SessionState>;
  /** Participants of the other processes, by process id, with when that process last told us. */
  remote: Map<string, RemotePresence>;
  /** The room's topic, for the presence heartbeat (set when the first socket opens). */
  topic: Topic | null;
  /** The latest committed steps (at most RECENT_STEPS), so that a stale diff is answered from memory. */
  recent: StoredStep[];
  /** The newest revision's version and time: automatic revisions follow from them. */
  revisedVersion: number;
  revisedAt: number;
}

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

/** Steps a room keeps in memory for catch-ups; older ones are read from the step log. */
const RECENT_STEPS = 1000;

function remember(room: Room, steps: StoredStep[]): void {
  room.recent.push(...steps);
  if (room.recent.length > RECENT_STEPS) room.recent.splice(0, room.recent.length - RECENT_STEPS);
}

/**
 * Whether a late diff is mapped over the steps committed since instead of refused as stale: its
 * sender takes a rebased confirmation, the room still holds every step since its version (older
 * ones would be read from the step log: such a client is far behind and catches up), and none of
 * those steps is the sender's own. One of its own there means it sent this diff before it knew of
 * an earlier commit (a confirm lost with a socket or a process; the transport's resend after a
 * reconnect): the diff may repeat steps already committed, and only the stale path, where the
 * client confirms its committed steps by their client id first, applies each step once.
 */
function canRebase(room: Room, message: ClientDiffMessage, sessionId: string): boolean {
  if (message.rebase !== true) return false;
  const oldestKept = room.recent[0]?.version ?? room.version + 1;
  if (message.v < oldestKept - 1) return false;
  return !room.recent.some((stored) => stored.version > message.v && stored.clientId === sessionId);
}

function stepsMessage(from: number, steps: StoredStep[]): DocumentServerMessage {
  return { type: 'diff', v: from, ds: steps.map((s) => s.step), cids: steps.map((s) => s.clientId) };
}

/**
 * ${ws_url_base}/document/<id>/: the collaboration server (issue 16). The server is the authority
 * (prosemirror-collab): a diff made on the current version is checked step by step (schema,
 * positions, the sender's right), written to the step log, and only then confirmed; a diff made on
 * an older version gets the steps it misses and reject_diff 'stale'. Diffs of one document run one
 * after the other in this process (the endpoint's topic queue); between processes the document's
 * row lock and version decide, and the topic channel announces committed steps.
 */
export function createDocumentEndpoint() {
  const rooms = new Map<number, Room>();

  async function loadRoom(ctx: AppContext, id: number): Promise<Room | null> {
    const head = await readHead(ctx.db, id);
    if (!head) return null;
    // Without a valid snapshot (a document never opened) the first commit writes one.
    const after = head.needsSnapshot ? head.version : head.contentVersion;
    let doc = head.snapshot;
    const steps = await readSteps(ctx.db, id, after);
    for (const stored of steps) {
      const result = Step.fromJSON(schema, stored.step).apply(doc);
      if (!result.doc) throw new Error(`step ${stored.version} of document ${id} does not apply`);
      doc = result.doc;
    }
    const revised = await latestRevision(ctx.db, id);
    return {
      revisedVersion: revised?.version ?? 0,
      revisedAt: revised?.created ?? Date.now(),
      doc,
      version: after + steps.length,
      needsSnapshot: head.needsSnapshot,
      contentVersion: after,
      sessions: new Map(),
      remote: new Map(),
      topic: null,
      recent: steps.slice(-RECENT_STEPS),
    };
  }

  /** Sends steps the sessions of this process have not seen yet, oldest first. */
  function relay(topic: Topic, room: Room, steps: StoredStep[], except?: string): void {
    for (const [sessionId, session] of room.sessions) {
      if (sessionId === except) continue;
      const fresh = steps.filter((step) => step.version > session.sentVersion);
      if (fresh.length === 0) continue;
      const first = fresh[0].version - 1;
      if (first !== session.sentVersion) continue; // cannot happen: relays are in order
      topic.sendLocal(stepsMessage(first, fresh), (target) => target.sessionId === sessionId);
      session.sentVersion = fresh[fresh.length - 1].version;
    }
  }

  /** Applies committed steps to the room and relays them. */
  function advance(topic: Topic, room: Room, steps: StoredStep[], except?: string): void {
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
    remember(room, fresh);
    relay(topic, room, fresh, except);
  }

  /** Brings the room up to the database's version (steps other processes committed). */
  async function catchUp(topic: Topic, room: Room, id: number): Promise<void> {
    const steps = await readSteps(topic.ctx.db, id, room.version);
    if (steps.length) advance(topic, room, steps);
  }

  function participants(room: Room): Participant[] {
    const all = [
      ...[...room.sessions.values()].map((s) => s.participant),
      ...[...room.remote.values()].flatMap((remote) => remote.participants),
    ];
    return [...new Map(all.map((p) => [p.session_id, p])).values()];
  }

  function processId(ctx: AppContext): string {
    return liveHub(ctx)?.fanOut.processId ?? 'local';
  }

  async function announcePresence(topic: Topic, room: Room, ask: boolean): Promise<void> {
    const payload: TopicPayload = {
      kind: 'presence',
      process: processId(topic.ctx),
      participants: [...room.sessions.values()].map((s) => s.participant),
      ask,
    };
    topic.sendLocal({ type: 'participants', participants: participants(room) });
    await topic.publish(payload);
  }

  /**
   * The presence heartbeat: every process repeats its participants of each open document, and
   * forgets the participants of a process it has not heard for PRESENCE_MISSED_BEATS periods (a
   * process that died without saying goodbye, e.g. kill -9).
   */
  let heartbeat: ReturnType<typeof setInterval> | null = null;

  function startHeartbeat(ctx: AppContext): void {
    if (heartbeat) return;
    const period = ctx.config.presenceHeartbeatMs;
    heartbeat = setInterval(() => {
      const now = Date.now();
      for (const room of rooms.values()) {
        const topic = room.topic;
        if (!topic) continue;
        let dropped = false;
        for (const [process, remote] of room.remote)
          if (now - remote.heardAt > PRESENCE_MISSED_BEATS * period) {
            room.remote.delete(process);
            dropped = true;
          }
        if (dropped) topic.sendLocal({ type: 'participants', participants: participants(room) });
        if (room.sessions.size > 0)
          void topic
            .publish({
              kind: 'presence',
              process: processId(topic.ctx),
              participants: [...room.sessions.values()].map((s) => s.participant),
              ask: false,
            } satisfies TopicPayload)
            .catch(() => undefined); // Redis away: the next beat tries again
      }
    }, period);
    heartbeat.unref();
  }

  function refuse(socket: Socket, rid: number, reason: RejectReason): void {
    socket.send({ type: 'reject_diff', rid, reason });
  }

  /** The flood limit per editor: a burst of two seconds' diffs, refilled at the configured rate. */
  const floodBurst = (ctx: AppContext) => 2 * ctx.config.documentDiffRate;
  function takeToken(ctx: AppContext, session: SessionState, now: number): boolean {
    const refill = ((now - session.refilledAt) / 1000) * ctx.config.documentDiffRate;
    session.tokens = Math.min(floodBurst(ctx), session.tokens + refill);
    session.refilledAt = now;
    if (session.tokens < 1) return false;
    session.tokens -= 1;
    return true;
  }

  /**
   * reject_diff 'stale', after the steps the session has not been sent yet (what is already on its
   * way reaches the client before this answer), from memory when the room still holds them.
   */
  async function answerStale(
    socket: Socket,
    room: Room,
    id: number,
    session: SessionState,
    rid: number,
  ): Promise<void> {
    await sendMissing(socket, room, id, session, room.version);
    refuse(socket, rid, 'stale');
  }

  /** Sends the session the committed steps up to version `upTo` it has not been sent yet. */
  async function sendMissing(
    socket: Socket,
    room: Room,
    id: number,
    session: SessionState,
    upTo: number,
  ): Promise<void> {
    if (session.sentVersion >= upTo) return;
    const missing = (await stepsAfter(socket.topic.ctx, room, id, session.sentVersion)).filter(
      (stored) => stored.version <= upTo,
    );
    if (missing.length) {
      socket.send(stepsMessage(session.sentVersion, missing));
      session.sentVersion = missing[missing.length - 1].version;
    }
  }

  /** The committed steps after version `from` up to the room's version, from memory when it holds them. */
  async function stepsAfter(ctx: AppContext, room: Room, id: number, from: number): Promise<StoredStep[]> {
    if (from >= room.version) return [];
    const first = room.recent[0]?.version ?? Number.POSITIVE_INFINITY;
    return first <= from + 1
      ? room.recent.filter((step) => step.version > from)
      : await readSteps(ctx.db, id, from, room.version);
  }

  /**
   * catch_up: a client that kept its state across a new server session (a lost socket, a restart)
   * gets every committed step after its version, with client ids, in one diff. Relays it got since
   * doc_data started at a later version and were ignored by it; this diff covers them, and later
   * relays continue from here.
   */
  async function handleCatchUp(
    { socket, room, id, session }: Editor,
    message: CatchUpMessage,
  ): Promise<void> {
    // A client ahead of the step log cannot be helped by steps: it rebuilt from doc_data already.
    if (message.v > room.version) return;
    const steps = await stepsAfter(socket.topic.ctx, room, id, message.v);
    if (steps.length) socket.send(stepsMessage(message.v, steps));
    session.sentVersion = Math.max(session.sentVersion, room.version);
  }

  async function handleDiff(editor: Editor, message: ClientDiffMessage, receivedAt: number): Promise<void> {
    const { socket } = editor;
    const { right } = socket.admission;
    if (!rightMayEdit(right)) return refuse(socket, message.rid, 'read_only');
    // Counted by arrival: a busy process that handles a burst slowly is not more lenient.
    if (!takeToken(socket.topic.ctx, editor.session, receivedAt)) return refuse(socket, message.rid, 'flood');
    const rightNow = await commitDiff(editor, message);
    // The right changed since the socket was admitted (the process that changed it may not have
    // said so yet): after its answer the client reconnects and is told (issue 50).
    if (rightNow === null) socket.deny();
    else if (rightNow !== right) socket.readmitted({ ...socket.admission, right: rightNow });
  }

  /**
   * Checks a diff against the sender's right read under the document's lock, commits it and
   * answers it. Returns that right (null: the sender has none any more, or the document is gone).
   */
  async function commitDiff(editor: Editor, message: ClientDiffMessage): Promise<AccessRight | null> {
    const { socket, room, id, session } = editor;
    const { right } = socket.admission;
    // Behind what this process already holds, from a client that cannot take a rebased
    // confirmation: stale for sure, answered without the database. (The room's version never runs
    // ahead of the step log: it only moves after a commit.)
    if (message.v < room.version && !canRebase(room, message, socket.sessionId)) {
      await answerStale(socket, room, id, session, message.rid);
      return right;
    }
    let steps: Step[];
    try {
      steps = parseSteps(message.ds);
    } catch (error) {
      if (error instanceof Refusal) {
        refuse(socket, message.rid, error.reason);
        return right;
      }
      throw error;
    }
    const ctx = socket.topic.ctx;
    const outcome = await withDocumentLock(ctx.db, ctx.dialect, id, async (trx) => {
      // Only the version and the sender's right now: the snapshot is not needed to decide.
      const head = await readVersionAndRight(trx, id, socket.user.id);
      if (head?.right == null) return { kind: 'gone' as const };
      const current = head.right;
      if (!rightMayEdit(current))
        return { kind: 'refused' as const, reason: 'read_only' as const, right: current };
      if (head.version > room.version) advance(socket.topic, room, await readSteps(trx, id, room.version));
      if (message.v > room.version)
        return { kind: 'refused' as const, reason: 'ahead' as const, right: current };
      if (message.v < room.version) {
        if (!canRebase(room, message, socket.sessionId)) return { kind: 'stale' as const, right: current };
        // Late: mapped over what was committed since, then checked like any diff.
        const since = room.recent.filter((stored) => stored.version > message.v);
        steps = rebaseSteps(
          steps,
          since.map((stored) => Step.fromJSON(schema, stored.step)),
          room.doc,
        );
        // Every step fell on text the others deleted: nothing to commit, the sender's own rebase
        // dropped them too.
        if (steps.length === 0) return { kind: 'empty' as const, base: room.version, right: current };
      }
      let doc: PMNode;
      try {
        const othersThreads =
          current !== 'write' && removesCommentMarks(steps)
            ? await othersThreadsOf(trx, id, socket.user.id)
            : undefined;
        doc = applySteps(room.doc, steps, stepChecker(current, socket.user.id, othersThreads));
      } catch (error) {
        if (error instanceof Refusal)
          return { kind: 'refused' as const, reason: error.reason, right: current };
        throw error;
      }
      // A rebased diff commits its mapped steps; any other its steps as sent.
      const stepsJson =
        message.v < room.version ? steps.map((step) => step.toJSON() as StepJson) : message.ds;
      const newVersion = room.version + steps.length;
      const snapshot = room.needsSnapshot || newVersion - room.contentVersion >= SNAPSHOT_EVERY;
      await appendSteps(trx, {
        documentId: id,
        baseVersion: room.version,
        steps: stepsJson,
        clientId: socket.sessionId,
        userId: socket.user.id,
        doc,
        snapshot,
        now: Date.now(),
      });
      return { kind: 'committed' as const, doc, snapshot, base: room.version, ds: stepsJson, right: current };
    });
    if (outcome.kind === 'gone') return null;
    if (outcome.kind === 'refused') refuse(socket, message.rid, outcome.reason);
    else if (outcome.kind === 'stale') await answerStale(socket, room, id, session, message.rid);
    else {
      const rebased = message.v < outcome.base;
      // The sender gets the steps it misses before the confirmation: it rebases its own over them.
      if (rebased) await sendMissing(socket, room, id, session, outcome.base);
      if (outcome.kind === 'empty')
        socket.send({ type: 'confirm_diff', rid: message.rid, v: outcome.base, base: outcome.base });
      else {
        // Committed: from here on the steps are durable.
        const version = outcome.base + outcome.ds.length;
        if (outcome.snapshot) {
          room.needsSnapshot = false;
          room.contentVersion = version;
        }
        session.sentVersion = version;
        socket.send({
          type: 'confirm_diff',
          rid: message.rid,
          v: version,
          ...(rebased ? { base: outcome.base } : {}),
        });
        await committed(socket.topic, room, outcome.base, outcome.ds, socket.sessionId, outcome.doc);
        if (Date.now() - room.revisedAt >= AUTO_REVISION_MS)
          await autoRevision(ctx, room, id, author(socket));
      }
    }
    return outcome.right;
  }

  function author(socket: Socket) {
    return { id: socket.user.id, name: displayName(socket.user) };
  }

  /** An automatic revision of the room's document, unless nothing changed since the last one. */
  async function autoRevision(
    ctx: AppContext,
    room: Room,
    id: number,
    by: { id: number; name: string } | null,
  ) {
    if (room.version <= room.revisedVersion) return;
    const now = Date.now();
    await saveRevision(ctx.db, {
      documentId: id,
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
  async function spreadThread(topic: Topic, id: number, threadId: number, removed: boolean): Promise<void> {
    const [thread] = removed ? [] : await readThreads(topic.ctx.db, id, threadId);
    for (const target of topic.sockets() as Socket[]) {
      const visible = thread ? visibleThread(thread, viewerOf(target)) : null;
      target.send(
        visible ? { type: 'thread', thread: visible } : { type: 'thread_removed', thread: threadId },
      );
    }
  }

  async function sendThreads(socket: Socket, id: number): Promise<void> {
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
  async function restoreRevision(socket: Socket, room: Room, id: number, revisionId: number): Promise<void> {
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
    await committed(socket.topic, room, outcome.base, outcome.json, SERVER_CLIENT_ID, outcome.doc);
  }

  /**
   * Steps committed at version `base` (by `clientId`, the document now `doc`): the room takes them,
   * this process's other editors get them, and the other processes hear of them.
   */
  async function committed(
    topic: Topic,
    room: Room,
    base: number,
    ds: StepJson[],
    clientId: string,
    doc: PMNode,
  ): Promise<void> {
    const stored: StoredStep[] = ds.map((step, index) => ({ version: base + index + 1, step, clientId }));
    const titleBefore = documentTitle(room.doc);
    room.doc = doc;
    room.version = base + ds.length;
    remember(room, stored);
    relay(topic, room, stored, clientId);
    await topic.publish({
      kind: 'steps',
      v: base,
      ds,
      cids: stored.map((s) => s.clientId),
    } satisfies TopicPayload);
    // The title node is the overview's title: every open overview of the document shows it live.
    const title = documentTitle(doc).slice(0, TITLE_MAX);
    if (title !== titleBefore.slice(0, TITLE_MAX)) {
      const id = topic.id as number;
      await sendToUsers(topic.ctx, await documentViewerIds(topic.ctx.db, id), {
        type: 'document_title',
        id,
        title,
      });
    }
  }

  async function handleReview(
    socket: Socket,
    room: Room,
    id: number,
    message: ReviewClientMessage,
  ): Promise<void> {
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
          await catchUp(socket.topic, room, id);
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
          await restoreRevision(socket, room, id, message.revision);
          break;
      }
      if (changed) await socket.topic.publish({ kind: 'thread', ...changed } satisfies TopicPayload);
      socket.send({ type: 'review_answer', rid: message.rid });
    } catch (error) {
      if (!(error instanceof ReviewRefusal)) throw error;
      socket.send({ type: 'review_answer', rid: message.rid, error: error.reason });
    }
  }

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
      if (room) await catchUp(socket.topic, room, id);
      else {
        const loaded = await loadRoom(socket.topic.ctx, id);
        if (!loaded) return socket.deny();
        room = loaded;
        rooms.set(id, room);
      }
      room.topic = socket.topic;
      startHeartbeat(socket.topic.ctx);
      const user = socket.user;
      room.sessions.set(socket.sessionId, {
        sentVersion: room.version,
        participant: {
          session_id: socket.sessionId,
          id: user.id,
          name: displayName(user),
          username: user.username,
          avatar: avatarUrl(user.avatar),
        },
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
        session_id: socket.sessionId,
        participants: participants(room),
      });
      await sendThreads(socket, id);
      await announcePresence(socket.topic, room, true);
    },

    async handle(socket, message, receivedAt) {
      const id = socket.id as number;
      const room = rooms.get(id);
      if (!room) return;
      if (message.type === 'diff' || message.type === 'catch_up') {
        // Steps only from and to a socket that holds an editing session of the room.
        const session = room.sessions.get(socket.sessionId);
        if (!session) return;
        const editor = { socket, room, id, session };
        if (message.type === 'diff') await handleDiff(editor, message, receivedAt);
        else await handleCatchUp(editor, message);
      } else if (message.type === 'caret') await handleCaret(socket, message);
      else await handleReview(socket, room, id, message);
    },

    async closed(socket) {
      const id = socket.id as number;
      const room = rooms.get(id);
      if (!room) return;
      const session = room.sessions.get(socket.sessionId);
      if (session) room.sessions.delete(socket.sessionId);
      // The last editor left: keep what they did as an automatic revision.
      if (room.sessions.size === 0 && participants(room).length === 0)
        await autoRevision(socket.topic.ctx, room, id, author(socket));
      if (socket.topic.sockets().length === 0 && room.sessions.size === 0) rooms.delete(id);
      await announcePresence(socket.topic, room, false);
    },

    async topicMessage(topic, raw) {
      const parsed = topicPayload.safeParse(raw);
      const id = topic.id as number;
      const room = rooms.get(id);
      if (!parsed.success || !room) return;
      const payload = parsed.data;
      if (payload.kind === 'steps') {
        const end = payload.v + payload.ds.length;
        if (end <= room.version) return; // ours, or already read from the database
        if (payload.v > room.version) await catchUp(topic, room, id);
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
      } else if (payload.kind === 'thread') {
        await spreadThread(topic, id, payload.thread, payload.removed);
      } else if (payload.kind === 'presence') {
        if (payload.process === processId(topic.ctx)) return;
        const known = room.remote.get(payload.process);
        const unchanged =
          known !== undefined && JSON.stringify(known.participants) === JSON.stringify(payload.participants);
        if (payload.participants.length)
          room.remote.set(payload.process, { participants: payload.participants, heardAt: Date.now() });
        else room.remote.delete(payload.process);
        // A heartbeat repeating what we know changes nothing for the editors.
        if (!unchanged || payload.ask)
          topic.sendLocal({ type: 'participants', participants: participants(room) });
        if (payload.ask && room.sessions.size > 0) await announcePresence(topic, room, false);
      } else {
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
      }
    },
  });
}
