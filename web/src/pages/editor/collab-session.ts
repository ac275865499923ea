import { schema } from '@scriptorium/common/editor/schema';
import type { Reviewer } from '@scriptorium/common/editor/track-changes';
import type {
  ClientDiffMessage,
  ConfirmDiffMessage,
  DocDataMessage,
  DocumentClientMessage,
  RejectDiffMessage,
  RejectReason,
  ServerCaretMessage,
  ServerDiffMessage,
  StepJson,
} from '@scriptorium/common/ws/document-messages';
import { SEND_THROTTLE_START_MS } from '@scriptorium/common/ws/timing';
import { collab, getVersion, receiveTransaction, sendableSteps } from 'prosemirror-collab';
import { Node as PMNode } from 'prosemirror-model';
import { EditorState, type Plugin, Selection, TextSelection, type Transaction } from 'prosemirror-state';
import { Step, type StepMap, Transform } from 'prosemirror-transform';
import { compressSteps } from '../../offline/compress-steps';
import { suggestOfflineWork } from './offline-suggestions';

/**
 * The client half of the prosemirror-collab protocol over the document socket, without the view:
 * it owns the EditorState, sends unconfirmed steps as one diff at a time, applies confirmed and
 * relayed steps, rebases after a stale rejection, and maps others' carets. The view only renders
 * `state` and hands local transactions to `apply`.
 */

export interface RemoteCaret {
  sessionId: string;
  userId: number;
  /** Positions in the current state's document. */
  anchor: number;
  head: number;
}

export interface CollabSessionOptions {
  send(message: DocumentClientMessage): void;
  /** Called after every change of state, carets or sending status. */
  onChange(): void;
  /** The plugins of the view (keymaps, input rules...); the collab plugin is added here. */
  plugins: (clientId: string) => Plugin[];
  /** A diff was refused for a reason other than a stale version: the user must be told. */
  onRefused?(reason: RejectReason): void;
  /**
   * Timers: the wait before sending again after a 'flood' refusal, and the latest moment of a
   * scheduled send (SEND_THROTTLE_START_MS); setTimeout by default.
   */
  schedule?(callback: () => void, ms: number): void;
  /**
   * When a local change is sent: at once by default. The page sends after the frame that shows
   * the keystroke (encoding and sending are then off the keystroke's path, and the keys of one
   * frame travel in one diff), and at the latest after SEND_THROTTLE_START_MS.
   */
  scheduleSend?(send: () => void): void;
  /**
   * The catch-up after a long time apart merged a large divergence (more than LARGE_DIVERGENCE
   * steps on each side) or could not place some of our steps: `offline` is our document as it was
   * just before, so that the page can keep it and show it.
   */
  onDivergence?(divergence: Divergence): void;
  /** Fold the queue before a catch-up rebase (default); off only to measure without it (bench/offline.ts). */
  compress?: boolean;
  /**
   * Ask the server to rebase a late diff (confirm_diff with `base`) instead of answering 'stale'.
   * The editor asks (document-connection.ts). Its own steps the server rebased come back after
   * the others' committed before them, and are taken run by run (receiveRuns).
   */
  rebase?: boolean;
  /**
   * Who we are in tracked changes: with it, a large divergence lays our offline work on the
   * co-authors' version as our suggestions (offline-suggestions.ts) instead of merging it.
   */
  author?(): Reviewer | null;
  /**
   * Called with the current state before a server message changes it (doc data, a confirmation,
   * others' steps): the page lets the view read input it has not read yet (editor-plugins.ts,
   * readDomSelectionBeforeRedraw).
   */
  beforeRemoteChange?(state: EditorState): void;
}

/** What a session keeps across reloads and closed tabs (the offline queue, IndexedDB). */
export interface SavedSession {
  clientId: string;
  /** The server version the confirmed document is at. */
  version: number;
  /**
   * The confirmed document (ProseMirror JSON), at `version` less the `confirmed` steps. Written
   * again only every confirmedStepsKept(doc) confirmed steps: copying a long document into IndexedDB
   * after every keystroke would delay the keystrokes' paint.
   */
  doc: unknown;
  /** Server steps from `doc` to `version` (Step JSON, in order); none when `doc` is at `version`. */
  confirmed?: unknown[];
  /** Our steps on top of it, not yet confirmed by the server (Step JSON, in order). */
  steps: unknown[];
}

/**
 * After how many confirmed steps on top of it the saved document is written again. Every change
 * writes the steps kept (about 100 bytes each), every renewal the whole document (about 1.5 bytes
 * a position): the cheapest mix renews after about sqrt(2 × document bytes / step bytes) steps,
 * within 20 and 300. A short document is renewed often and cheaply; a long one, rarely.
 */
export function confirmedStepsKept(doc: PMNode): number {
  return Math.min(300, Math.max(20, Math.round(Math.sqrt(doc.nodeSize * 0.03))));
}

export interface Divergence {
  /** Our document (JSON) just before the co-authors' steps were merged into it. */
  offline: unknown;
  /** Steps of the co-authors merged, and ours (after compression) rebased over them. */
  remote: number;
  local: number;
  /**
   * Our steps the rebase could not place: their text lives on in `offline`, and is suggested again
   * where it stood when `suggested`.
   */
  dropped: number;
  /** Our offline work was laid on the co-authors' version as suggestions to accept or reject. */
  suggested: boolean;
}

/** "More than 50 steps on each side" is a large divergence (issue 20). */
export const LARGE_DIVERGENCE = 50;
/** A queue longer than this is folded with Step.merge before it is rebased. */
const COMPRESS_ABOVE = 20;
/** The server takes at most this many steps per diff (MAX_STEPS_PER_DIFF) and 256 kB frames. */
const STEPS_PER_DIFF = 500;
const DIFF_BYTES = 160 * 1024;

/** Whose steps those of ours are that a restored queue does not hold (see receiveDiff). */
const EARLIER_PAGE = 'an earlier page of this session';

/** How many versions of step maps are kept to map carets that arrive late. */
const MAP_HISTORY = 500;

interface InFlight {
  rid: number;
  /** The version the diff was made on, and how many steps it carried. */
  v: number;
  count: number;
}

export class CollabSession {
  state: EditorState | null = null;
  clientId = '';
  readonly carets = new Map<string, RemoteCaret>();
  /** A refusal the user has been told about: nothing more is sent until the page reloads. */
  refused: RejectReason | null = null;
  private inFlight: InFlight | null = null;
  /**
   * Every diff sent and not yet answered. After a reconnect the transport may deliver an older
   * diff again besides the one in flight; its confirm must still count.
   */
  private readonly sent = new Map<number, InFlight>();
  private nextRid = 1;
  private sendScheduled = false;
  /** The connection is lost (disconnected): nothing is sent until the next doc_data. */
  private cut = false;
  /** After doc_data on a kept state: the version to reach (by catch_up) before sending. */
  private catchUpTo = 0;
  /** Step maps by the version they lead from, to bring late carets up to date. */
  private readonly maps = new Map<number, StepMap>();
  private readonly waitingCarets: ServerCaretMessage[] = [];
  /** The document as the server has it at `version` (what a saved session is restored onto). */
  private confirmedDoc: PMNode | null = null;
  /** What saved() hands out: a document and the confirmed steps since (see SavedSession.doc). */
  private savedBase: { json: unknown; confirmed: unknown[] } | null = null;
  /**
   * We asked for the steps after our version: until its answer arrives every diff we sent earlier
   * is either in the answer (committed) or never will be, so the queue may be folded then.
   */
  private catchUpAsked = false;
  /**
   * Restored from a save: how many steps its queue held. The server may have committed them (the
   * earlier page sent them), and more of ours typed after that save; null once caught up.
   */
  private restoredQueue: number | null = null;
  /** JSON of steps already written once (saving the queue after each keystroke stays linear). */
  private readonly stepJson = new WeakMap<Step, StepJson>();

  constructor(private readonly options: CollabSessionOptions) {}

  private beforeRemoteChange(): void {
    if (this.state) this.options.beforeRemoteChange?.(this.state);
  }

  /** Steps not yet confirmed by the server (unsaved work). */
  get unconfirmed(): number {
    if (!this.state) return 0;
    return sendableSteps(this.state)?.steps.length ?? 0;
  }

  get version(): number {
    return this.state ? getVersion(this.state) : 0;
  }

  /**
   * The document from the server: the start, or a new server session (a lost socket, a restart).
   * A session that already has a state keeps it (undo history, unconfirmed steps) and asks for the
   * steps after its version: its own committed steps come first in them and collab confirms them,
   * others' are merged, and the rest of ours is rebased and sent once caught up. Only a server
   * behind our version (or another client id) makes us start over from the server's document.
   */
  receiveDocData(message: DocDataMessage): { lost: number } {
    this.beforeRemoteChange();
    const previous = this.state;
    this.inFlight = null;
    this.cut = false;
    if (previous && this.clientId === message.session_id && getVersion(previous) <= message.doc.v) {
      this.catchUpTo = message.doc.v;
      if (getVersion(previous) < message.doc.v) {
        this.catchUpAsked = true;
        this.options.send({ type: 'catch_up', v: getVersion(previous) });
      } else this.restoredQueue = null; // the server has nothing of ours past our version
      this.flush();
      this.options.onChange();
      return { lost: 0 };
    }
    const doc = PMNode.fromJSON(schema, message.doc.content);
    const pending = previous ? sendableSteps(previous) : null;
    this.clientId = message.session_id;
    this.sent.clear();
    this.catchUpTo = 0;
    this.catchUpAsked = false;
    this.restoredQueue = null;
    this.setConfirmed(doc);
    let state = EditorState.create({
      doc,
      plugins: [
        ...this.options.plugins(this.clientId),
        collab({ version: message.doc.v, clientID: this.clientId }),
      ],
    });
    let lost = 0;
    if (pending) {
      // The server lost steps we had (or we are another editor now): replay our unconfirmed work
      // as new local steps where it still applies, and count what does not.
      const tr = state.tr;
      for (const step of pending.steps) if (tr.maybeStep(step).failed) lost++;
      if (tr.docChanged) state = state.apply(tr);
    }
    if (previous) {
      const head = Math.min(previous.selection.head, state.doc.content.size);
      state = state.apply(state.tr.setSelection(Selection.near(state.doc.resolve(head))));
    }
    this.state = state;
    this.maps.clear();
    this.carets.clear();
    this.flush();
    this.options.onChange();
    return { lost };
  }

  /**
   * Starts from a saved session (the offline queue of this tab, or of a closed one): the confirmed
   * document, and our unconfirmed steps on top as local changes. The server's doc_data for the
   * same client id then takes the keep path above: catch up, rebase, send. Returns the steps that
   * no longer apply (none, unless the saved queue was damaged).
   */
  restore(saved: SavedSession): { lost: number } {
    const doc = savedDocument(saved);
    this.clientId = saved.clientId;
    this.setConfirmed(doc);
    this.sent.clear();
    this.inFlight = null;
    this.catchUpTo = 0;
    let state = EditorState.create({
      doc,
      plugins: [
        ...this.options.plugins(this.clientId),
        collab({ version: saved.version, clientID: this.clientId }),
      ],
    });
    const tr = state.tr;
    let lost = 0;
    for (const json of saved.steps) {
      try {
        if (tr.maybeStep(Step.fromJSON(schema, json)).failed) lost++;
      } catch {
        lost++;
      }
    }
    if (tr.docChanged) state = state.apply(tr);
    this.state = state;
    this.restoredQueue = saved.steps.length - lost;
    this.options.onChange();
    return { lost };
  }

  /** What to keep in the offline queue now, or null before the first document arrived. */
  saved(): SavedSession | null {
    if (!this.state || !this.confirmedDoc) return null;
    const steps = sendableSteps(this.state)?.steps ?? [];
    this.savedBase ??= { json: this.confirmedDoc.toJSON(), confirmed: [] };
    return {
      clientId: this.clientId,
      version: this.version,
      doc: this.savedBase.json,
      confirmed: [...this.savedBase.confirmed],
      steps: steps.map((step) => this.toJson(step)),
    };
  }

  /** A local transaction from the view (typing, a command, a nested note's editor). */
  apply(tr: Transaction): void {
    if (!this.state) return;
    const before = this.state;
    this.state = before.apply(tr);
    if (tr.docChanged) this.mapCarets(tr.mapping.maps);
    const { scheduleSend } = this.options;
    // A change that is not the document's (a caret, rendered citations) does not bring forward a
    // send already scheduled: that would encode it in the task that draws the change.
    if (!scheduleSend || (!tr.docChanged && !this.sendScheduled)) this.flush();
    else if (!this.sendScheduled) {
      this.sendScheduled = true;
      let sent = false;
      const send = () => {
        if (sent) return;
        sent = true;
        this.sendScheduled = false;
        this.flush();
      };
      scheduleSend(send);
      // Never later than the first step of the send throttle (spec section 9), whatever delays
      // the scheduled send (a busy main thread, a page without frames).
      (this.options.schedule ?? setTimeout)(send, SEND_THROTTLE_START_MS);
    }
    this.options.onChange();
  }

  /**
   * The connection is lost: until the next doc_data nothing is sent. Its catch-up sends our work
   * anyway; a diff sent now would wait in the transport and reach the server late, where it would
   * be committed rebased, outside the merge of offline work (a large divergence would not be laid
   * as suggestions).
   */
  disconnected(): void {
    this.cut = true;
  }

  /**
   * Sends the unconfirmed steps, unless a diff is on its way already, sending was stopped, the
   * connection is lost, or a catch-up is still missing steps (a diff on an older version would
   * only come back stale).
   */
  flush(): void {
    if (!this.state || this.inFlight || this.refused || this.cut) return;
    if (getVersion(this.state) < this.catchUpTo) return;
    const sendable = sendableSteps(this.state);
    if (!sendable) return;
    // A long queue (offline work) goes out in diffs the server and the socket accept.
    const ds: StepJson[] = [];
    let bytes = 0;
    for (const step of sendable.steps) {
      const json = this.toJson(step);
      bytes += JSON.stringify(json).length;
      if (ds.length && (ds.length >= STEPS_PER_DIFF || bytes > DIFF_BYTES)) break;
      ds.push(json);
    }
    const rid = this.nextRid++;
    this.inFlight = { rid, v: sendable.version, count: ds.length };
    this.sent.set(rid, this.inFlight);
    const diff: ClientDiffMessage = { type: 'diff', v: sendable.version, rid, ds };
    if (this.options.rebase) diff.rebase = true;
    this.options.send(diff);
  }

  confirm(message: ConfirmDiffMessage): void {
    const diff = this.sent.get(message.rid);
    this.sent.delete(message.rid);
    if (!this.state || !diff) return;
    this.beforeRemoteChange();
    if (this.inFlight?.rid === message.rid) this.inFlight = null;
    const startVersion = getVersion(this.state);
    const sendable = sendableSteps(this.state);
    // Committed at `base` after the server rebased it (made on an older version): the steps
    // committed before it came first, collab rebased ours over them exactly as the server did,
    // and the first v - base of our unconfirmed steps are the committed ones (fewer than we sent
    // when some fell on text the others deleted). Otherwise committed on the version it was made
    // on; made on an older one, its steps already came back (relayed) and were confirmed then.
    const base = message.base ?? diff.v;
    const count = message.base === undefined ? diff.count : message.v - message.base;
    if (base === startVersion && sendable && count > 0 && sendable.steps.length >= count) {
      const steps = sendable.steps.slice(0, count);
      this.advanceConfirmed(steps);
      // Our own steps come back as confirmed: collab drops them from the unconfirmed list.
      this.state = this.state.apply(
        receiveTransaction(
          this.state,
          steps,
          steps.map(() => this.clientId),
        ),
      );
      this.remember(
        startVersion,
        steps.map((step) => step.getMap()),
      );
    }
    this.flush();
    this.options.onChange();
  }

  /** Steps others made (or ours, relayed after a lost confirm), in server order. */
  receiveDiff(message: ServerDiffMessage): void {
    if (!this.state) return;
    const version = getVersion(this.state);
    // Steps come in server order, so the ones up to our version are the ones we hold already (a
    // catch-up overlapping relays); after a gap, nothing: a catch-up or a later answer fills it.
    if (message.v > version || message.v + message.ds.length <= version) return;
    this.beforeRemoteChange();
    const skip = version - message.v;
    let steps = message.ds.slice(skip).map((json) => Step.fromJSON(schema, json));
    let cids = message.cids.slice(skip);
    const answer = this.catchUpAsked;
    this.catchUpAsked = false;
    let divergence: Divergence | null = null;
    if (answer) {
      // The answer to our catch-up. Our committed steps lead it when the server took them at the
      // version they were made on; a diff it rebased (the transport resends an unanswered one
      // after a reconnect, before our catch_up) comes after the others' steps committed before
      // it. Everything up to our last committed step is taken as the server committed it, run by
      // run (collab confirms by count, and only a leading run of ours), before the rest of the
      // queue is folded and rebased once over what follows. After a restore, only as many as the
      // restored queue holds are the head of our queue: its save may be older than what the
      // server has of ours (the page was left before its last save was written), and those later
      // steps come in as anyone's.
      const restored = this.restoredQueue;
      this.restoredQueue = null;
      if (restored !== null) {
        let mine = 0;
        cids = cids.map((cid) => (cid === this.clientId && mine++ >= restored ? EARLIER_PAGE : cid));
      }
      const offline = this.state.doc;
      const localBefore = this.unconfirmed;
      const upTo = cids.lastIndexOf(this.clientId) + 1;
      let remoteBefore = 0;
      let droppedBefore = 0;
      if (upTo) {
        const own = cids.slice(0, upTo).filter((cid) => cid === this.clientId).length;
        remoteBefore = upTo - own;
        this.advanceConfirmed(steps.slice(0, upTo));
        this.mapCarets(this.receiveRuns(steps.slice(0, upTo), cids.slice(0, upTo)));
        // Ours that the others' steps before them left no place for (the server dropped them too).
        droppedBefore = Math.max(0, localBefore - own - this.unconfirmed);
        steps = steps.slice(upTo);
        cids = cids.slice(upTo);
      }
      this.compressQueue();
      const local = this.unconfirmed;
      const remote = remoteBefore + steps.length;
      if (remote && (local || droppedBefore))
        divergence = {
          offline: offline.toJSON(),
          remote,
          local,
          dropped: droppedBefore,
          suggested: false,
        };
      if (!steps.length) {
        if (divergence) this.reportDivergence(divergence);
        this.applyWaitingCarets();
        this.flush();
        this.options.onChange();
        return;
      }
    }
    this.advanceConfirmed(steps);
    if (divergence && this.suggestDivergence(divergence, steps)) return;
    const before = this.unconfirmed;
    const own = cids.filter((cid) => cid === this.clientId).length;
    const maps = this.receiveRuns(steps, cids);
    if (divergence) {
      // Steps whose place the co-authors' changes removed are dropped by the rebase.
      divergence.dropped += Math.max(0, before - this.unconfirmed);
      this.reportDivergence(divergence);
    }
    // Carets were in the old coordinates: move them with the document.
    this.mapCarets(maps);
    // Our in-flight diff was made on an older version: the server will refuse it as stale.
    if (this.inFlight && own) {
      if (own >= this.inFlight.count) this.inFlight = null;
    }
    this.applyWaitingCarets();
    this.flush();
    this.options.onChange();
  }

  /**
   * Applies committed steps (steps and client ids in server order): each run of ours with the
   * others' steps after it in a transaction of its own, because prosemirror-collab takes only a
   * leading run of our steps as the confirmation of our unconfirmed ones; ours after others' in
   * one transaction would be applied a second time, as if another's. Returns the maps the
   * document went through (the carets follow them).
   */
  private receiveRuns(steps: readonly Step[], cids: readonly string[]): StepMap[] {
    const maps: StepMap[] = [];
    let start = 0;
    for (let index = 1; index <= steps.length; index++) {
      if (index < steps.length && !(cids[index] === this.clientId && cids[index - 1] !== this.clientId))
        continue;
      const state = this.state;
      if (!state) break;
      const run = steps.slice(start, index);
      const tr = receiveTransaction(state, run, cids.slice(start, index), { mapSelectionBackward: true });
      this.state = state.apply(tr);
      this.remember(
        getVersion(state),
        run.map((step) => step.getMap()),
      );
      maps.push(...tr.mapping.maps);
      start = index;
    }
    return maps;
  }

  /** Tells the page of a merge that dropped some of our steps or was large. */
  private reportDivergence(divergence: Divergence): void {
    if (divergence.dropped || (divergence.remote > LARGE_DIVERGENCE && divergence.local > LARGE_DIVERGENCE))
      this.options.onDivergence?.(divergence);
  }

  reject(message: RejectDiffMessage): void {
    const diff = this.sent.get(message.rid);
    this.sent.delete(message.rid);
    if (!this.inFlight || this.inFlight.rid !== message.rid) return;
    this.inFlight = null;
    const schedule = this.options.schedule ?? setTimeout;
    if (message.reason === 'stale') {
      // The missing steps arrived just before and collab rebased ours over them: send again. If
      // none arrived (we ignored them after a gap), ask for them rather than send the same again.
      if (diff && diff.v === this.version) {
        this.catchUpTo = this.version + 1;
        this.catchUpAsked = !this.inFlight && [...this.sent.values()].every((d) => d.v < this.version);
        this.options.send({ type: 'catch_up', v: this.version });
      } else this.flush();
    } else if (message.reason === 'flood') {
      schedule(() => this.flush(), 2000);
    } else {
      // Sending the same steps again would be refused again: keep them on screen, stop, tell.
      this.refused = message.reason;
      this.options.onRefused?.(message.reason);
    }
    this.options.onChange();
  }

  receiveCaret(message: ServerCaretMessage): void {
    if (!this.state || message.session_id === this.clientId) return;
    const version = getVersion(this.state);
    if (message.v > version) {
      this.waitingCarets.push(message);
      return;
    }
    let { anchor, head } = message;
    for (let v = message.v; v < version; v++) {
      const map = this.maps.get(v);
      if (!map) return; // Too old to place: the next caret message will do.
      anchor = map.map(anchor);
      head = map.map(head);
    }
    // Positions so far are in the confirmed document; our unconfirmed steps come on top.
    for (const step of sendableSteps(this.state)?.steps ?? []) {
      anchor = step.getMap().map(anchor);
      head = step.getMap().map(head);
    }
    const size = this.state.doc.content.size;
    this.carets.set(message.session_id, {
      sessionId: message.session_id,
      userId: message.id,
      anchor: Math.min(anchor, size),
      head: Math.min(head, size),
    });
    this.options.onChange();
  }

  /** Forgets carets of editors that left. */
  keepCarets(sessionIds: readonly string[]): void {
    for (const id of [...this.carets.keys()]) if (!sessionIds.includes(id)) this.carets.delete(id);
    this.options.onChange();
  }

  /** Our caret in server coordinates: only sent when nothing is unconfirmed (positions would be ours alone). */
  caretMessage(): DocumentClientMessage | null {
    if (!this.state || this.unconfirmed) return null;
    const { anchor, head } = this.state.selection;
    return { type: 'caret', v: getVersion(this.state), anchor, head };
  }

  /**
   * Folds our unconfirmed steps with Step.merge (see compressSteps). Only while nothing of ours
   * can still be committed unseen: collab confirms our steps by count, so the queue must keep its
   * shape while a diff is out. The document stays the same; undo history of the folded steps goes.
   */
  private compressQueue(): void {
    if (!this.state || !this.confirmedDoc || this.inFlight || this.options.compress === false) return;
    const sendable = sendableSteps(this.state);
    if (!sendable || sendable.steps.length <= COMPRESS_ABOVE) return;
    const folded = compressSteps(sendable.steps);
    if (folded.length === sendable.steps.length) return;
    const base = EditorState.create({
      doc: this.confirmedDoc,
      plugins: [
        ...this.options.plugins(this.clientId),
        collab({ version: sendable.version, clientID: this.clientId }),
      ],
    });
    const tr = base.tr;
    for (const step of folded) if (tr.maybeStep(step).failed) return; // never expected: keep the queue as it was
    if (!tr.doc.eq(this.state.doc)) return;
    tr.setSelection(Selection.fromJSON(tr.doc, this.state.selection.toJSON()));
    tr.setMeta('addToHistory', false);
    this.sent.clear();
    this.state = base.apply(tr);
  }

  /**
   * After the co-authors' `remote` steps (already confirmed) and a large divergence, or one the
   * rebase cannot wholly place: starts again from their version with our offline work on top as
   * our suggestions. False when it does not apply (small, or nobody to suggest as): merge then.
   */
  private suggestDivergence(divergence: Divergence, remote: readonly Step[]): boolean {
    const author = this.options.author?.();
    const state = this.state;
    const sendable = state && sendableSteps(state);
    if (!author || !state || !sendable || !this.confirmedDoc) return false;
    const large = divergence.remote > LARGE_DIVERGENCE && divergence.local > LARGE_DIVERGENCE;
    const laying = new Transform(this.confirmedDoc);
    const laid = suggestOfflineWork(laying, state.doc, sendable.steps, remote, author, state.selection.head);
    // A small divergence that places everything is merged as usual (undo history kept).
    if (!large && !laid.dropped) return false;
    const base = EditorState.create({
      doc: this.confirmedDoc,
      plugins: [
        ...this.options.plugins(this.clientId),
        collab({ version: sendable.version + remote.length, clientID: this.clientId }),
      ],
    });
    const tr = base.tr;
    for (const step of laying.steps) tr.step(step);
    tr.setSelection(TextSelection.near(tr.doc.resolve(laid.head)));
    tr.setMeta('addToHistory', false);
    // Every diff we sent is in the catch-up's answer or never will be (see catchUpAsked).
    this.sent.clear();
    this.inFlight = null;
    this.state = base.apply(tr);
    this.remember(
      sendable.version,
      remote.map((step) => step.getMap()),
    );
    // Their carets were placed in our offline document: they come again with the next move.
    this.carets.clear();
    this.options.onDivergence?.({ ...divergence, dropped: laid.dropped, suggested: true });
    this.applyWaitingCarets();
    this.flush();
    this.options.onChange();
    return true;
  }

  /** A new confirmed document, not derived from the saved one by steps. */
  private setConfirmed(doc: PMNode | null): void {
    this.confirmedDoc = doc;
    this.savedBase = null;
  }

  private advanceConfirmed(steps: readonly Step[]): void {
    let doc = this.confirmedDoc;
    if (!doc) return;
    for (const step of steps) {
      const result = step.apply(doc);
      if (!result.doc) {
        // Cannot happen for steps the server committed; without a base, nothing is saved.
        this.setConfirmed(null);
        return;
      }
      doc = result.doc;
    }
    this.confirmedDoc = doc;
    const base = this.savedBase;
    if (base && base.confirmed.length + steps.length <= confirmedStepsKept(doc))
      for (const step of steps) base.confirmed.push(this.toJson(step));
    else this.savedBase = null;
  }

  private toJson(step: Step): StepJson {
    const known = this.stepJson.get(step);
    if (known !== undefined) return known;
    const json: StepJson = step.toJSON();
    this.stepJson.set(step, json);
    return json;
  }

  /** Keeps the map of each step under the version it leads from (a caret may name any of them). */
  private remember(version: number, maps: StepMap[]): void {
    maps.forEach((map, index) => {
      this.maps.set(version + index, map);
      this.maps.delete(version + index - MAP_HISTORY);
    });
  }

  private mapCarets(maps: readonly StepMap[]): void {
    for (const caret of this.carets.values()) {
      for (const map of maps) {
        caret.anchor = map.map(caret.anchor);
        caret.head = map.map(caret.head);
      }
    }
  }

  private applyWaitingCarets(): void {
    const ready = this.waitingCarets.filter((caret) => caret.v <= this.version);
    if (!ready.length) return;
    this.waitingCarets.splice(
      0,
      this.waitingCarets.length,
      ...this.waitingCarets.filter((c) => c.v > this.version),
    );
    for (const caret of ready) this.receiveCaret(caret);
  }
}

/** The confirmed document of a saved session, at its `version` (its confirmed steps applied). */
export function savedDocument(saved: SavedSession): PMNode {
  let doc = PMNode.fromJSON(schema, saved.doc);
  for (const json of saved.confirmed ?? []) {
    const result = Step.fromJSON(schema, json).apply(doc);
    if (!result.doc) throw new Error(`saved session ${saved.clientId}: a confirmed step does not apply`);
    doc = result.doc;
  }
  return doc;
}
