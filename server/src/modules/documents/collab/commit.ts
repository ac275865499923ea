import type { AccessRight } from '@scriptorium/common/api/documents';
import { rebaseSteps } from '@scriptorium/common/editor/rebase-steps';
import { schema } from '@scriptorium/common/editor/schema';
import type { ClientDiffMessage, RejectReason, StepJson } from '@scriptorium/common/ws/document-messages';
import type { Node as PMNode } from 'prosemirror-model';
import { Step } from 'prosemirror-transform';
import type { AppContext } from '../../../context';
import { applySteps, parseSteps, Refusal } from './apply-steps';
import { advance, answerStale, committed, sendMissing } from './relay';
import { AUTO_REVISION_MS } from './review';
import { author, autoRevision } from './review-room';
import { othersThreadsOf, removesCommentMarks, rightMayEdit, stepChecker } from './rights';
import { canRebase, type Editor, type SessionState, type Socket } from './room';
import { appendSteps, readSteps, readVersionAndRight, SNAPSHOT_EVERY, withDocumentLock } from './store';

/**
 * A diff from an editor: refused at once for the sender's right or a flood, otherwise checked
 * under the document's lock against the right of this moment, mapped over what was committed
 * since its version when it is late, written to the step log, and only then confirmed.
 */

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

export async function handleDiff(
  editor: Editor,
  message: ClientDiffMessage,
  receivedAt: number,
): Promise<void> {
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
  const { socket, room, session } = editor;
  const id = room.id;
  const { right } = socket.admission;
  // Behind what this process already holds, from a client that cannot take a rebased
  // confirmation: stale for sure, answered without the database. (The room's version never runs
  // ahead of the step log: it only moves after a commit.)
  if (message.v < room.version && !canRebase(room.recent, room.version, message, socket.sessionId)) {
    await answerStale(socket, room, session, message.rid);
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
      if (!canRebase(room.recent, room.version, message, socket.sessionId))
        return { kind: 'stale' as const, right: current };
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
      if (error instanceof Refusal) return { kind: 'refused' as const, reason: error.reason, right: current };
      throw error;
    }
    // A rebased diff commits its mapped steps; any other its steps as sent.
    const stepsJson = message.v < room.version ? steps.map((step) => step.toJSON() as StepJson) : message.ds;
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
  else if (outcome.kind === 'stale') await answerStale(socket, room, session, message.rid);
  else {
    const rebased = message.v < outcome.base;
    // The sender gets the steps it misses before the confirmation: it rebases its own over them.
    if (rebased) await sendMissing(socket, room, session, outcome.base);
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
      if (Date.now() - room.revisedAt >= AUTO_REVISION_MS) await autoRevision(ctx, room, author(socket));
    }
  }
  return outcome.right;
}
