import {
  type AppMessage,
  type AppSchemas,
  type Counters,
  type Frame,
  MAX_FRAME_BYTES,
  parseFrame,
} from './messages';
import { type PageLocation, redirectedUrl, socketUrl } from './socket-url';
import { PING_AFTER_SILENCE_MS, PONG_TIMEOUT_MS, RECONNECT_DELAY_MS, type TransportTiming } from './timing';
import { createSession, enqueue, type SessionState, Transport } from './transport';

/**
 * What the connector needs of a socket. The platform's WebSocket is wrapped by nativeSocket();
 * tests hand in fakes, and Node code (tests, benchmarks) a wrapped `ws` client.
 */
export interface SocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed (as WebSocket.readyState). */
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: (() => void) | null;
}

export type SocketFactory = (url: string) => SocketLike;

/**
 * A SocketLike over a WebSocket of some platform, its handlers not set yet: the caller forwards
 * the socket's events to them.
 */
export function socketWrapper(socket: Pick<SocketLike, 'readyState' | 'send' | 'close'>): SocketLike {
  return {
    get readyState() {
      return socket.readyState;
    },
    send: (data) => socket.send(data),
    close: (code, reason) => socket.close(code, reason),
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
  };
}

/** Wraps the platform's WebSocket (the browser's). */
export function nativeSocket(url: string): SocketLike {
  const socket = new WebSocket(url);
  const wrapper = socketWrapper(socket);
  socket.onopen = () => wrapper.onopen?.();
  socket.onmessage = (event) => wrapper.onmessage?.({ data: event.data });
  socket.onclose = (event) => wrapper.onclose?.({ code: event.code, reason: event.reason });
  socket.onerror = () => wrapper.onerror?.();
  return wrapper;
}

export interface ConnectionStatus {
  /** connecting: never subscribed yet; open: subscribed; disconnected: lost, reconnecting (or offline). */
  state: 'connecting' | 'open' | 'disconnected';
  /** Application messages not yet acknowledged by the server. */
  unsent: number;
}

export interface ConnectorTiming extends TransportTiming {
  reconnectMs: number;
  pingAfterMs: number;
  pongTimeoutMs: number;
}

/** `In`: the server's application messages on this endpoint, as `serverMessages` reads them. */
export interface WebSocketConnectorOptions<In extends AppMessage = AppMessage> {
  /** ws_url_base from the configuration: a path ('/ws') or an absolute ws(s):// address. */
  wsUrlBase: string;
  /** The endpoint under it; the app-wide connection is '/base/'. */
  path?: string;
  /** Application messages of the server, in order and once, read by `serverMessages`. */
  onMessage?(message: In & Counters): void;
  /** The failed-auth handler; by default the browser goes to /. */
  onAccessDenied?(): void;
  onStatus?(status: ConnectionStatus): void;
  /**
   * Schemas of the server's application messages on this endpoint (BASE_SERVER_APP_SCHEMAS on
   * /base/): a message none of them reads is a protocol error, and the socket is given up.
   */
  serverMessages: AppSchemas<In>;
  createSocket?: SocketFactory;
  timing?: Partial<ConnectorTiming>;
  /** Page location, online state and its events; the browser's (globalThis) by default. */
  location?: PageLocation;
  isOnline?(): boolean;
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** Names this connector across its sockets; random by default. */
  sessionId?: string;
  now?(): number;
}

/** The close code of a server that stops (RFC 6455 "going away"). */
export const CLOSE_GOING_AWAY = 1001;

function randomSessionId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * One live connection that survives network trouble: it reconnects 2 s after a close, pings after
 * 60 s of silence and gives up on the socket when no pong follows within 10 s, closes when the
 * browser goes offline and reconnects when it comes back. Messages sent while disconnected, or
 * sent but never acknowledged, go out once the next socket is subscribed.
 *
 * It never holds two sockets: the old socket's handlers are detached before the next one opens.
 */
export class WebSocketConnector<In extends AppMessage = AppMessage> {
  private readonly options: WebSocketConnectorOptions<In>;
  private readonly timing: Partial<ConnectorTiming>;
  private readonly session: SessionState;
  private url: string;
  private socket: SocketLike | null = null;
  private transport: Transport<In> | null = null;
  private running = false;
  private state: ConnectionStatus['state'] = 'connecting';
  private lastStatus: ConnectionStatus = { state: 'connecting', unsent: 0 };
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;
  private pongTimer: ReturnType<typeof setTimeout> | null = null;
  private transportTimer: ReturnType<typeof setTimeout> | null = null;
  private transportTimerAt: number | null = null;
  private readonly handleOnline = () => this.wentOnline();
  private readonly handleOffline = () => this.wentOffline();

  constructor(options: WebSocketConnectorOptions<In>) {
    this.options = options;
    this.timing = options.timing ?? {};
    this.session = createSession(options.sessionId ?? randomSessionId());
    this.url = socketUrl(
      options.wsUrlBase,
      options.path ?? '/base/',
      options.location ?? globalThis.location,
    );
  }

  /** The address the next socket goes to (a redirect changes it). */
  get currentUrl(): string {
    return this.url;
  }

  get status(): ConnectionStatus {
    return { state: this.state, unsent: this.session.outbox.length };
  }

  /** Sockets this connector holds right now: 0 or 1. */
  get openSockets(): number {
    return this.socket ? 1 : 0;
  }

  open(): void {
    if (this.running) return;
    this.running = true;
    const events = this.events();
    events?.addEventListener('online', this.handleOnline);
    events?.addEventListener('offline', this.handleOffline);
    if (this.online()) this.connect();
    else this.setState('disconnected');
  }

  /** Stops for good (logout, unmount). */
  close(): void {
    if (!this.running) return;
    this.running = false;
    const events = this.events();
    events?.removeEventListener('online', this.handleOnline);
    events?.removeEventListener('offline', this.handleOffline);
    this.clearTimer('reconnectTimer');
    this.dropSocket();
  }

  /** Sends an application message now, or as soon as a socket is subscribed. */
  send(message: AppMessage): void {
    // The server refuses bigger frames and closes the socket; resending would loop forever.
    if (JSON.stringify(message).length > MAX_FRAME_BYTES - 64)
      throw new Error('Message too large for the live connection');
    if (this.transport && !this.transport.isClosed && this.transport.sessionState) {
      this.transport.send(message, this.now());
      this.scheduleTransport();
    } else {
      enqueue(this.session, message);
    }
    this.emitStatus();
  }

  private events(): WebSocketConnectorOptions<In>['events'] | undefined {
    if (this.options.events) return this.options.events;
    return typeof globalThis.addEventListener === 'function' ? globalThis : undefined;
  }

  private online(): boolean {
    if (this.options.isOnline) return this.options.isOnline();
    return globalThis.navigator?.onLine !== false;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private connect(): void {
    this.clearTimer('reconnectTimer');
    // Detach first: whatever the old socket still does must not reach us.
    this.dropSocket();
    const socket = (this.options.createSocket ?? nativeSocket)(this.url);
    const transport = new Transport<In>({
      role: 'client',
      session: this.session,
      timing: this.timing,
      hooks: {
        write: (frame: Frame) => {
          if (socket.readyState === 1) socket.send(JSON.stringify(frame));
        },
        deliver: (message) => this.options.onMessage?.(message),
        control: (frame) => {
          if (frame.type === 'pong') this.clearTimer('pongTimer');
          else if (frame.type === 'access_denied') this.accessDenied();
          else if (frame.type === 'redirect') this.redirect(frame.base);
        },
        opened: () => this.setState('open'),
        broken: () => this.lost(),
      },
    });
    this.socket = socket;
    this.transport = transport;
    socket.onopen = () => {
      transport.start(this.now());
      this.armSilence();
      this.scheduleTransport();
    };
    socket.onmessage = (event) => this.received(transport, event.data);
    socket.onclose = (event) =>
      // A server that stops (a deploy, SIGTERM) closes as "going away": another process takes
      // us at once. Only from a subscribed socket, so that a refusal loop still waits.
      this.lost(event.code === CLOSE_GOING_AWAY && this.state === 'open');
    socket.onerror = null;
  }

  /** Forgets the current socket: handlers off, transport closed, socket closed. */
  private dropSocket(): void {
    const socket = this.socket;
    this.transport?.close();
    this.transport = null;
    this.socket = null;
    this.clearTimer('silenceTimer');
    this.clearTimer('pongTimer');
    this.clearTimer('transportTimer');
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    if (socket.readyState === 0 || socket.readyState === 1) socket.close(1000);
  }

  private received(transport: Transport<In>, data: unknown): void {
    if (transport !== this.transport) return;
    this.armSilence();
    const parsed =
      typeof data === 'string' ? parseFrame<In>(data, 'server', this.options.serverMessages) : null;
    if (!parsed?.ok) {
      // A server that speaks nonsense gets a fresh socket, not a guess at what it meant.
      this.lost();
      return;
    }
    transport.receive(parsed.frame, this.now());
    this.scheduleTransport();
    this.emitStatus();
  }

  /**
   * The socket closed, failed, stopped answering or broke the protocol: try again in 2 s, or at
   * once when a stopping server sent us away.
   */
  private lost(sentAway = false): void {
    this.dropSocket();
    if (!this.running) return;
    this.setState('disconnected');
    if (this.online() && !this.reconnectTimer) {
      this.reconnectTimer = setTimeout(
        () => {
          this.reconnectTimer = null;
          if (this.running && this.online()) this.connect();
        },
        sentAway ? 0 : (this.timing.reconnectMs ?? RECONNECT_DELAY_MS),
      );
    }
  }

  private accessDenied(): void {
    this.close();
    if (this.options.onAccessDenied) this.options.onAccessDenied();
    else globalThis.location?.assign('/');
  }

  private redirect(base: string): void {
    let target: string;
    try {
      target = redirectedUrl(this.url, base);
    } catch {
      this.lost();
      return;
    }
    // A server that redirects to where we already are would have us reconnect in a tight loop.
    if (target === this.url) {
      this.lost();
      return;
    }
    this.url = target;
    this.connect();
  }

  private wentOffline(): void {
    if (!this.running) return;
    this.clearTimer('reconnectTimer');
    this.dropSocket();
    this.setState('disconnected');
  }

  private wentOnline(): void {
    if (!this.running || this.socket) return;
    this.connect();
  }

  /** Ping after a silence; without a pong in time the socket is given up. */
  private armSilence(): void {
    this.clearTimer('silenceTimer');
    this.silenceTimer = setTimeout(() => {
      this.silenceTimer = null;
      const socket = this.socket;
      if (socket?.readyState !== 1) return;
      socket.send(JSON.stringify({ type: 'ping' }));
      if (!this.pongTimer) {
        this.pongTimer = setTimeout(() => {
          this.pongTimer = null;
          this.lost();
        }, this.timing.pongTimeoutMs ?? PONG_TIMEOUT_MS);
      }
    }, this.timing.pingAfterMs ?? PING_AFTER_SILENCE_MS);
  }

  /** One timer for the transport's next deadline (acknowledgement, throttle step). */
  private scheduleTransport(): void {
    const transport = this.transport;
    const deadline = transport?.nextDeadline() ?? null;
    if (deadline === this.transportTimerAt) return;
    this.clearTimer('transportTimer');
    if (!transport || deadline === null) return;
    this.transportTimerAt = deadline;
    this.transportTimer = setTimeout(
      () => {
        this.transportTimer = null;
        this.transportTimerAt = null;
        if (transport !== this.transport) return;
        transport.tick(this.now());
        this.scheduleTransport();
        this.emitStatus();
      },
      Math.max(0, Math.ceil(deadline - this.now())),
    );
  }

  private clearTimer(name: 'reconnectTimer' | 'silenceTimer' | 'pongTimer' | 'transportTimer'): void {
    const timer = this[name];
    if (timer) clearTimeout(timer);
    this[name] = null;
    if (name === 'transportTimer') this.transportTimerAt = null;
  }

  private setState(state: ConnectionStatus['state']): void {
    this.state = state;
    this.emitStatus();
  }

  private emitStatus(): void {
    const status = this.status;
    if (this.lastStatus && this.lastStatus.state === status.state && this.lastStatus.unsent === status.unsent)
      return;
    this.lastStatus = status;
    this.options.onStatus?.(status);
  }
}
