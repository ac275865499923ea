import { DocumentConnector } from '@scriptorium/common/collab/document-connector';
import { schema } from '@scriptorium/common/editor/schema';
import type { ConnectorTiming } from '@scriptorium/common/ws/connector';
import type {
  ClientDiffMessage,
  DocDataMessage,
  DocumentServerMessage,
  RejectReason,
} from '@scriptorium/common/ws/document-messages';
import type { ReviewClientMessage } from '@scriptorium/common/ws/review-messages';
import { collab, getVersion, receiveTransaction, sendableSteps } from 'prosemirror-collab';
import { EditorState, type Transaction } from 'prosemirror-state';
import { Step } from 'prosemirror-transform';
import { nodeSocketFactory } from './node-socket';

export type DiffAnswer =
  | { type: 'confirm_diff'; rid: number; v: number; base?: number }
  | { type: 'reject_diff'; rid: number; reason: RejectReason };

/** A review message without its rid (the client numbers it). */
export type ReviewRequest = ReviewClientMessage extends infer M
  ? M extends unknown
    ? Omit<M, 'rid'>
    : never
  : never;

export interface DocumentClientOptions {
  /** ws_url_base as the browser has it, absolute here: 'ws://127.0.0.1:8000/ws'. */
  wsUrlBase: string;
  documentId: number;
  /** The session cookie and the page's Origin, as a browser would send them. */
  headers: Record<string, string>;
  timing?: Partial<ConnectorTiming>;
  /** Names the editor across its sockets (stable over reconnects); random by default. */
  sessionId?: string;
  onAccessDenied?(): void;
  /** This many of the oldest unconfirmed local steps were just confirmed (benchmarks time them). */
  onConfirmed?(steps: number): void;
}

/**
 * An editor of one document in Node, for API tests and benchmarks: the browser's connector on the
 * document endpoint, with prosemirror-collab keeping the confirmed version and the unconfirmed
 * steps exactly as the browser editor does (one diff in flight, rebase on incoming steps).
 */
export class DocumentClient {
  readonly connector: DocumentConnector;
  /** Every server application message, in order. */
  readonly messages: DocumentServerMessage[] = [];
  state: EditorState | null = null;
  docData: DocDataMessage | null = null;
  accessDenied = false;
  private nextRid = 1;
  /** After doc_data on a kept state: the version to reach (by catch_up) before sending. */
  private catchUpTo = 0;
  /** The version the diff in flight was made on. */
  private lastSentVersion = -1;
  /** The diff whose answer lets the next one go. */
  private inFlight: number | null = null;
  /** Why the server refused the last diff of edit() that it did not take (not 'stale'). */
  refused: RejectReason | null = null;
  /** Every diff sent by edit() and not answered yet (some may be answered after a reconnect). */
  private readonly sent = new Set<number>();
  private readonly waiters = new Map<number, (answer: DiffAnswer) => void>();
  private readonly listeners = new Set<(message: DocumentServerMessage) => void>();

  private readonly onConfirmed?: (steps: number) => void;
  /** prosemirror-collab's client id: the session id of the first doc_data. */
  private clientId = '';

  constructor(options: DocumentClientOptions) {
    this.onConfirmed = options.onConfirmed;
    this.connector = new DocumentConnector({
      wsUrlBase: options.wsUrlBase,
      documentId: options.documentId,
      createSocket: nodeSocketFactory(options.headers),
      onMessage: (message) => this.receive(message),
      onAccessDenied: () => {
        this.accessDenied = true;
        options.onAccessDenied?.();
      },
      isOnline: () => true,
      events: new EventTarget(),
      timing: options.timing,
      sessionId: options.sessionId,
    });
  }

  /** Opens the socket; resolves with the first doc_data. */
  open(): Promise<DocDataMessage> {
    const data = this.next((message): message is DocDataMessage => message.type === 'doc_data');
    this.connector.open();
    return data;
  }

  close(): void {
    this.connector.close();
  }

  get version(): number {
    return this.state ? getVersion(this.state) : -1;
  }

  get unconfirmed(): number {
    return this.state ? (sendableSteps(this.state)?.steps.length ?? 0) : 0;
  }

  /** Makes an edit locally and sends it (when no diff is in flight). */
  edit(change: (tr: Transaction) => void): void {
    if (!this.state) throw new Error('no document yet');
    const tr = this.state.tr;
    change(tr);
    this.state = this.state.apply(tr);
    this.flush();
  }

  /** Sends a diff as it is, bypassing prosemirror-collab (bad input, benchmarks); resolves with its answer. */
  sendRaw(diff: Omit<ClientDiffMessage, 'type' | 'rid'> & { rid?: number }): Promise<DiffAnswer> {
    const rid = diff.rid ?? this.nextRid++;
    const answer = new Promise<DiffAnswer>((resolve) => this.waiters.set(rid, resolve));
    this.connector.send({
      type: 'diff',
      v: diff.v,
      rid,
      ds: diff.ds,
      ...(diff.rebase ? { rebase: true } : {}),
    });
    return answer;
  }

  /** Sends a review request (comments, revisions); resolves with the answer to its rid. */
  review(message: ReviewRequest): Promise<DocumentServerMessage> {
    const rid = this.nextRid++;
    const answer = this.next(
      (m) => (m.type === 'review_answer' || m.type === 'revisions' || m.type === 'revision') && m.rid === rid,
    );
    const request: ReviewClientMessage = { ...message, rid };
    this.connector.send(request);
    return answer;
  }

  /** Resolves with the next server message that `match` accepts (including one already here). */
  next<T extends DocumentServerMessage>(match: (message: DocumentServerMessage) => message is T): Promise<T>;
  next(match: (message: DocumentServerMessage) => boolean): Promise<DocumentServerMessage>;
  next(match: (message: DocumentServerMessage) => boolean): Promise<DocumentServerMessage> {
    return new Promise((resolve) => {
      const listener = (message: DocumentServerMessage) => {
        if (!match(message)) return;
        this.listeners.delete(listener);
        resolve(message);
      };
      this.listeners.add(listener);
    });
  }

  /**
   * Resolves once every local step is confirmed; fails when the server refused a diff of edit()
   * for another reason than 'stale' (it is not sent again, so it would never be confirmed).
   */
  async settled(): Promise<void> {
    while (this.unconfirmed > 0 || this.inFlight !== null) {
      if (this.refused) throw new Error(`the server refused a diff: ${this.refused}`);
      await this.next((message) => message.type === 'confirm_diff' || message.type === 'reject_diff');
    }
  }

  private flush(): void {
    if (!this.state || this.inFlight !== null || getVersion(this.state) < this.catchUpTo) return;
    const sendable = sendableSteps(this.state);
    if (!sendable) return;
    const rid = this.nextRid++;
    this.inFlight = rid;
    this.lastSentVersion = sendable.version;
    this.sent.add(rid);
    this.connector.send({
      type: 'diff',
      v: sendable.version,
      rid,
      ds: sendable.steps.map((step) => step.toJSON()),
      rebase: true,
    });
  }

  private receive(message: DocumentServerMessage): void {
    this.messages.push(message);
    switch (message.type) {
      case 'doc_data': {
        this.docData = message;
        // A client that has a state keeps it (as the browser does) and asks for the steps after
        // its version; its own committed steps come first in them and collab confirms them.
        if (this.state && getVersion(this.state) <= message.doc.v) {
          this.catchUpTo = message.doc.v;
          if (getVersion(this.state) < message.doc.v)
            this.connector.send({ type: 'catch_up', v: getVersion(this.state) });
        } else {
          this.state = EditorState.create({
            doc: schema.nodeFromJSON(message.doc.content),
            plugins: [collab({ version: message.doc.v, clientID: message.session_id })],
          });
          this.clientId = message.session_id;
        }
        // What was in flight may have died with the old server process: its answer, if any, is
        // still taken (sent); the rest goes once caught up.
        this.inFlight = null;
        this.flush();
        break;
      }
      case 'diff':
        if (this.state) {
          // Server order: what overlaps our version we hold already; a gap is filled by catch_up.
          const version = getVersion(this.state);
          if (message.v <= version && message.v + message.ds.length > version) {
            const skip = version - message.v;
            const steps = message.ds.slice(skip).map((json) => Step.fromJSON(schema, json));
            const cids = message.cids.slice(skip);
            // prosemirror-collab takes only a leading run of our own steps as confirmations. A
            // diff of ours the server rebased (after a reconnect: committed behind others' steps)
            // comes after them in a catch_up: taken in one go it was applied a second time, as if
            // another's. One transaction per run of ours and the others' steps after it.
            const own = this.clientId;
            let start = 0;
            for (let index = 1; index <= steps.length; index++) {
              if (index < steps.length && !(cids[index] === own && cids[index - 1] !== own)) continue;
              this.state = this.state.apply(
                receiveTransaction(this.state, steps.slice(start, index), cids.slice(start, index)),
              );
              start = index;
            }
            this.flush();
          }
        }
        break;
      case 'confirm_diff':
        // Also the answer to a diff sent before a reconnect (the transport resent it): the
        // version says how many of the unconfirmed steps it took.
        if (this.state && this.sent.delete(message.rid)) {
          const sendable = sendableSteps(this.state);
          // A rebased confirmation names the version it was committed on: the steps sent before it
          // brought us there (and rebased ours as the server did), unless we ignored them after a
          // gap, when catch_up brings our committed steps back instead.
          const onBase = message.base === undefined || message.base === sendable?.version;
          if (sendable && onBase && message.v > sendable.version) {
            const mine = sendable.steps.slice(0, message.v - sendable.version);
            this.onConfirmed?.(mine.length);
            this.state = this.state.apply(
              receiveTransaction(
                this.state,
                mine,
                mine.map(() => sendable.clientID),
              ),
            );
          }
          if (message.rid === this.inFlight) {
            this.inFlight = null;
            this.flush();
          }
        }
        break;
      case 'reject_diff':
        this.sent.delete(message.rid);
        if (message.rid === this.inFlight) {
          this.inFlight = null;
          if (message.reason !== 'stale') this.refused = message.reason;
          // 'stale': the missing steps came first and were rebased over; send again. None came
          // (ignored after a gap): ask for them.
          if (message.reason === 'stale') {
            const sendable = this.state ? sendableSteps(this.state) : null;
            if (this.state && sendable && this.lastSentVersion === getVersion(this.state)) {
              this.catchUpTo = getVersion(this.state) + 1;
              this.connector.send({ type: 'catch_up', v: getVersion(this.state) });
            } else this.flush();
          }
        }
        break;
    }
    if (message.type === 'confirm_diff' || message.type === 'reject_diff') {
      this.waiters.get(message.rid)?.(message);
      this.waiters.delete(message.rid);
    }
    for (const listener of [...this.listeners]) listener(message);
  }
}
