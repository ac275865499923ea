import { schema } from '@scriptorium/common/editor/schema';
import type {
  ConfirmDiffMessage,
  DocDataMessage,
  DocumentClientMessage,
  RejectDiffMessage,
  RejectReason,
  ServerCaretMessage,
  ServerDiffMessage,
} from '@scriptorium/common/ws/document-messages';
import { collab, getVersion, receiveTransaction, sendableSteps } from 'prosemirror-collab';
import { Node as PMNode } from 'prosemirror-model';
import { EditorState, type Plugin, Selection, type Transaction } from 'prosemirror-state';
import { Step, type StepMap } from 'prosemirror-transform';

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
  /** Waits before sending again after a 'flood' refusal; setTimeout by default. */
  schedule?(callback: () => void, ms: number): void;
}

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
  /** After doc_data on a kept state: the version to reach (by catch_up) before sending. */
  private catchUpTo = 0;
  /** Step maps by the version they lead from, to bring late carets up to date. */
  private readonly maps = new Map<number, StepMap[]>();
  private readonly waitingCarets: ServerCaretMessage[] = [];

  constructor(private readonly options: CollabSessionOptions) {}

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
    const previous = this.state;
    this.inFlight = null;
    if (previous && this.clientId === message.session_id && getVersion(previous) <= message.doc.v) {
      this.catchUpTo = message.doc.v;
      if (getVersion(previous) < message.doc.v)
        this.options.send({ type: 'catch_up', v: getVersion(previous) });
      this.flush();
      this.options.onChange();
      return { lost: 0 };
    }
    const doc = PMNode.fromJSON(schema, message.doc.content);
    const pending = previous ? sendableSteps(previous) : null;
    this.clientId = message.session_id;
    this.sent.clear();
    this.catchUpTo = 0;
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

  /** A local transaction from the view (typing, a command, a nested footnote editor). */
  apply(tr: Transaction): void {
    if (!this.state) return;
    const before = this.state;
    this.state = before.apply(tr);
    if (tr.docChanged) this.mapCarets(tr.mapping.maps);
    this.flush();
    this.options.onChange();
  }

  /**
   * Sends the unconfirmed steps, unless a diff is on its way already, sending was stopped, or a
   * catch-up is still missing steps (a diff on an older version would only come back stale).
   */
  flush(): void {
    if (!this.state || this.inFlight || this.refused) return;
    if (getVersion(this.state) < this.catchUpTo) return;
    const sendable = sendableSteps(this.state);
    if (!sendable) return;
    const rid = this.nextRid++;
    this.inFlight = { rid, v: sendable.version, count: sendable.steps.length };
    this.sent.set(rid, this.inFlight);
    this.options.send({
      type: 'diff',
      v: sendable.version,
      rid,
      ds: sendable.steps.map((step) => step.toJSON()),
    });
  }

  confirm(message: ConfirmDiffMessage): void {
    const diff = this.sent.get(message.rid);
    this.sent.delete(message.rid);
    if (!this.state || !diff) return;
    if (this.inFlight?.rid === message.rid) this.inFlight = null;
    const startVersion = getVersion(this.state);
    const sendable = sendableSteps(this.state);
    // Made on an older version: its steps already came back (relayed) and were confirmed then.
    if (diff.v === startVersion && sendable && sendable.steps.length >= diff.count) {
      const steps = sendable.steps.slice(0, diff.count);
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
    const skip = version - message.v;
    const steps = message.ds.slice(skip).map((json) => Step.fromJSON(schema, json));
    const cids = message.cids.slice(skip);
    const tr = receiveTransaction(this.state, steps, cids, { mapSelectionBackward: true });
    this.state = this.state.apply(tr);
    this.remember(
      version,
      steps.map((step) => step.getMap()),
    );
    // Carets were in the old coordinates: move them with the document.
    this.mapCarets(tr.mapping.maps);
    // Our in-flight diff was made on an older version: the server will refuse it as stale.
    if (this.inFlight && cids.includes(this.clientId)) {
      const own = cids.filter((cid) => cid === this.clientId).length;
      if (own >= this.inFlight.count) this.inFlight = null;
    }
    this.applyWaitingCarets();
    this.flush();
    this.options.onChange();
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
      const maps = this.maps.get(v);
      if (!maps) return; // Too old to place: the next caret message will do.
      for (const map of maps) {
        anchor = map.map(anchor);
        head = map.map(head);
      }
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

  private remember(version: number, maps: StepMap[]): void {
    this.maps.set(version, maps);
    this.maps.delete(version - MAP_HISTORY);
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
