import { firstParagraphStart } from '@scriptorium/common/editor/testing';
import { type ConnectorTiming, WebSocketConnector } from '@scriptorium/common/ws/connector';
import { type AppFrame, BASE_SERVER_APP_SCHEMAS } from '@scriptorium/common/ws/messages';
import type { Node as PMNode } from 'prosemirror-model';
import { WebSocket } from 'ws';
import { z } from 'zod';
import type { AppContext } from '../src/context';
import { liveHub } from '../src/ws/hub';
import { nodeSocketFactory } from '../src/ws/node-socket';
import { baseEndpoint } from '../src/ws/plugin';
import type { TestClient } from './harness';

// Helpers for the websocket API tests (ws-*.test.ts).

/** The Cookie header a browser would send with the socket (session and CSRF cookies). */
export function cookieHeader(client: TestClient): string {
  return [...client.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; ');
}

/** The default ws_url_base of a server at `baseUrl` (ws://host:port/ws). */
export function wsUrlBase(baseUrl: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}/ws`;
}

export function baseSocketUrl(baseUrl: string): string {
  return `${wsUrlBase(baseUrl)}/base/`;
}

/** Position inside the first paragraph of a document's body, for text edits outside the title. */
export function bodyParagraphStart(doc: PMNode): number {
  const found = firstParagraphStart(doc);
  if (found < 0) throw new Error('no paragraph in the document');
  return found;
}

export async function waitFor(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Polls an asynchronous reading until it satisfies `ok`; resolves with that reading. */
export async function eventually<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  what: string,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - started > 15_000)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface RawSocket {
  socket: WebSocket;
  /** Frames received so far (parsed JSON). */
  frames: Record<string, unknown>[];
  /** The next frame not yet taken by next(). */
  next(): Promise<Record<string, unknown>>;
  send(frame: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

/** A bare socket for frame-level assertions (no connector in between). */
export function openRaw(url: string, headers: Record<string, string>): Promise<RawSocket> {
  const socket = new WebSocket(url, { headers });
  const frames: Record<string, unknown>[] = [];
  let taken = 0;
  const waiting: (() => void)[] = [];
  socket.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
    for (const wake of waiting.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiting.splice(0)) wake();
    });
  });
  const raw: RawSocket = {
    socket,
    frames,
    async next() {
      const started = Date.now();
      while (frames.length <= taken) {
        if (socket.readyState === WebSocket.CLOSED) throw new Error('socket closed, no more frames');
        if (Date.now() - started > 10_000) throw new Error('no frame within 10 s');
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return frames[taken++];
    },
    send(frame) {
      socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    },
    closed,
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(raw));
    socket.once('error', reject);
  });
}

/**
 * The next frame other than a replayed `welcome`: a raw socket never acknowledges, so under load
 * the server's throttle may resend its greeting before the subscribe arrives.
 */
export async function nextAfterWelcome(socket: RawSocket): Promise<Record<string, unknown>> {
  for (;;) {
    const frame = await socket.next();
    if (frame.type !== 'welcome') return frame;
  }
}

/**
 * The next frame other than a replayed greeting (`welcome` or `subscribed`): after the handshake a
 * raw socket that never acknowledges may get `subscribed` again before the answer it waits for.
 */
export async function nextAfterGreeting(socket: RawSocket): Promise<Record<string, unknown>> {
  for (;;) {
    const frame = await socket.next();
    if (frame.type !== 'welcome' && frame.type !== 'subscribed') return frame;
  }
}

export interface LiveClient {
  connector: WebSocketConnector;
  messages: AppFrame[];
}

/** The browser's connector, run in Node over `ws`, logged in as `client`. */
export function liveClient(
  socketBaseUrl: string,
  client: TestClient,
  origin: string,
  timing: Partial<ConnectorTiming> = {},
): LiveClient {
  const messages: AppFrame[] = [];
  const factory = nodeSocketFactory({ cookie: cookieHeader(client), origin });
  const connector = new WebSocketConnector({
    serverMessages: BASE_SERVER_APP_SCHEMAS,
    wsUrlBase: `${socketBaseUrl.replace(/\/+$/, '')}/ws`,
    createSocket: factory,
    onMessage: (message) => messages.push(message),
    onAccessDenied: () => {
      throw new Error('access denied');
    },
    isOnline: () => true,
    events: new EventTarget(),
    timing,
  });
  return { connector, messages };
}

/** Registers a 'note' feature on the base endpoint; the texts of the notes it takes, in order. */
export function recordNotes(ctx: AppContext): string[] {
  const notes: string[] = [];
  baseEndpoint(liveHub(ctx)!).on('note', {
    schema: z.object({ type: z.literal('note'), text: z.string() }),
    handle: (message) => {
      notes.push(message.text);
    },
  });
  return notes;
}
