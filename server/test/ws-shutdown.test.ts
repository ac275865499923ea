import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeGracefully } from '../src/http/shutdown';
import { startServer, type TestServer } from './harness';
import { baseSocketUrl, cookieHeader, openRaw, type RawSocket } from './ws-support';

/** The TCP socket under a raw websocket: pausing it is a peer whose network is gone. */
const tcp = (raw: RawSocket) => (raw.socket as unknown as { _socket: Socket })._socket;

/** Runs `test` with a server and `open`, a new /base/ socket of a logged-in user; the server stops after. */
async function withSockets(test: (server: TestServer, open: () => Promise<RawSocket>) => Promise<void>) {
  const server = await startServer('sqlite');
  try {
    const client = await server.loginAs(await server.buildUser());
    const headers = { cookie: cookieHeader(client), origin: server.baseUrl };
    await test(server, () => openRaw(baseSocketUrl(server.baseUrl), headers));
  } finally {
    await server.close();
  }
}

describe('stopping the server with sockets open', () => {
  it('closes them as going away and cuts a peer that never answers the close', async () => {
    await withSockets(async (server, open) => {
      const answering = await open();
      const silent = await open();
      // Its network is gone: it reads nothing more, so it never answers the close frame.
      tcp(silent).pause();

      // ws would wait 30 s for the silent peer (beyond this test's limit): the stop cuts it.
      await closeGracefully(server.app);
      expect((await answering.closed).code).toBe(1001);
      // Reading again, it finds the close frame and the end of a connection the server let go.
      tcp(silent).resume();
      expect((await silent.closed).code).toBe(1001);
    });
  });

  it('refuses a socket that connects while the others are being closed, and still stops', async () => {
    await withSockets(async (server, open) => {
      const silent = await open();
      // The stop waits up to a grace for this peer: a co-author's tab reconnects meanwhile.
      tcp(silent).pause();
      const stopped = closeGracefully(server.app);
      const late = open().then(
        (socket) => socket.closed,
        (error: Error) => error,
      );
      // Before the fix the refused upgrade's connection stayed open and the stop never ended.
      await stopped;
      const answer = await late;
      expect(answer instanceof Error || answer.code === 1001).toBe(true);
      tcp(silent).resume();
      expect((await silent.closed).code).toBe(1001);
    });
  });
});
