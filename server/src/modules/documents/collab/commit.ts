import type { AccessRight } from '@scriptorium/common/api/documents';
import { rebaseSteps } from '@scriptorium/common/editor/rebase-steps';
import { schema } from '@scriptorium/common/editor/schema';
import { documentTitle } from '@scriptorium/common/editor/templates';
import type { ClientDiffMessage, RejectReason, StepJson } from '@scriptorium/common/ws/document-messages';
import type { Kysely } from 'kysely';
import type { Node as PMNode } from 'prosemirror-model';
import { Step } from 'prosemirror-transform';
import type { AppContext } from '../../../context';
import { type Dialect, sqliteWriter } from '../../../db/database';
import type { Database } from '../../../db/schema';
import { applySteps, parseSteps, Refusal } from './apply-steps';
import { advance, announce, answerStale, sendMissing } from './relay';
import { AUTO_REVISION_MS } from './review';
import { author, autoRevision } from './review-room';
import { othersThreadsOf, removesCommentMarks, rightMayEdit, stepChecker } from './rights';
import {
  canRebase,
  type DocumentRoom,
  type Editor,
  type SessionState,
  type Socket,
  type Topic,
} from './room';
import {
  appendStepRuns,
  lockDocument,
  readSteps,
  readVersionAndRight,
  SNAPSHOT_EVERY,
  type StepRun,
  type StoredStep,
} from './store';

type Head = Awaited<ReturnType<typeof readVersionAndRight>>;

import { collabTimings } from './timings';

/**
 * The commit queue, the only writer of the step log (issue 52, group commit). A diff is refused at
 * once for the sender's right or a flood; otherwise it waits in its lane. A lane commits what is
 * waiting in one transaction (one fsync for many diffs): each diff is checked under the document's
 * lock against its sender's right of this moment, mapped over what was committed since its version
 * when it is late, and written; a refused diff is left out and answered alone. Only after the
 * transaction committed are the diffs answered, in order: confirmations, relays, refusals. Diffs
 * that arrive meanwhile wait for the next transaction.
 *
 * Lanes: on PostgreSQL one per document (documents commit side by side; between processes the
 * row lock and the version order them); on SQLite, which has one writer, one lane for the process,
 * so that what waits for several documents goes in one transaction too.
 */

type Executor = Kysely<Database>;

/** One diff waiting in a lane; `refusal`: refused on arrival, answered in its turn. */
interface Waiting {
  editor: Editor;
  message: ClientDiffMessage;
  refusal?: RejectReason;
  done: () => void;
}

/** What a diff came to inside the transaction; answered once it committed. */
type Outcome =
  | { kind: 'gone' }
  | { kind: 'refused'; reason: RejectReason; right: AccessRight }
  | { kind: 'stale'; right: AccessRight }
  | { kind: 'empty'; base: number; right: AccessRight }
  | { kind: 'committed'; base: number; ds: StepJson[]; doc: PMNode; snapshot: boolean; right: AccessRight };

/** A room as the transaction changes it: nothing of it is the room's before the commit. */
interface Work {
  doc: PMNode;
  version: number;
  recent: StoredStep[];
  needsSnapshot: boolean;
  contentVersion: number;
  /** The diffs decided so far, written together once the room's diffs are decided. */
  runs: StepRun[];
  /** A snapshot is due with the room's writes. */
  snapshot: boolean;
}

function workOf(room: DocumentRoom): Work {
  return {
    doc: room.doc,
    version: room.version,
    recent: [...room.recent],
    needsSnapshot: room.needsSnapshot,
    contentVersion: room.contentVersion,
    runs: [],
    snapshot: false,
  };
}

/** Diffs handed to the queue, transactions begun and committed and the diffs they decided, per database (tests). */
export interface CommitStats {
  submitted: number;
  begun: number;
  transactions: number;
  diffs: number;
}
const stats = new WeakMap<object, CommitStats>();

export function commitStats(db: object): CommitStats {
  let entry = stats.get(db);
  if (!entry) {
    entry = { submitted: 0, begun: 0, transactions: 0, diffs: 0 };
    stats.set(db, entry);
  }
  return entry;
}

function refuse(socket: Socket, rid: number, reason: RejectReason): void {
  socket.send({ type: 'reject_diff', rid, reason });
}

/** The flood limit per editor: a burst of two seconds' diffs, refilled at the configured rate. */
export const floodBurst = (ctx: AppContext) => 2 * ctx.config.documentDiffRate;

function takeToken(ctx: AppContext, session: SessionState, now: number): boolean {
  const refill = ((now - session.refilledAt) / 1000) * ctx.config.documentDiffRate;
  session.tokens = Math.min(floodBurst(ctx), session.tokens + refill);
  session.refilledAt = now;
  if (session.tokens < 1) return false;
  session.tokens -= 1;
  return true;
}

interface Lane {
  waiting: Waiting[];
  running: boolean;
}

export class CommitQueue {
  private readonly lanes = new Map<string, Lane>();

  /**
   * Takes a diff (in the topic's order): it is answered once the transaction that holds it
   * committed; the room's settled() waits for that.
   */
  submit(editor: Editor, message: ClientDiffMessage, receivedAt: number): void {
    const { socket, room, session } = editor;
    const ctx = socket.topic.ctx;
    let refusal: RejectReason | undefined;
    if (!rightMayEdit(socket.admission.right)) refusal = 'read_only';
    // Counted by arrival: a busy process that handles a burst slowly is not more lenient.
    else if (!takeToken(ctx, session, receivedAt)) refusal = 'flood';
    const key = ctx.dialect === 'sqlite' ? 'sqlite' : `document/${room.id}`;
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { waiting: [], running: false };
      this.lanes.set(key, lane);
    }
    let done = () => {};
    room.track(new Promise<void>((resolve) => (done = resolve)));
    lane.waiting.push({ editor, message, refusal, done });
    commitStats(ctx.db).submitted++;
    if (!lane.running) {
      lane.running = true;
      void this.drain(key, lane, Math.max(1, ctx.config.collabGroupMax));
    }
  }

  private async drain(key: string, lane: Lane, max: number): Promise<void> {
    try {
      // Before each transaction the frames that arrived meanwhile are read, and their diffs join
      // it: SQLite's commit (better-sqlite3, synchronous) holds the event loop through its fsync,
      // and a transaction that never yields would otherwise commit each diff alone.
      while ((await nextTurn()) && lane.waiting.length) {
        // At most config.collabGroupMax diffs in one transaction; the rest wait for the next.
        const group = lane.waiting.splice(0, max);
        try {
          await answerGroup(group, await commitGroup(group));
        } catch (error) {
          // The transaction failed (not a refusal: those are answered): the database, or a bug.
          // Each diff alone then, so that one cannot sink the others.
          if (group.length === 1) reportFailure(group[0], error);
          else
            for (const one of group)
              await commitGroup([one])
                .then((outcomes) => answerGroup([one], outcomes))
                .catch((again) => reportFailure(one, again));
        } finally {
          for (const one of group) one.done();
        }
      }
    } finally {
      lane.running = false;
      if (lane.waiting.length === 0) this.lanes.delete(key);
    }
  }
}

/** Resolves (true) after the I/O waiting now: the sockets' frames are read first. */
function nextTurn(): Promise<boolean> {
  return new Promise((resolve) => setImmediate(() => resolve(true)));
}

/** A diff that could not be committed gets no answer (its client resends after a reconnect). */
function reportFailure(one: Waiting, error: unknown): void {
  console.error(`the diff ${one.message.rid} of document ${one.editor.room.id} failed`, error);
}

/**
 * Commits a group of diffs (of one document, or on SQLite of several) in one transaction; what
 * each came to. The rooms take none of it yet (but steps of other processes found on the way).
 * On SQLite the group is decided on the main thread and written by the writer thread
 * (db/writer-pool.ts), whose fsync leaves the event loop free; when the writer finds that
 * something the group was decided on changed meanwhile, or the main connection is inside a
 * transaction of its own, the group is decided again in a transaction on the main connection.
 */
async function commitGroup(group: Waiting[]): Promise<Map<Waiting, Outcome>> {
  const ctx = group[0].editor.socket.topic.ctx;
  const rooms = new Map<DocumentRoom, Waiting[]>();
  for (const one of group) {
    if (one.refusal) continue;
    const list = rooms.get(one.editor.room) ?? [];
    list.push(one);
    rooms.set(one.editor.room, list);
  }
  if (rooms.size === 0) return new Map();
  commitStats(ctx.db).begun++;
  const started = performance.now();
  const writer =
    ctx.dialect === 'sqlite' && ctx.config.collabSqliteWriter === 'thread' ? sqliteWriter(ctx.db) : undefined;
  let outcomes: Map<Waiting, Outcome> | undefined;
  if (writer && !writer.mainBusy()) {
    const recording = writer.recorder();
    let decided: Map<Waiting, Outcome>;
    try {
      decided = await decideGroup(recording.db, ctx.dialect, rooms);
    } finally {
      recording.release();
    }
    const blocked = performance.now() - started;
    const reply = recording.writes.length ? await writer.commit(recording) : undefined;
    if (reply?.kind === 'failed') throw new Error(`the SQLite writer thread failed: ${reply.message}`);
    if (reply?.kind !== 'conflict') {
      outcomes = decided;
      if (reply) collabTimings?.commit(reply.commitMs);
      collabTimings?.group(outcomes.size, performance.now() - started, blocked, 'worker');
    }
  }
  if (!outcomes) {
    const mainStarted = performance.now();
    outcomes = await ctx.db.transaction().execute((trx) => decideGroup(trx, ctx.dialect, rooms));
    // better-sqlite3 holds the event loop for the whole transaction; PostgreSQL does not.
    const took = performance.now() - mainStarted;
    collabTimings?.group(outcomes.size, took, ctx.dialect === 'sqlite' ? took : 0, 'main');
  }
  const counted = commitStats(ctx.db);
  counted.transactions++;
  counted.diffs += outcomes.size;
  return outcomes;
}

/** Decides (and writes, through `trx`) the diffs of each room, in arrival order. */
async function decideGroup(
  trx: Executor,
  dialect: Dialect,
  rooms: Map<DocumentRoom, Waiting[]>,
): Promise<Map<Waiting, Outcome>> {
  const outcomes = new Map<Waiting, Outcome>();
  for (const [room, diffs] of rooms) {
    await lockDocument(trx, dialect, room.id);
    let work = workOf(room);
    // The version and each sender's right, read once per room and group (under the lock).
    const heads = new Map<number, Promise<Head>>();
    const head = (userId: number) => {
      let read = heads.get(userId);
      if (!read) {
        read = readVersionAndRight(trx, room.id, userId);
        heads.set(userId, read);
      }
      return read;
    };
    let last: Extract<Outcome, { kind: 'committed' }> | undefined;
    for (const one of diffs) {
      const outcome = await evaluate(trx, work, one, head, (fresh) => {
        // Steps another process committed: the room takes them (they are durable already).
        advance(one.editor.socket.topic, room, fresh);
        work = workOf(room);
        return work;
      });
      outcomes.set(one, outcome);
      if (outcome.kind === 'committed') last = outcome;
    }
    if (!last) continue;
    // From the room's version (other processes' steps taken on the way included).
    await appendStepRuns(trx, {
      documentId: room.id,
      baseVersion: room.version,
      runs: work.runs,
      doc: work.doc,
      snapshot: work.snapshot,
      now: Date.now(),
    });
    // The snapshot is of the room's last committed diff.
    if (work.snapshot) last.snapshot = true;
  }
  return outcomes;
}

/** Steps a group committed to one room, announced once its diffs are answered. */
interface Taken {
  topic: Topic;
  stored: StoredStep[];
  titleBefore: string;
  by: Socket;
}

/**
 * After the commit: from here on the steps are durable, and are confirmed in order; then each
 * room announces what it took (one relay for this process's editors, one message for the others).
 */
async function answerGroup(group: Waiting[], outcomes: Map<Waiting, Outcome>): Promise<void> {
  const taken = new Map<DocumentRoom, Taken>();
  for (const one of group) {
    try {
      const outcome = outcomes.get(one);
      if (one.refusal) refuse(one.editor.socket, one.message.rid, one.refusal);
      else if (outcome) await answer(one.editor, one.message, outcome, taken);
    } catch (error) {
      reportFailure(one, error);
    }
  }
  for (const [room, { topic, stored, titleBefore, by }] of taken) {
    try {
      await announce(topic, room, stored, titleBefore);
      if (Date.now() - room.revisedAt >= AUTO_REVISION_MS) await autoRevision(topic.ctx, room, author(by));
    } catch (error) {
      console.error(`the steps committed to document ${room.id} were not all announced`, error);
    }
  }
}

/**
 * Decides one diff inside the transaction, on `work` (the room as the transaction left it), and
 * adds its steps to the room's writes (decideGroup writes them). `caughtUp` takes steps of other processes the room has not seen yet (only before the
 * group's first write of the room: the lock is held after that).
 */
async function evaluate(
  trx: Executor,
  work: Work,
  { editor, message }: Waiting,
  readHead: (userId: number) => Promise<Head>,
  caughtUp: (steps: StoredStep[]) => Work,
): Promise<Outcome> {
  const { socket, room } = editor;
  const id = room.id;
  const { right } = socket.admission;
  // Behind what the room already holds, from a client that cannot take a rebased confirmation:
  // stale for sure, without the database. (The room's version never runs ahead of the step log.)
  if (message.v < work.version && !canRebase(work.recent, work.version, message, socket.sessionId))
    return { kind: 'stale', right };
  let steps: Step[];
  try {
    steps = parseSteps(message.ds);
  } catch (error) {
    if (error instanceof Refusal) return { kind: 'refused', reason: error.reason, right };
    throw error;
  }
  // Only the version and the sender's right now: the snapshot is not needed to decide.
  const head = await readHead(socket.user.id);
  if (head?.right == null) return { kind: 'gone' };
  const current = head.right;
  if (!rightMayEdit(current)) return { kind: 'refused', reason: 'read_only', right: current };
  if (head.version > work.version) {
    if (work.version !== room.version) throw new Error('the document moved under its lock');
    work = caughtUp(await readSteps(trx, id, room.version));
  }
  if (message.v > work.version) return { kind: 'refused', reason: 'ahead', right: current };
  const late = message.v < work.version;
  if (late) {
    if (!canRebase(work.recent, work.version, message, socket.sessionId))
      return { kind: 'stale', right: current };
    // Late: mapped over what was committed since, then checked like any diff.
    const since = work.recent.filter((stored) => stored.version > message.v);
    steps = rebaseSteps(
      steps,
      since.map((stored) => Step.fromJSON(schema, stored.step)),
      work.doc,
    );
    // Every step fell on text the others deleted: nothing to commit, the sender's own rebase
    // dropped them too.
    if (steps.length === 0) return { kind: 'empty', base: work.version, right: current };
  }
  let doc: PMNode;
  try {
    const othersThreads =
      current !== 'write' && removesCommentMarks(steps)
        ? await othersThreadsOf(trx, id, socket.user.id)
        : undefined;
    doc = applySteps(work.doc, steps, stepChecker(current, socket.user.id, othersThreads));
  } catch (error) {
    if (error instanceof Refusal) return { kind: 'refused', reason: error.reason, right: current };
    throw error;
  }
  // A rebased diff commits its mapped steps; any other its steps as sent.
  const ds = late ? steps.map((step) => step.toJSON() as StepJson) : message.ds;
  const base = work.version;
  const version = base + ds.length;
  const snapshot = work.needsSnapshot || version - work.contentVersion >= SNAPSHOT_EVERY;
  work.runs.push({ steps: ds, clientId: socket.sessionId, userId: socket.user.id });
  work.snapshot ||= snapshot;
  work.doc = doc;
  work.version = version;
  work.recent.push(
    ...ds.map((step, index) => ({ version: base + index + 1, step, clientId: socket.sessionId })),
  );
  if (snapshot) {
    work.needsSnapshot = false;
    work.contentVersion = version;
  }
  return { kind: 'committed', base, ds, doc, snapshot: false, right: current };
}

/**
 * Answers a diff after the commit, in the group's order (the room takes each committed diff's
 * steps as its turn comes): the steps its sender misses, then its confirmation or refusal.
 */
async function answer(
  editor: Editor,
  message: ClientDiffMessage,
  outcome: Outcome,
  taken: Map<DocumentRoom, Taken>,
): Promise<void> {
  const { socket, room, session } = editor;
  if (outcome.kind === 'refused') refuse(socket, message.rid, outcome.reason);
  else if (outcome.kind === 'stale') await answerStale(socket, room, session, message.rid);
  else if (outcome.kind !== 'gone') {
    const rebased = message.v < outcome.base;
    // The sender gets the steps it misses before the confirmation: it rebases its own over them.
    if (rebased) await sendMissing(socket, room, session, outcome.base);
    if (outcome.kind === 'empty')
      socket.send({ type: 'confirm_diff', rid: message.rid, v: outcome.base, base: outcome.base });
    else {
      const version = outcome.base + outcome.ds.length;
      const stored = outcome.ds.map((step, index) => ({
        version: outcome.base + index + 1,
        step,
        clientId: socket.sessionId,
      }));
      const entry = taken.get(room) ?? {
        topic: socket.topic,
        stored: [],
        titleBefore: documentTitle(room.doc),
        by: socket,
      };
      taken.set(room, entry);
      room.take(stored, outcome.doc);
      entry.stored.push(...stored);
      entry.by = socket;
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
    }
  }
  // The right changed since the socket was admitted (the process that changed it may not have
  // said so yet): after its answer the client reconnects and is told (issue 50).
  const rightNow = outcome.kind === 'gone' ? null : outcome.right;
  if (rightNow === null) socket.deny();
  else if (rightNow !== socket.admission.right) socket.readmitted({ ...socket.admission, right: rightNow });
}
