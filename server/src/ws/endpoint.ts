import type { AppMessage } from '@scriptorium/common/ws/messages';
import type { ZodType } from 'zod';
import type { AppContext } from '../context';
import type { UserRow } from '../db/rows';
import type { ServerConnection } from './connection';
import type { FanOut } from './fan-out';
import type { ConnectionRegistry } from './registry';

/**
 * A websocket endpoint at `${ws_url_base}/<name>/` or `${ws_url_base}/<name>/<id>/`. The plugin
 * (plugin.ts) does what every endpoint needs: the session cookie and the Origin check, the
 * transport (counters, resend, heartbeat, resume), one ordered queue per topic and the fan-out
 * between processes. An endpoint only says who else is admitted and what its messages do.
 *
 * `Client` is the union of the client's application messages, `Server` of the server's, and
 * `Admission` what admit() learned (e.g. the user's right to the document).
 */
export interface WsEndpoint<Client extends AppMessage, Server extends AppMessage, Admission> {
  /** The path segment under ws_url_base. */
  name: string;
  /** Whether the path ends in a positive integer id (`/document/12/`). */
  withId: boolean;
  /** The client's application messages by type; anything else closes the socket. */
  clientMessages: Readonly<Record<string, ZodType<Client>>>;
  /**
   * After the session and Origin were accepted: may this user open it (for this id)? Returning
   * null sends access_denied and closes. Also run again when readmit() asks (rights changed).
   */
  admit(ctx: AppContext, user: UserRow, id: number | null): Promise<Admission | null>;
  /** The socket is subscribed. `resumed`: the session was held by this process (nothing was lost). */
  opened?(socket: EndpointSocket<Server, Admission>, resumed: boolean): Promise<void>;
  /**
   * One client message; messages of one topic run one after the other, in arrival order.
   * `receivedAt` (ms since the epoch) is when it arrived, not when its turn came.
   */
  handle?(socket: EndpointSocket<Server, Admission>, message: Client, receivedAt: number): Promise<void>;
  /** The socket closed; runs in the topic's queue too. */
  closed?(socket: EndpointSocket<Server, Admission>): Promise<void>;
  /**
   * A payload published on one of this endpoint's topics by any process (this one included),
   * while this process has a socket on it; runs in the topic's queue.
   */
  topicMessage?(topic: EndpointTopic<Server>, payload: unknown): Promise<void>;
}

/** What an endpoint may do with one topic (`<name>` or `<name>/<id>`) of this process. */
export interface EndpointTopic<Server extends AppMessage> {
  readonly ctx: AppContext;
  readonly name: string;
  readonly id: number | null;
  /** Sends to this process's sessions on the topic that `filter` picks (default: all). */
  sendLocal(message: Server, filter?: (target: { userId: number; sessionId: string }) => boolean): void;
  /** Hands a payload to every process listening to the topic (this one included). */
  publish(payload: unknown): Promise<void>;
  /** The open sockets of this process on the topic. */
  sockets(): EndpointSocket<Server, unknown>[];
}

/** One admitted socket as an endpoint sees it. */
export interface EndpointSocket<Server extends AppMessage, Admission> {
  readonly user: UserRow;
  readonly id: number | null;
  /** The transport session: stable across the client's reconnections. */
  readonly sessionId: string;
  readonly admission: Admission;
  readonly topic: EndpointTopic<Server>;
  send(message: Server): void;
  /** access_denied, then close. */
  deny(): void;
  /** Closes with a policy-violation code and a reason (under 123 bytes). */
  close(reason: string): void;
  /**
   * What admit() learns now differs from what the socket holds (a right lowered or raised while
   * connected): the socket takes it and is closed with 'access changed', so that its client
   * reconnects at once and is admitted afresh (the document's doc_data names the new right).
   */
  readmitted(admission: Admission): void;
  readonly connection: ServerConnection;
}

/** An endpoint with its message types erased, as the registry holds it. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds endpoints of different message unions
export type AnyWsEndpoint = WsEndpoint<any, any, any>;

/** Declares an endpoint with its types checked (an identity function). */
export function defineWsEndpoint<Client extends AppMessage, Server extends AppMessage, Admission>(
  endpoint: WsEndpoint<Client, Server, Admission>,
): WsEndpoint<Client, Server, Admission> {
  return endpoint;
}

/**
 * Runs tasks one after the other per key, so that a document's messages never overtake each other
 * while different documents proceed side by side. A failing task is reported and the queue goes on.
 */
export class TopicQueue {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  run(key: string, task: () => Promise<void>): Promise<void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(task).catch(this.onError);
    this.tails.set(key, next);
    void next.then(() => {
      if (this.tails.get(key) === next) this.tails.delete(key);
    });
    return next;
  }

  /** Resolves once every task queued so far has run (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}

/** The live-connection machinery an endpoint's topic is built on. */
export interface EndpointRuntime {
  ctx: AppContext;
  registry: ConnectionRegistry;
  fanOut: FanOut;
  queue: TopicQueue;
}
