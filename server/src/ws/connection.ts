import { type AppFrame, type AppMessage, type Frame, parseFrame } from '@scriptorium/common/ws/messages';
import type { TransportTiming } from '@scriptorium/common/ws/timing';
import { Transport } from '@scriptorium/common/ws/transport';
import type { RawData, WebSocket } from 'ws';
import type { ZodType } from 'zod';
import { countedFrame } from './frame-text';
import type { ConnectionRegistry, RegisteredConnection } from './registry';

/** Close codes (RFC 6455) and our reasons; a reason must stay under 123 bytes. */
export const CLOSE_NORMAL = 1000;
export const CLOSE_UNSUPPORTED_DATA = 1003;
export const CLOSE_POLICY_VIOLATION = 1008;
/** The server is stopping: the client reconnects as after any other loss. */
export const CLOSE_GOING_AWAY = 1001;

export interface ConnectionOptions {
  userId: number;
  /** The endpoint and id ('base', 'document/12'): sessions are kept apart per scope. */
  scope?: string;
  /** Hash of the login session the socket was admitted with: ending that session denies it. */
  sessionHash?: string | null;
  registry: ConnectionRegistry;
  /** Schemas of the client's application messages on this endpoint (none on /base/). */
  clientMessages: Readonly<Record<string, ZodType<AppMessage>>>;
  /** Handles a client application message, in order and once. */
  onMessage?(connection: ServerConnection, message: AppFrame): void;
  /** The handshake is complete; `resumed` when the subscribe picked up a session this process held. */
  onOpened?(connection: ServerConnection, resumed: boolean): void;
  /** The socket is gone (closed by either side). */
  onClosed?(connection: ServerConnection): void;
  timing?: Partial<TransportTiming>;
  log?(message: string, details?: Record<string, unknown>): void;
}

function truncateReason(reason: string): string {
  const bytes = Buffer.from(reason);
  return bytes.length <= 123
    ? reason
    : bytes
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
}

/** The server end of one authenticated socket: the shared transport driven by a real ws socket. */
export class ServerConnection implements RegisteredConnection {
  readonly userId: number;
  readonly scope: string;
  readonly sessionHash: string | null;
  private readonly transport: Transport;
  private resumed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt: number | null = null;
  private seen = Date.now();
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: ConnectionOptions,
  ) {
    this.userId = options.userId;
    this.scope = options.scope ?? 'base';
    this.sessionHash = options.sessionHash ?? null;
    this.transport = new Transport({
      role: 'server',
      timing: options.timing,
      hooks: {
        write: (frame: Frame) => this.write(frame),
        writeCounted: (body, counters) => this.writeFrame(countedFrame(body, counters)),
        deliver: (message) => this.options.onMessage?.(this, message),
        subscribe: (frame) => {
          this.resumed = this.options.registry.holds(this, frame);
          return this.options.registry.attach(this, frame);
        },
        opened: () => this.options.onOpened?.(this, this.resumed),
        broken: (reason) => this.close(CLOSE_POLICY_VIOLATION, reason),
      },
    });
  }

  /** The transport session (named by the client's subscribe, or made up for a plain one). */
  get sessionId(): string | null {
    return this.transport.sessionState?.id ?? null;
  }

  get lastSeen(): number {
    return this.seen;
  }

  get isOpen(): boolean {
    return this.transport.isOpen && !this.closed;
  }

  /** Greets the client and starts listening. */
  start(): void {
    this.options.registry.add(this);
    this.socket.on('message', (data, isBinary) => this.received(data, isBinary));
    this.socket.on('close', () => this.closedByPeer());
    this.transport.start(Date.now());
    this.schedule();
  }

  send(message: AppMessage): void {
    if (this.closed) return;
    this.transport.send(message, Date.now());
    this.schedule();
  }

  supersede(reason: string): void {
    this.close(CLOSE_NORMAL, reason);
  }

  terminate(): void {
    this.detach();
    this.socket.terminate();
  }

  /** The login behind this socket has ended: access_denied with the current counters, then close. */
  deny(): void {
    if (this.closed) return;
    const { sent, received } = this.transport.stats;
    this.write({ type: 'access_denied', c: received, s: sent });
    // Nothing more may be queued for a session whose access is gone.
    const sessionId = this.sessionId;
    if (sessionId) this.options.registry.forget(this, sessionId);
    this.close(CLOSE_POLICY_VIOLATION, 'access denied');
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.detach();
    this.socket.close(code, truncateReason(reason));
  }

  private write(frame: Frame): void {
    this.writeFrame(JSON.stringify(frame));
  }

  /** A serialised frame; a Buffer holds UTF-8 text and goes as a text frame. */
  private writeFrame(frame: string | Buffer): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(frame, { binary: false });
  }

  private received(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    this.seen = Date.now();
    if (isBinary) {
      this.close(CLOSE_UNSUPPORTED_DATA, 'binary frames are not accepted');
      return;
    }
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Buffer.from(new Uint8Array(data)).toString('utf8');
    const parsed = parseFrame(text, 'client', this.options.clientMessages);
    if (!parsed.ok) {
      this.options.log?.('websocket frame refused', { userId: this.userId, reason: parsed.reason });
      this.close(CLOSE_POLICY_VIOLATION, parsed.reason);
      return;
    }
    this.transport.receive(parsed.frame, Date.now());
    this.schedule();
  }

  private closedByPeer(): void {
    this.detach();
  }

  /** Out of the registry, transport and timer stopped; the session waits for the client. */
  private detach(): void {
    if (this.closed) return;
    this.closed = true;
    this.transport.close();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.options.registry.remove(this);
    this.options.onClosed?.(this);
  }

  /** One timer per socket, for the transport's next deadline (acknowledgement, throttle step). */
  private schedule(): void {
    const deadline = this.closed ? null : this.transport.nextDeadline();
    if (deadline === this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = deadline;
    if (deadline === null) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = null;
        this.transport.tick(Date.now());
        this.schedule();
      },
      Math.max(0, Math.ceil(deadline - Date.now())),
    );
  }
}
