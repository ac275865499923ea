import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { staffApi } from '@scriptorium/common/api/endpoints/staff';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { MAX_FRAME_BYTES } from '@scriptorium/common/ws/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { runManage } from '../src/cli/run-manage';
import { liveHub } from '../src/ws/hub';
import { ENGINES, type TestClient, useServer } from './harness';
import {
  baseSocketUrl,
  cookieHeader,
  type LiveClient,
  liveClient,
  nextAfterGreeting,
  nextAfterWelcome,
  openRaw,
  type RawSocket,
  recordNotes,
  waitFor,
} from './ws-support';

describe.each(ENGINES)('websocket ws_url_base/base/ (%s)', (engine) => {
  const server = useServer(engine);
  const open: RawSocket[] = [];
  const live: LiveClient[] = [];

  afterEach(() => {
    for (const raw of open.splice(0)) raw.socket.terminate();
    for (const client of live.splice(0)) client.connector.close();
  });

  async function loggedIn(staff = false): Promise<TestClient> {
    return server().loginAs(await server().buildUser({ isStaff: staff }));
  }

  async function raw(
    client: TestClient | null,
    origin: string | null = server().baseUrl,
  ): Promise<RawSocket> {
    const headers: Record<string, string> = {};
    if (client) headers.cookie = cookieHeader(client);
    if (origin) headers.origin = origin;
    const socket = await openRaw(baseSocketUrl(server().baseUrl), headers);
    open.push(socket);
    return socket;
  }

  function connect(client: TestClient): LiveClient {
    const created = liveClient(server().baseUrl.replace(/^http/, 'ws'), client, server().baseUrl);
    created.connector.open();
    live.push(created);
    return created;
  }

  /** Runs the handshake by hand: welcome, subscribe, subscribed. */
  async function subscribed(client: TestClient, session = 'raw-session-0001'): Promise<RawSocket> {
    const socket = await raw(client);
    expect(await socket.next()).toEqual({ type: 'welcome', c: 0, s: 1 });
    socket.send({ type: 'subscribe', c: 1, s: 1, session, seen: 0, next: 1 });
    expect(await nextAfterWelcome(socket)).toEqual({ type: 'subscribed', c: 1, s: 2, seen: 0 });
    return socket;
  }

  it('greets a logged-in user and runs the handshake', async () => {
    await subscribed(await loggedIn());
  });

  it("answers the spec's plain subscribe (type and counters only) and works without resume", async () => {
    const staff = await loggedIn(true);
    const socket = await raw(await loggedIn());
    expect(await socket.next()).toEqual({ type: 'welcome', c: 0, s: 1 });
    socket.send({ type: 'subscribe', c: 1, s: 1 });
    expect(await nextAfterWelcome(socket)).toEqual({ type: 'subscribed', c: 1, s: 2, seen: 0 });
    expect((await staff.call(staffApi.sendSystemMessage, { message: 'plain hello' })).status).toBe(200);
    expect(await nextOtherThanSubscribed(socket)).toEqual({
      type: 'system_message',
      message: 'plain hello',
      c: 1,
      s: 3,
    });
  });

  it('answers ping with pong', async () => {
    const socket = await subscribed(await loggedIn());
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
  });

  it('denies a visitor and closes the socket', async () => {
    const socket = await raw(null);
    expect(await socket.next()).toEqual({ type: 'access_denied', c: 0, s: 0 });
    expect(await socket.closed).toEqual({ code: 1008, reason: 'access denied' });
  });

  it('denies a page of another site even with a valid session cookie', async () => {
    const socket = await raw(await loggedIn(), 'https://evil.example.com');
    expect(await socket.next()).toEqual({ type: 'access_denied', c: 0, s: 0 });
    expect((await socket.closed).code).toBe(1008);
  });

  it('denies a logged-out session', async () => {
    const client = await loggedIn();
    await client.call(userApi.logout);
    client.cookies.set('sessionid', 'forged-or-expired');
    const socket = await raw(client);
    expect(await socket.next()).toEqual({ type: 'access_denied', c: 0, s: 0 });
  });

  /** The raw sockets never acknowledge, so the server may resend 'subscribed' meanwhile: skip it. */
  async function nextOtherThanSubscribed(socket: RawSocket) {
    for (;;) {
      const frame = await socket.next();
      if (frame.type !== 'subscribed') return frame;
    }
  }

  it('denies an open socket as soon as its session logs out, in any tab', async () => {
    const client = await loggedIn();
    const socket = await subscribed(client);
    await client.call(userApi.logout);
    expect(await nextOtherThanSubscribed(socket)).toEqual({ type: 'access_denied', c: 1, s: 2 });
    expect(await socket.closed).toEqual({ code: 1008, reason: 'access denied' });
  });

  it('denies the sockets of the other sessions when the password changes, not its own', async () => {
    const user = await server().buildUser();
    const here = await server().loginAs(user);
    const elsewhere = await server().loginAs(user);
    const mine = await subscribed(here, 'raw-session-here');
    const theirs = await subscribed(elsewhere, 'raw-session-elsewhere');
    const changed = await here.call(userApi.changePassword, {
      old_password: user.password,
      new_password1: 'a brand new secret',
      new_password2: 'a brand new secret',
    });
    expect(changed.status).toBe(200);
    expect(await nextOtherThanSubscribed(theirs)).toEqual({ type: 'access_denied', c: 1, s: 2 });
    mine.send({ type: 'ping' });
    expect(await nextOtherThanSubscribed(mine)).toEqual({ type: 'pong' });
  });

  it.each([
    ['not JSON', 'hello', 'invalid message: not JSON'],
    ['an unknown type', { type: 'hack', c: 2, s: 2 }, 'invalid message: unknown type hack'],
    ['a server-only type', { type: 'welcome', c: 1, s: 1 }, 'invalid message: welcome not allowed'],
    ['a bad counter', { type: 'request_resend', from: 'x' }, 'invalid request_resend: from: '],
  ])('closes the socket on %s with a clear reason', async (_, frame, reason) => {
    const socket = await subscribed(await loggedIn());
    socket.send(frame);
    const closed = await socket.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason.startsWith(reason)).toBe(true);
  });

  it('refuses binary frames', async () => {
    const socket = await subscribed(await loggedIn());
    socket.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await socket.closed).toEqual({ code: 1003, reason: 'binary frames are not accepted' });
  });

  it('refuses oversized frames', async () => {
    const socket = await subscribed(await loggedIn());
    socket.send({ type: 'ping', padding: 'x'.repeat(MAX_FRAME_BYTES) });
    expect((await socket.closed).code).toBe(1009);
  });

  it('keeps a frame just under the limit', async () => {
    const socket = await subscribed(await loggedIn());
    socket.send({ type: 'ping', padding: 'x'.repeat(MAX_FRAME_BYTES - 100) });
    expect(await nextAfterGreeting(socket)).toEqual({ type: 'pong' });
  });

  it('breaks the socket when the client claims to have seen server messages never sent', async () => {
    const socket = await subscribed(await loggedIn());
    socket.send({ type: 'ack', c: 1, s: 50 });
    expect(await nextAfterGreeting(socket)).toMatchObject({ type: 'restart' });
    expect((await socket.closed).code).toBe(1008);
  });

  describe('system messages', () => {
    it('lets staff send one that every connected user sees', async () => {
      const first = connect(await loggedIn());
      const second = connect(await loggedIn());
      await waitFor(
        () => first.connector.status.state === 'open' && second.connector.status.state === 'open',
        'open',
      );
      const staff = await loggedIn(true);
      const response = await staff.call(staffApi.sendSystemMessage, {
        message: 'Maintenance at 18:00.',
      });
      expect(response.status, response.text).toBe(200);
      await waitFor(() => first.messages.length === 1 && second.messages.length === 1, 'both messages');
      expect(first.messages[0]).toMatchObject({ type: 'system_message', message: 'Maintenance at 18:00.' });
      expect(second.messages[0]).toMatchObject({ type: 'system_message', message: 'Maintenance at 18:00.' });
    });

    it('does not exist for other users and visitors (404, as the admin area)', async () => {
      const user = await loggedIn();
      expect((await user.call(staffApi.sendSystemMessage, { message: 'hi' })).status).toBe(404);
      expect((await server().client().call(staffApi.sendSystemMessage, { message: 'hi' })).status).toBe(404);
    });

    it('needs a message', async () => {
      const staff = await loggedIn(true);
      const response = await staff.call(staffApi.sendSystemMessage, { message: '   ' });
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({
        form: { errors: [], fields: { message: { errors: ['This field is required.'] } } },
      });
    });

    it('is sent from the command line to a running server', async () => {
      const receiver = connect(await loggedIn());
      await waitFor(() => receiver.connector.status.state === 'open', 'open');
      const out: string[] = [];
      const err: string[] = [];
      const code = await runManage(['system-message', 'Back', 'in', '5', 'minutes.'], {
        env: { ...server().env, LANG: 'en_US.UTF-8', REDIS_URL: '' },
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      });
      expect({ code, out, err }).toEqual({
        code: 0,
        out: ['System message sent (server processes reached: 1).'],
        err: [],
      });
      await waitFor(() => receiver.messages.length === 1, 'the message');
      expect(receiver.messages[0].message).toBe('Back in 5 minutes.');
    });

    it('tells the operator when no server runs', async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-nosrv-'));
      try {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runManage(['system-message', 'anyone?'], {
          env: { DATA_DIR: dataDir, SECRET_KEY: 'x', LANG: 'de_DE.UTF-8', REDIS_URL: '' },
          out: (line) => out.push(line),
          err: (line) => err.push(line),
        });
        expect({ code, out }).toEqual({ code: 1, out: [] });
        expect(err).toEqual([
          'Kein laufender Server hat die Nachricht erhalten. Starten Sie zuerst den Server, mit demselben DATA_DIR oder derselben REDIS_URL.',
        ]);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('prints the usage without a text', async () => {
      const err: string[] = [];
      const code = await runManage(['system-message'], {
        env: { ...server().env, LANG: 'en_US.UTF-8' },
        out: () => undefined,
        err: (line) => err.push(line),
      });
      expect({ code, err }).toEqual({ code: 2, err: ['Usage: npm run manage -- system-message "TEXT"'] });
    });
  });

  describe('connection_info', () => {
    it('counts connected users and sockets for staff', async () => {
      const staff = await loggedIn(true);
      const before = (await staff.call(staffApi.connectionInfo)).json<{
        users: number;
        sockets: number;
      }>();
      const user = await loggedIn();
      const a = connect(user);
      const b = connect(user);
      const c = connect(await loggedIn());
      await waitFor(() => [a, b, c].every((client) => client.connector.status.state === 'open'), 'open');
      const response = await staff.call(staffApi.connectionInfo);
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({ users: before.users + 2, sockets: before.sockets + 3, processes: 1 });
      c.connector.close();
      await waitFor(
        () => liveHub(server().ctx)!.registry.census().sockets === before.sockets + 2,
        'a closed socket',
      );
      expect((await staff.call(staffApi.connectionInfo)).json()).toEqual({
        users: before.users + 1,
        sockets: before.sockets + 2,
        processes: 1,
      });
    });

    it('is for staff only: 404 for other users and visitors', async () => {
      expect((await (await loggedIn()).call(staffApi.connectionInfo)).status).toBe(404);
      expect((await server().client().call(staffApi.connectionInfo)).status).toBe(404);
    });
  });

  it('takes client messages of registered features in order, once', async () => {
    const received = recordNotes(server().ctx);
    const client = connect(await loggedIn());
    for (let index = 1; index <= 25; index++) client.connector.send({ type: 'note', text: `n${index}` });
    await waitFor(() => received.length === 25 && client.connector.status.unsent === 0, 'all notes');
    expect(received).toEqual(Array.from({ length: 25 }, (_, index) => `n${index + 1}`));
  });
});
