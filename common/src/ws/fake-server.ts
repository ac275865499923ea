import { z } from 'zod';
import type { SocketLike } from './connector';
import { type AppFrame, type Frame, parseFrame } from './messages';
import { createSession, enqueue, type SessionState, Transport } from './transport';

// Test helpers: fake sockets whose server end runs the real server-side transport.

/** A client application message for tests (the app-wide channel has none of its own). */
export const CLIENT_APP_SCHEMAS = { note: z.object({ type: z.literal('note'), text: z.string() }) };

export class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  readonly toServer: string[] = [];
  closedByClient = false;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('InvalidStateError: socket not open');
    this.toServer.push(data);
  }

  close(): void {
    this.readyState = 3;
    this.closedByClient = true;
  }

  get attached(): boolean {
    return Boolean(this.onopen || this.onmessage || this.onclose);
  }
}

/**
 * The server's session of a subscribe (test servers): the one it names, or a new one; a plain
 * subscribe names no session and gets a new one that nobody can resume.
 */
export function subscribedSession(
  sessions: Map<string, SessionState>,
  named: string | undefined,
): SessionState {
  const id = named ?? `plain-${sessions.size + 1}`;
  let session = sessions.get(id);
  if (!session) {
    session = createSession(id);
    sessions.set(id, session);
  }
  return session;
}

/**
 * The server end of the fake sockets, with the real server-side transport and session store, so
 * these tests exercise both halves of the protocol.
 */
export class FakeServer {
  readonly sockets: FakeSocket[] = [];
  readonly sessions = new Map<string, SessionState>();
  readonly transports = new Map<FakeSocket, Transport>();
  readonly received: AppFrame[] = [];
  /** Frames the server wrote, per socket. */
  readonly written = new Map<FakeSocket, Frame[]>();
  /** When set, frames from the client vanish (a black hole). */
  blackHole = false;
  autoAccept = true;

  readonly createSocket = (url: string): SocketLike => {
    const socket = new FakeSocket(url);
    this.sockets.push(socket);
    if (this.autoAccept) queueMicrotask(() => this.accept(socket));
    return socket;
  };

  get last(): FakeSocket {
    return this.sockets[this.sockets.length - 1];
  }

  accept(socket = this.last): void {
    if (socket.readyState !== 0) return;
    socket.readyState = 1;
    const frames: Frame[] = [];
    this.written.set(socket, frames);
    const transport = new Transport({
      role: 'server',
      hooks: {
        write: (frame) => {
          frames.push(frame);
          if (socket.readyState === 1) socket.onmessage?.({ data: JSON.stringify(frame) });
        },
        deliver: (message) => this.received.push(message),
        broken: () => this.cut(socket),
        subscribe: (frame) => {
          const session = subscribedSession(this.sessions, frame.session);
          for (const [other, otherTransport] of this.transports) {
            if (other !== socket && otherTransport.sessionState === session) otherTransport.close();
          }
          return session;
        },
      },
    });
    this.transports.set(socket, transport);
    socket.onopen?.();
    transport.start(Date.now());
  }

  /**
   * Lets `ms` of (fake) time pass in steps of 10 ms, the server answering after each; the test's
   * fake timers advance through `advanceTimers` (vi.advanceTimersByTimeAsync).
   */
  async pass(ms: number, advanceTimers: (ms: number) => Promise<unknown>): Promise<void> {
    for (let passed = 0; passed < ms; passed += 10) {
      await advanceTimers(Math.min(10, ms - passed));
      this.pump();
    }
    await advanceTimers(0);
    this.pump();
  }

  /** Hands the client's frames to the server transports and runs their due timers. */
  pump(): void {
    for (const socket of this.sockets) {
      const transport = this.transports.get(socket);
      while (socket.toServer.length) {
        const text = socket.toServer.shift()!;
        if (this.blackHole || !transport || socket.readyState !== 1) continue;
        const parsed = parseFrame(text, 'client', CLIENT_APP_SCHEMAS);
        if (!parsed.ok) throw new Error(parsed.reason);
        transport.receive(parsed.frame, Date.now());
      }
      transport?.tick(Date.now());
    }
  }

  /** The network drops the socket (1006), or the server closes it with `code` (1001: stopping). */
  cut(socket = this.last, code = 1006): void {
    if (socket.readyState === 3) return;
    socket.readyState = 3;
    this.transports.get(socket)?.close();
    socket.onclose?.({ code, reason: '' });
  }

  send(socket: FakeSocket, frame: unknown): void {
    socket.onmessage?.({ data: JSON.stringify(frame) });
  }

  broadcast(message: string): void {
    for (const session of this.sessions.values()) {
      const transport = [...this.transports.values()].find((t) => t.sessionState === session && t.isOpen);
      if (transport) transport.send({ type: 'system_message', message }, Date.now());
      else enqueue(session, { type: 'system_message', message });
    }
  }

  liveSockets(): FakeSocket[] {
    return this.sockets.filter((socket) => socket.readyState !== 3);
  }
}
