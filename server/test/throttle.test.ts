import { userApi } from '@scriptorium/common/api/endpoints/user';
import { beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, type TestUser, useServer } from './harness';

const WRONG = 'The username or e-mail address and the password do not match.';
const lockedText = (minutes: number) =>
  `Too many failed login attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;

describe.each(ENGINES)('login throttling (%s)', (engine) => {
  // X-Forwarded-For stands in for different client addresses; TRUST_PROXY makes Fastify read it.
  const server = useServer(engine, {
    env: {
      LOGIN_MAX_FAILURES: '3',
      LOGIN_ADDRESS_MAX_FAILURES: '5',
      LOGIN_LOCK_SECONDS: '600',
      TRUST_PROXY: 'true',
    },
  });
  const from = (ip: string) => server().client({ 'x-forwarded-for': ip });

  beforeEach(async () => {
    await server().ctx.db.deleteFrom('login_attempts').execute();
  });

  it('locks an account from the address that failed; the right password is refused there while locked', async () => {
    const user = await server().buildUser();
    for (let i = 0; i < 3; i++) {
      const response = await from('198.51.100.1').call(userApi.login, {
        login: user.username,
        password: 'wrong',
      });
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({ form: { errors: [WRONG], fields: {} } });
    }
    const locked = await from('198.51.100.1').call(userApi.login, {
      login: user.email,
      password: user.password,
    });
    expect(locked.status).toBe(429);
    expect(locked.json()).toEqual({ form: { errors: [lockedText(10)], fields: {} } });
    expect(locked.setCookies.find((c) => c.name === 'sessionid')).toBeUndefined();

    const german = await server()
      .client({ 'x-forwarded-for': '198.51.100.1', 'accept-language': 'de' })
      .call(userApi.login, { login: user.username, password: user.password });
    expect(german.status).toBe(429);
    expect(german.json()).toEqual({
      form: {
        errors: [
          'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in 10 Minuten noch einmal.',
        ],
        fields: {},
      },
    });
  });

  it('lets the account in again once the lock has run out', async () => {
    const user = await server().buildUser();
    for (let i = 0; i < 3; i++) {
      await from('198.51.100.30').call(userApi.login, {
        login: user.username,
        password: 'wrong',
      });
    }
    expect(
      (
        await from('198.51.100.30').call(userApi.login, {
          login: user.username,
          password: user.password,
        })
      ).status,
    ).toBe(429);
    await server()
      .ctx.db.updateTable('login_attempts')
      .set({ locked_until: Date.now() - 1 })
      .where('scope', '=', `account:${user.id}@address:198.51.100.30`)
      .execute();
    const response = await from('198.51.100.30').call(userApi.login, {
      login: user.username,
      password: user.password,
    });
    expect(response.status).toBe(200);
  });

  /** Two wrong passwords from one address, then the right one: the status of that last login. */
  async function twoFailuresThenLogin(user: TestUser): Promise<number> {
    for (let i = 0; i < 2; i++) {
      await from('198.51.100.40').call(userApi.login, { login: user.username, password: 'wrong' });
    }
    const login = await from('198.51.100.40').call(userApi.login, {
      login: user.username,
      password: user.password,
    });
    return login.status;
  }

  it('clears the counter of the account and address on success', async () => {
    const user = await server().buildUser();
    expect(await twoFailuresThenLogin(user)).toBe(200);
    const row = await server()
      .ctx.db.selectFrom('login_attempts')
      .selectAll()
      .where('scope', '=', `account:${user.id}@address:198.51.100.40`)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    // Two more failures do not lock: the count started again.
    expect(await twoFailuresThenLogin(user)).toBe(200);
  });

  it('locks a client address that tries many accounts, and only that address', async () => {
    const victim = await server().buildUser();
    for (let i = 0; i < 5; i++) {
      const response = await from('203.0.113.9').call(userApi.login, {
        login: `guess${i}`,
        password: 'x',
      });
      expect(response.status).toBe(400);
    }
    const blocked = await from('203.0.113.9').call(userApi.login, {
      login: victim.username,
      password: victim.password,
    });
    expect(blocked.status).toBe(429);
    expect(blocked.json()).toEqual({ form: { errors: [lockedText(10)], fields: {} } });

    const elsewhere = await from('203.0.113.10').call(userApi.login, {
      login: victim.username,
      password: victim.password,
    });
    expect(elsewhere.status).toBe(200);
  });

  it('locks unknown logins like known ones, so a lock does not reveal that an account exists', async () => {
    for (let i = 0; i < 3; i++) {
      await from('198.51.100.60').call(userApi.login, { login: 'no-such-person', password: 'x' });
    }
    const response = await from('198.51.100.60').call(userApi.login, {
      login: 'No-Such-Person',
      password: 'x',
    });
    expect(response.status).toBe(429);
  });

  it('keeps the counters in the database, shared by every server process', async () => {
    const user = await server().buildUser();
    await from('198.51.100.80').call(userApi.login, { login: user.username, password: 'wrong' });
    const rows = await server()
      .ctx.db.selectFrom('login_attempts')
      .select(['scope', 'failures'])
      .orderBy('scope')
      .execute();
    expect(rows).toEqual([
      { scope: `account:${user.id}@address:198.51.100.80`, failures: 1 },
      { scope: 'address:198.51.100.80', failures: 1 },
    ]);
  });
});
