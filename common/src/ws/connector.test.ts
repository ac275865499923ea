import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ConnectionStatus, WebSocketConnector, type WebSocketConnectorOptions } from './connector';
import { FakeServer, type FakeSocket } from './fake-server';
import { type AppFrame, type AppMessage, BASE_SERVER_APP_SCHEMAS } from './messages';

let server: FakeServer;
let connector: WebSocketConnector;
let messages: AppFrame[];
let statuses: ConnectionStatus[];
let online: boolean;
let events: EventTarget;

function start(options: Partial<WebSocketConnectorOptions> = {}): WebSocketConnector {
  connector = new WebSocketConnector({
    serverMessages: BASE_SERVER_APP_SCHEMAS,
    wsUrlBase: '/ws',
    createSocket: server.createSocket,
    location: { protocol: 'https:', host: 'scriptorium.example.org' },
    onMessage: (message) => messages.push(message),
    onStatus: (status) => statuses.push(status),
    onAccessDenied: vi.fn(),
    isOnline: () => online,
    events,
    sessionId: 'test-session-0001',
    ...options,
  });
  connector.open();
  return connector;
}

/** Started and given 100 ms: the socket is open and subscribed. */
async function started(): Promise<WebSocketConnector> {
  start();
  await advance(100);
  return connector;
}

/** The browser goes offline or comes back online (and says so). */
function network(isOnline: boolean) {
  online = isOnline;
  events.dispatchEvent(new Event(isOnline ? 'online' : 'offline'));
}

/** Lets (fake) time pass while the server keeps answering. */
function advance(ms: number): Promise<void> {
  return server.pass(ms, (time) => vi.advanceTimersByTimeAsync(time));
}

beforeEach(() => {
  vi.useFakeTimers();
  server = new FakeServer();
  messages = [];
  statuses = [];
  online = true;
  events = new EventTarget();
});

afterEach(() => {
  connector?.close();
  vi.useRealTimers();
});

const types = (socket: FakeSocket) => socket.toServer.map((text) => JSON.parse(text).type);

describe('WebSocketConnector', () => {
  it('connects to ws_url_base + /base/ and runs the handshake', async () => {
    start();
    expect(server.last.url).toBe('wss://scriptorium.example.org/ws/base/');
    expect(connector.status).toEqual({ state: 'connecting', unsent: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.last.toServer.map((text) => JSON.parse(text))).toEqual([
      { type: 'subscribe', session: 'test-session-0001', seen: 0, next: 1, c: 1, s: 1 },
    ]);
    server.pump();
    expect(connector.status).toEqual({ state: 'open', unsent: 0 });
    expect(statuses.map((status) => status.state)).toEqual(['open']);
  });

  it('uses an absolute ws_url_base as it is', () => {
    start({ wsUrlBase: 'wss://live.example.org/sockets/' });
    expect(server.last.url).toBe('wss://live.example.org/sockets/base/');
  });

  it('hands system messages over once, in order', async () => {
    start();
    await advance(0);
    server.broadcast('Maintenance at 18:00');
    server.broadcast('Back soon');
    await advance(100);
    expect(messages.map((message) => message.message)).toEqual(['Maintenance at 18:00', 'Back soon']);
  });

  it('reconnects 2 s after a close, with counters from 0', async () => {
    await started();
    server.cut();
    expect(connector.status.state).toBe('disconnected');
    await vi.advanceTimersByTimeAsync(1999);
    expect(server.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.written.get(server.last)?.[0]).toEqual({ type: 'welcome', c: 0, s: 1 });
    expect(JSON.parse(server.last.toServer[0])).toMatchObject({ type: 'subscribe', c: 1, s: 1 });
    await advance(0);
    expect(connector.status.state).toBe('open');
  });

  it('reconnects at once when a stopping server sends it away (1001), and resends what was unconfirmed', async () => {
    await started();
    // The diff in flight when the server stops: it never arrives.
    server.blackHole = true;
    connector.send({ type: 'note', text: 'typed before the stop' });
    await advance(0);
    server.cut(server.last, 1001);
    expect(connector.status).toEqual({ state: 'disconnected', unsent: 1 });
    server.blackHole = false;
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sockets).toHaveLength(2);
    await advance(100);
    expect(connector.status).toEqual({ state: 'open', unsent: 0 });
    expect(server.received.map((message) => message.text)).toEqual(['typed before the stop']);
  });

  it('waits 2 s after a going-away close of a socket that never subscribed', async () => {
    server.autoAccept = false;
    start();
    server.cut(server.last, 1001);
    await vi.advanceTimersByTimeAsync(1999);
    expect(server.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.sockets).toHaveLength(2);
  });

  it('keeps trying every 2 s while the server is unreachable', async () => {
    server.autoAccept = false;
    start();
    for (let attempt = 1; attempt <= 3; attempt++) {
      server.cut();
      await vi.advanceTimersByTimeAsync(2000);
    }
    expect(server.sockets).toHaveLength(4);
    expect(server.liveSockets()).toHaveLength(1);
  });

  it('sends messages written while disconnected once subscribed, and reports them as unsent meanwhile', async () => {
    await started();
    server.cut();
    connector.send({ type: 'note', text: 'typed offline' });
    expect(connector.status).toEqual({ state: 'disconnected', unsent: 1 });
    expect(statuses.at(-1)).toEqual({ state: 'disconnected', unsent: 1 });
    await advance(2100);
    expect(server.received.map((message) => message.text)).toEqual(['typed offline']);
    expect(connector.status).toEqual({ state: 'open', unsent: 0 });
  });

  it('resends what the server never acknowledged after a reconnect, and nothing twice', async () => {
    await started();
    connector.send({ type: 'note', text: 'a' });
    connector.send({ type: 'note', text: 'b' });
    server.pump();
    // The server took both, but its acknowledgement is lost with the socket.
    server.cut();
    connector.send({ type: 'note', text: 'c' });
    await advance(2100);
    expect(server.received.map((message) => message.text)).toEqual(['a', 'b', 'c']);
    expect(connector.status.unsent).toBe(0);
  });

  it('pings after 60 s of silence and closes when no pong comes within 10 s', async () => {
    await started();
    const first = server.last;
    // The last word from the server; then it goes quiet: it receives but never answers.
    server.broadcast('last words');
    server.blackHole = true;
    await vi.advanceTimersByTimeAsync(100);
    first.toServer.length = 0;
    await vi.advanceTimersByTimeAsync(60_000 - 100 - 1);
    expect(types(first)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(types(first)).toEqual(['ping']);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(first.closedByClient).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(first.closedByClient).toBe(true);
    expect(connector.status.state).toBe('disconnected');
    server.blackHole = false;
    await advance(2000);
    expect(server.sockets).toHaveLength(2);
    expect(connector.status.state).toBe('open');
  });

  it('keeps the socket when the pong comes', async () => {
    await started();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(types(server.last)).toContain('ping');
    server.send(server.last, { type: 'pong' });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(server.last.closedByClient).toBe(false);
    expect(server.sockets).toHaveLength(1);
  });

  it('resets the silence clock on every frame', async () => {
    await started();
    server.last.toServer.length = 0;
    for (let minute = 0; minute < 5; minute++) {
      await vi.advanceTimersByTimeAsync(50_000);
      server.broadcast(`tick ${minute}`);
      await advance(0);
    }
    expect(types(server.last)).not.toContain('ping');
  });

  it('closes when the browser goes offline and reconnects when it comes back', async () => {
    await started();
    network(false);
    expect(server.last.closedByClient).toBe(true);
    expect(connector.status.state).toBe('disconnected');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.sockets).toHaveLength(1);
    network(true);
    expect(server.sockets).toHaveLength(2);
    await advance(0);
    expect(connector.status.state).toBe('open');
  });

  it('does not connect while offline at start', async () => {
    online = false;
    start();
    expect(server.sockets).toHaveLength(0);
    expect(connector.status.state).toBe('disconnected');
    network(true);
    expect(server.sockets).toHaveLength(1);
  });

  it('never holds two sockets, however the network flaps', async () => {
    start();
    for (let flap = 0; flap < 20; flap++) {
      await advance(flap % 3 === 0 ? 0 : 50);
      if (flap % 2) server.cut();
      else {
        network(false);
        network(true);
        events.dispatchEvent(new Event('online'));
      }
      await vi.advanceTimersByTimeAsync(2000);
      expect(server.liveSockets().length).toBeLessThanOrEqual(1);
      expect(server.sockets.filter((socket) => socket.attached).length).toBeLessThanOrEqual(1);
    }
    await advance(2100);
    expect(connector.openSockets).toBe(1);
    expect(connector.status.state).toBe('open');
  });

  it('ignores whatever a replaced socket still does', async () => {
    await started();
    const old = server.last;
    const onmessage = old.onmessage;
    server.cut(old);
    await advance(2100);
    onmessage?.({ data: JSON.stringify({ type: 'system_message', message: 'ghost', c: 1, s: 3 }) });
    old.onclose?.({ code: 1006, reason: '' });
    expect(messages).toEqual([]);
    expect(server.sockets).toHaveLength(2);
    expect(connector.status.state).toBe('open');
  });

  it('runs the failed-auth handler on access_denied and stops', async () => {
    const onAccessDenied = vi.fn();
    start({ onAccessDenied });
    await advance(0);
    server.send(server.last, { type: 'access_denied', c: 0, s: 1 });
    expect(onAccessDenied).toHaveBeenCalledTimes(1);
    expect(server.last.closedByClient).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.sockets).toHaveLength(1);
  });

  it('follows a redirect to another host at once', async () => {
    await started();
    server.send(server.last, { type: 'redirect', base: 'live2.example.org:8443', c: 1, s: 2 });
    expect(server.sockets).toHaveLength(2);
    expect(server.last.url).toBe('wss://live2.example.org:8443/ws/base/');
    expect(server.sockets[0].closedByClient).toBe(true);
    await advance(100);
    expect(connector.status.state).toBe('open');
    server.cut();
    await advance(2100);
    expect(server.last.url).toBe('wss://live2.example.org:8443/ws/base/');
  });

  it('does not loop on a redirect to where it already is', async () => {
    await started();
    server.send(server.last, { type: 'redirect', base: 'scriptorium.example.org', c: 1, s: 2 });
    expect(server.sockets).toHaveLength(1);
    expect(connector.status.state).toBe('disconnected');
    await advance(2100);
    expect(server.sockets).toHaveLength(2);
  });

  it('drops a socket that sends an invalid frame and reconnects', async () => {
    await started();
    server.send(server.last, { type: 'system_message', c: 1, s: 3 });
    expect(server.sockets[0].closedByClient).toBe(true);
    await advance(2100);
    expect(server.sockets).toHaveLength(2);
    expect(connector.status.state).toBe('open');
  });

  it('resends after 80 ms when the server does not confirm (the send throttle)', async () => {
    await started();
    server.last.toServer.length = 0;
    server.blackHole = true;
    connector.send({ type: 'note', text: 'x' });
    const sentAt = Date.now();
    const times: number[] = [];
    const socket = server.last;
    const originalSend = socket.send.bind(socket);
    socket.send = (data: string) => {
      times.push(Date.now() - sentAt);
      originalSend(data);
    };
    await vi.advanceTimersByTimeAsync(400);
    // 80, then 1.2 times longer each step: 80 + 96 = 176, + 115.2 (timers wait whole milliseconds) = 292.
    expect(times.slice(0, 3)).toEqual([80, 176, 292]);
  });

  it('stops for good on close()', async () => {
    await started();
    connector.close();
    expect(server.last.closedByClient).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    events.dispatchEvent(new Event('online'));
    expect(server.sockets).toHaveLength(1);
  });

  it('refuses a message too large for a frame', () => {
    start();
    const huge: AppMessage = { type: 'note', text: 'x'.repeat(300_000) };
    expect(() => connector.send(huge)).toThrow(/too large/);
  });
});
