import { type ConnectionStatus, WebSocketConnector, type WebSocketConnectorOptions } from '../ws/connector';
import {
  DOCUMENT_SERVER_APP_SCHEMAS,
  type DocumentClientMessage,
  type DocumentServerMessage,
  documentSocketPath,
} from '../ws/document-messages';
import type { Counters } from '../ws/messages';

/**
 * The client end of a document socket (${ws_url_base}/document/<id>/), shared by the browser's
 * editor (web/src/pages/editor/document-connection.ts) and the Node editor of the tests and
 * benchmarks (server/src/ws/document-client.ts).
 *
 * Each server frame is read once, where the transport reads it: DOCUMENT_SERVER_APP_SCHEMAS turns
 * it into one of the DocumentServerMessage union, or refuses it (the socket is then given up and
 * a fresh one opened, as for any protocol error). The handler gets that message, typed: a switch
 * on `type` narrows it, with no second parse and no cast. What goes out is a DocumentClientMessage.
 */
export interface DocumentConnectorOptions
  extends Omit<WebSocketConnectorOptions<DocumentServerMessage>, 'path' | 'serverMessages' | 'onMessage'> {
  documentId: number;
  /** One server message of the document, in order and once. */
  onMessage(message: DocumentServerMessage): void;
}

export class DocumentConnector {
  private readonly connector: WebSocketConnector<DocumentServerMessage>;

  constructor(options: DocumentConnectorOptions) {
    const { documentId, onMessage, ...rest } = options;
    this.connector = new WebSocketConnector({
      ...rest,
      path: documentSocketPath(documentId),
      serverMessages: DOCUMENT_SERVER_APP_SCHEMAS,
      onMessage: (frame) => onMessage(withoutCounters(frame)),
    });
  }

  get status(): ConnectionStatus {
    return this.connector.status;
  }

  /** The address the next socket goes to. */
  get currentUrl(): string {
    return this.connector.currentUrl;
  }

  open(): void {
    this.connector.open();
  }

  /** Stops for good (leaving the page, a lost right). */
  close(): void {
    this.connector.close();
  }

  /** Sends now, or once a socket is subscribed (see WebSocketConnector.send). */
  send(message: DocumentClientMessage): void {
    this.connector.send(message);
  }
}

/** The message without the transport's counters (they are the transport's business, not the editor's). */
function withoutCounters(frame: DocumentServerMessage & Counters): DocumentServerMessage {
  const message: DocumentServerMessage & Partial<Counters> = { ...frame };
  delete message.c;
  delete message.s;
  return message;
}
