import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeGracefully } from '../src/http/shutdown';
import { startServer } from './harness';
import { baseSocketUrl, cookieHeader, openRaw } from './ws-support';

describe('stopping the server with sockets open', () => {
  it('closes them as going away and cuts a peer that never answers the close', async () => {
    const server = await startServer('sqlite');
    try {
      const client = await server.loginAs(await server.buildUser());
      const headers = { cookie: cookieHeader(client), origin: server.baseUrl };
      const answering = await openRaw(baseSocketUrl(server.baseUrl), headers);
      const silent = await openRaw(baseSocketUrl(server.baseUrl), headers);
      // Its network is gone: it reads nothing more, so it never answers the close frame.
      (silent.socket as unknown as { _socket: Socket })._socket.pause();

      // ws would wait 30 s for the silent peer (beyond this test's limit): the stop cuts it.
      await closeGracefully(server.app);
      expect((await answering.closed).code).toBe(1001);
      // Reading again, it finds the close frame and the end of a connection the server let go.
      (silent.socket as unknown as { _socket: Socket })._socket.resume();
      expect((await silent.closed).code).toBe(1001);
    } finally {
      await server.close();
    }
  });

  it('refuses a socket that connects while the others are being closed, and still stops', async () => {
    const server = await startServer('sqlite');
    try {
      const client = await server.loginAs(await server.buildUser());
      const headers = { cookie: cookieHeader(client), origin: server.baseUrl };
      const silent = await openRaw(baseSocketUrl(server.baseUrl), headers);
      // The stop waits up to a grace for this peer: a co-author's tab reconnects meanwhile.
      (silent.socket as unknown as { _socket: Socket })._socket.pause();
      const stopped = closeGracefully(server.app);
      const late = openRaw(baseSocketUrl(server.baseUrl), headers).then(
        (socket) => socket.closed,
        (error: Error) => error,
      );
      // Before the fix the refused upgrade's connection stayed open and the stop never ended.
      await stopped;
      const answer = await late;
      expect(answer instanceof Error || answer.code === 1001).toBe(true);
      (silent.socket as unknown as { _socket: Socket })._socket.resume();
      expect((await silent.closed).code).toBe(1001);
    } finally {
      await server.close();
    }
  });
});
