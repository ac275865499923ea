import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentServerMessage } from '../ws/document-messages';
import { FakeServer } from '../ws/fake-server';
import { DocumentConnector } from './document-connector';

let server: FakeServer;
let connector: DocumentConnector;
let messages: DocumentServerMessage[];

beforeEach(() => {
  vi.useFakeTimers();
  server = new FakeServer();
  messages = [];
  connector = new DocumentConnector({
    wsUrlBase: '/ws',
    documentId: 12,
    createSocket: server.createSocket,
    location: { protocol: 'https:', host: 'scriptorium.example.org' },
    onMessage: (message) => messages.push(message),
    isOnline: () => true,
    events: new EventTarget(),
    sessionId: 'test-session-0001',
  });
  connector.open();
});

afterEach(() => {
  connector.close();
  vi.useRealTimers();
});

function advance(ms: number): Promise<void> {
  return server.pass(ms, (time) => vi.advanceTimersByTimeAsync(time));
}

/** The server's transport sends this application message on the current socket. */
function serverSends(message: { type: string; [field: string]: unknown }): void {
  const transport = server.transports.get(server.last);
  if (!transport) throw new Error('no socket');
  transport.send(message, Date.now());
}

describe('DocumentConnector', () => {
  it("opens the document's socket and hands each message on once, read and without the counters", async () => {
    await advance(100);
    expect(server.last.url).toBe('wss://scriptorium.example.org/ws/document/12/');
    serverSends({ type: 'confirm_diff', rid: 3, v: 8 });
    serverSends({ type: 'reject_diff', rid: 4, reason: 'stale' });
    await advance(20);
    expect(messages).toEqual([
      { type: 'confirm_diff', rid: 3, v: 8 },
      { type: 'reject_diff', rid: 4, reason: 'stale' },
    ]);
  });

  it('gives up a socket whose server sends a message that is not one of the document endpoint', async () => {
    await advance(100);
    const first = server.last;
    serverSends({ type: 'reject_diff', rid: 4, reason: 'because' });
    await advance(20);
    expect(messages).toEqual([]);
    expect(first.closedByClient).toBe(true);
    expect(connector.status.state).toBe('disconnected');
    // And connects afresh after the usual pause.
    await advance(2100);
    expect(server.sockets.length).toBe(2);
    expect(server.last).not.toBe(first);
  });
});
