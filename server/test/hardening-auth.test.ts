import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { describe, expect, it } from 'vitest';
import { ASSET_PATH, ENGINES, useServer } from './harness';

const WRONG = 'The username or e-mail address and the password do not match.';

describe.each(ENGINES)('hardening: accounts and sessions (%s)', (engine) => {
  // X-Forwarded-For stands in for different client addresses; TRUST_PROXY makes Fastify read it.
  const server = useServer(engine, {
    env: { LOGIN_MAX_FAILURES: '5', LOGIN_ADDRESS_MAX_FAILURES: '20', TRUST_PROXY: 'true' },
  });
  const from = (ip: string) => server().client({ 'x-forwarded-for': ip });

  it('locks the attacking address out of an account, not the owner from another address', async () => {
    const owner = await server().buildUser();
    const attacker = from('203.0.113.66');
    for (let i = 0; i < 5; i++) {
      const response = await attacker.call(userApi.login, {
        login: owner.username,
        password: `guess${i}`,
      });
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({ form: { errors: [WRONG], fields: {} } });
    }
    const attackerWithPassword = await attacker.call(userApi.login, {
      login: owner.username,
      password: owner.password,
    });
    expect(attackerWithPassword.status).toBe(429);
    const ownerElsewhere = await from('198.51.100.7').call(userApi.login, {
      login: owner.email,
      password: owner.password,
    });
    expect(ownerElsewhere.status, ownerElsewhere.text).toBe(200);
    // The attacker keeps trying: the owner still gets in.
    await attacker.call(userApi.login, { login: owner.username, password: 'again' });
    expect(
      (await server().loginAs(owner, { 'x-forwarded-for': '198.51.100.8' })).cookies.has('sessionid'),
    ).toBe(true);
  });

  it('ends the earlier session of the browser when another account logs in there', async () => {
    const alice = await server().buildUser();
    const bob = await server().buildUser();
    const browser = await server().loginAs(alice);
    const aliceSession = browser.cookies.get('sessionid') ?? '';
    const login = await browser.call(userApi.login, { login: bob.username, password: bob.password });
    expect(login.status).toBe(200);
    expect(browser.cookies.get('sessionid')).not.toBe(aliceSession);
    const stale = server().client();
    stale.cookies.set('sessionid', aliceSession);
    expect((await stale.call(usermediaApi.images)).status).toBe(401);
    expect((await browser.call(usermediaApi.images)).status).toBe(200);
  });

  it('marks authenticated API answers no-store', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    for (const target of [baseApi.configuration, usermediaApi.images, bibliographyApi.list]) {
      const response = await browser.call(target);
      expect(response.status, target.path).toBe(200);
      expect(response.headers.get('cache-control'), target.path).toBe('no-store');
    }
  });

  it('refuses an unsafe request from another origin even with the right CSRF token', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const foreign = await browser.call(
      usermediaApi.saveCategories,
      { ids: ['0'], titles: ['A'] },
      {
        headers: { origin: 'https://evil.example' },
      },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toEqual({
      error: 'csrf_failed',
      message: 'The security token is missing or wrong. Reload the page and try again.',
    });
    const own = await browser.call(
      usermediaApi.saveCategories,
      { ids: ['0'], titles: ['A'] },
      {
        headers: { origin: server().baseUrl },
      },
    );
    expect(own.status, own.text).toBe(200);
  });

  it('does not serve source maps of the web app', async () => {
    const mapFile = path.join(server().ctx.config.webDist, `${ASSET_PATH.slice(1)}.map`);
    writeFileSync(mapFile, '{"version":3,"sources":["secret.ts"],"mappings":""}');
    const visitor = server().client();
    expect((await visitor.get(ASSET_PATH)).status).toBe(200);
    const map = await visitor.get(`${ASSET_PATH}.map`);
    expect(map.status).toBe(404);
    expect(map.text).not.toContain('secret.ts');
  });

  it("refuses '@' in usernames, so that nobody's e-mail login can reach another account", async () => {
    const victim = await server().buildUser();
    const other = await server().buildUser();
    const browser = await server().loginAs(other);
    const taken = await browser.call(userApi.saveProfile, {
      form_data: { user: { username: victim.email, first_name: '', last_name: '' } },
    });
    expect(taken.status, taken.text).toBe(400);
    expect(taken.json()).toEqual({
      msg: {
        username: [
          'Enter a valid username. This value may contain only letters, numbers, and ./+/-/_ characters.',
        ],
      },
    });
    const plain = await browser.call(userApi.saveProfile, {
      form_data: { user: { username: 'someone@elsewhere.example', first_name: '', last_name: '' } },
    });
    expect(plain.status).toBe(400);
    // The victim's e-mail login reaches the victim.
    const login = server().client();
    expect((await login.call(userApi.login, { login: victim.email, password: victim.password })).status).toBe(
      200,
    );
    const config = (await login.call(baseApi.configuration)).json<{ user: { username: string } }>();
    expect(config.user.username).toBe(victim.username);
  });
});
