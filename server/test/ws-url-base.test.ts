import { userApi } from '@scriptorium/common/api/endpoints/user';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, SHELL_MARKER, useServer } from './harness';
import { cookieHeader, nextAfterWelcome, openRaw, type RawSocket } from './ws-support';

// WS_URL_BASE other than the default '/ws': the endpoints, the session lookup, readiness and the
// app-shell fallback all follow it.
describe.each(ENGINES)('websocket endpoints under WS_URL_BASE=/live (%s)', (engine) => {
  const server = useServer(engine, { env: { WS_URL_BASE: '/live' } });
  const open: RawSocket[] = [];

  afterEach(() => {
    for (const raw of open.splice(0)) raw.socket.terminate();
  });

  async function subscribedAt(path: string, cookie: string): Promise<RawSocket> {
    const url = `${server().baseUrl.replace(/^http/, 'ws')}${path}`;
    const socket = await openRaw(url, { cookie, origin: server().baseUrl });
    open.push(socket);
    expect(await socket.next()).toEqual({ type: 'welcome', c: 0, s: 1 });
    socket.send({ type: 'subscribe', c: 1, s: 1, session: 'live-base-session', seen: 0, next: 1 });
    expect(await nextAfterWelcome(socket)).toEqual({ type: 'subscribed', c: 1, s: 2, seen: 0 });
    return socket;
  }

  it('closes the socket of a session that logs out', async () => {
    const client = await server().loginAs(await server().buildUser());
    const socket = await subscribedAt('/live/base/', cookieHeader(client));
    await client.call(userApi.logout);
    let frame = await socket.next();
    // The raw socket never acknowledges: the server may have resent 'subscribed' meanwhile.
    while (frame.type === 'subscribed') frame = await socket.next();
    expect(frame).toEqual({ type: 'access_denied', c: 1, s: 2 });
    expect(await socket.closed).toEqual({ code: 1008, reason: 'access denied' });
  });

  it('answers paths under the base as the server, and /ws/ as a page of the app', async () => {
    const client = server().client();
    const underBase = await client.get('/live/nothing/');
    expect(underBase.status).toBe(404);
    expect(underBase.text).not.toContain(SHELL_MARKER);
    const oldBase = await client.get('/ws/base/');
    expect(oldBase.status).toBe(200);
    expect(oldBase.text).toContain(SHELL_MARKER);
  });
});
