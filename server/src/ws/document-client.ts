import { schema } from '@scriptorium/common/editor/schema';
import { type ConnectorTiming, WebSocketConnector } from '@scriptorium/common/ws/connector';
import {
  type ClientDiffMessage,
  DOCUMENT_SERVER_APP_SCHEMAS,
  type DocDataMessage,
  type DocumentServerMessage,
  documentServerMessage,
  documentSocketPath,
  type RejectReason,
} from '@scriptorium/common/ws/document-messages';
import { collab, getVersion, receiveTransaction, sendableSteps } from 'prosemirror-collab';
import { EditorState, type Transaction } from 'prosemirror-state';
import { Step } from 'prosemirror-transform';
import { nodeSocketFactory } from './node-socket';

export type DiffAnswer =
  | { type: 'confirm_diff'; rid: number; v: number }
  | { type: 'reject_diff'; rid: number; reason: RejectReason };

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
}

/**
 * An editor of one document in Node, for API tests and benchmarks: the browser's connector on the
 * document endpoint, with prosemirror-collab keeping the confirmed version and the unconfirmed
 * steps exactly as the browser editor does (one diff in flight, rebase on incoming steps).
 */
export class DocumentClient {
  readonly connector: WebSocketConnector;
  /** Every server application message, in order. */
  readonly messages: DocumentServerMessage[] = [];
  state: EditorState | null = null;
  docData: DocDataMessage | null = null;
  accessDenied = false;
  private nextRid = 1;
  private inFlight: number | null = null;
  private readonly waiters = new Map<number, (answer: DiffAnswer) => void>();
  private readonly listeners = new Set<(message: DocumentServerMessage) => void>();

  constructor(options: DocumentClientOptions) {
    this.connector = new WebSocketConnector({
      wsUrlBase: options.wsUrlBase,
      path: documentSocketPath(options.documentId),
      createSocket: nodeSocketFactory(options.headers),
      serverMessages: DOCUMENT_SERVER_APP_SCHEMAS,
      onMessage: (frame) => this.receive(documentServerMessage.parse(frame)),
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
    this.connector.send({ type: 'diff', v: diff.v, rid, ds: diff.ds });
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

  /** Resolves once every local step is confirmed. */
  async settled(): Promise<void> {
    while (this.unconfirmed > 0 || this.inFlight !== null)
      await this.next((message) => message.type === 'confirm_diff' || message.type === 'reject_diff');
  }

  private flush(): void {
    if (!this.state || this.inFlight !== null) return;
    const sendable = sendableSteps(this.state);
    if (!sendable) return;
    const rid = this.nextRid++;
    this.inFlight = rid;
    this.connector.send({
      type: 'diff',
      v: sendable.version,
      rid,
      ds: sendable.steps.map((step) => step.toJSON()),
    });
  }

  private receive(message: DocumentServerMessage): void {
    this.messages.push(message);
    switch (message.type) {
      case 'doc_data': {
        const unconfirmed = this.state ? sendableSteps(this.state) : null;
        this.docData = message;
        // A client with unconfirmed steps keeps them and sends them again; otherwise it takes the
        // server's document as it is.
        if (!unconfirmed) {
          this.state = EditorState.create({
            doc: schema.nodeFromJSON(message.doc.content),
            plugins: [collab({ version: message.doc.v, clientID: message.session_id })],
          });
        }
        this.inFlight = null;
        this.flush();
        break;
      }
      case 'diff':
        if (this.state) {
          const steps = message.ds.map((json) => Step.fromJSON(schema, json));
          this.state = this.state.apply(receiveTransaction(this.state, steps, message.cids));
        }
        break;
      case 'confirm_diff':
        if (this.state && message.rid === this.inFlight) {
          const sendable = sendableSteps(this.state);
          if (sendable) {
            const mine = sendable.steps.slice(0, message.v - sendable.version);
            this.state = this.state.apply(
              receiveTransaction(
                this.state,
                mine,
                mine.map(() => sendable.clientID),
              ),
            );
          }
          this.inFlight = null;
          this.flush();
        }
        break;
      case 'reject_diff':
        if (message.rid === this.inFlight) {
          this.inFlight = null;
          // 'stale': the missing steps came first and were rebased over; send again.
          if (message.reason === 'stale') this.flush();
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
