import { createServer, type Server, type Socket } from 'node:net';
import { feedbackApi } from '@scriptorium/common/api/endpoints/base';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { describe, expect, it } from 'vitest';
import { ENGINES, useServer, useStarted } from './harness';

/**
 * An SMTP server that accepts connections and never says a word: a mail sent there stays
 * pending until the test lets go, so an answer that waits for the mail cannot arrive.
 */
interface SilentSmtp {
  url: string;
  /** Resolves with the next connection (one per mail the server tries to send). */
  nextConnection(): Promise<Socket>;
  close(): Promise<void>;
}

async function startSilentSmtp(): Promise<SilentSmtp> {
  const sockets: Socket[] = [];
  const waiting: Array<(socket: Socket) => void> = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    const wake = waiting.shift();
    if (wake) wake(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  let taken = 0;
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    nextConnection: () =>
      taken < sockets.length
        ? Promise.resolve(sockets[taken++])
        : new Promise((resolve) => {
            taken += 1;
            waiting.push(resolve);
          }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(ENGINES)('hardening: mail (%s)', (engine) => {
  const smtp = useStarted('the silent SMTP server', startSilentSmtp);
  const server = useServer(engine, { env: () => ({ SMTP_URL: smtp().url }) });

  it('answers a password reset before the mail is composed and sent, for known and unknown addresses', async () => {
    const user = await server().buildUser();
    const known = await server().client().call(userApi.passwordReset, { email: user.email });
    expect(known.status).toBe(200);
    expect(known.json()).toEqual({ ok: true });
    // The mail is on its way only now, after the answer: the SMTP server has not even greeted.
    const connection = await smtp().nextConnection();
    const unknown = await server().client().call(userApi.passwordReset, { email: 'nobody@example.net' });
    expect(unknown.status).toBe(200);
    expect(unknown.json()).toEqual({ ok: true });
    connection.destroy();
  });
});

describe.each(ENGINES)('hardening: mail rate limits (%s)', (engine) => {
  const server = useServer(engine, { env: { TRUST_PROXY: 'true' } });
  const MAIL_LIMIT = {
    error: 'rate_limited',
    message: 'Too many e-mails were sent in a short time. Please try again in an hour.',
  };

  it('limits the invitation mails of one user', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await browser.call(contactsApi.invite, {
        user_string: `friend${i}@example.net`,
      });
      statuses.push(response.status);
    }
    expect(statuses.every((status) => status === 201)).toBe(true);
    const refused = await browser.call(contactsApi.invite, { user_string: 'one-more@example.net' });
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual(MAIL_LIMIT);
    // Another user is not affected.
    const other = await server().loginAs(await server().buildUser());
    expect((await other.call(contactsApi.invite, { user_string: 'one-more@example.net' })).status).toBe(201);
  });

  it('limits the confirmation mails one user can have sent', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    for (let i = 0; i < 10; i++) {
      const response = await browser.call(userApi.addEmail, {
        email: `alias${i}.${user.username}@example.net`,
      });
      expect(response.status, response.text).toBe(200);
    }
    const refused = await browser.call(userApi.addEmail, {
      email: `alias-last.${user.username}@example.net`,
    });
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual(MAIL_LIMIT);
  });

  it('limits anonymous feedback per client address', async () => {
    const visitor = server().client({ 'x-forwarded-for': '192.0.2.44' });
    for (let i = 0; i < 10; i++) {
      expect((await visitor.call(feedbackApi.send, { message: `Report ${i}` })).status).toBe(200);
    }
    const refused = await visitor.call(feedbackApi.send, { message: 'Report 11' });
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({
      error: 'rate_limited',
      message: 'Too many messages were sent in a short time. Please try again in a few minutes.',
    });
    const stored = await server().ctx.db.selectFrom('feedback').select('id').execute();
    expect(stored.length).toBe(10);
    const elsewhere = server().client({ 'x-forwarded-for': '192.0.2.45' });
    expect((await elsewhere.call(feedbackApi.send, { message: 'Hello' })).status).toBe(200);
  });
});
