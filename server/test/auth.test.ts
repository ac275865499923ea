import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { describe, expect, it } from 'vitest';
import { hashSessionId } from '../src/http/session';
import { ENGINES, formErrors, useServer } from './harness';
import { addEmailAddress } from './seed';

const WRONG = 'The username or e-mail address and the password do not match.';

describe.each(ENGINES)('login and logout (%s)', (engine) => {
  const server = useServer(engine);

  it('logs in by username, case-insensitively, with a session cookie for the browser session', async () => {
    const user = await server().buildUser({ username: 'Ada_Lovelace' });
    const browser = server().client();
    const response = await browser.call(userApi.login, {
      login: 'ada_LOVELACE',
      password: user.password,
    });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ location: '/' });

    const session = response.setCookies.find((c) => c.name === 'sessionid');
    expect(session).toBeDefined();
    expect(session?.attributes.httponly).toBe(true);
    expect(session?.attributes.samesite).toBe('Lax');
    expect(session?.attributes.path).toBe('/');
    // "Remember me" off: a browser-session cookie.
    expect(session?.attributes['max-age']).toBeUndefined();
    expect(session?.attributes.expires).toBeUndefined();
    expect(session?.attributes.secure).toBeUndefined();
    expect(Buffer.from(session?.value ?? '', 'base64url')).toHaveLength(32);

    // Only the SHA-256 of the cookie is stored, and the row lives two weeks.
    const rows = await server().rows('sessions', { user_id: user.id });
    expect(rows).toHaveLength(1);
    expect(rows[0].id_hash).toBe(hashSessionId(session?.value ?? ''));
    expect(rows[0].id_hash).not.toContain(session?.value);
    expect(rows[0].expires_at - rows[0].created_at).toBe(14 * 24 * 3600 * 1000);

    const configuration = await browser.call(baseApi.configuration);
    expect(configuration.json<{ user: { username: string } }>().user.username).toBe('Ada_Lovelace');
  });

  it('keeps the cookie two weeks with Remember me', async () => {
    const user = await server().buildUser();
    const response = await server()
      .client()
      .call(userApi.login, { login: user.username, password: user.password, remember: true });
    expect(response.status).toBe(200);
    const session = response.setCookies.find((c) => c.name === 'sessionid');
    expect(session?.attributes['max-age']).toBe(String(14 * 24 * 3600));
  });

  it('logs in by any e-mail address of the user, case-insensitively', async () => {
    const user = await server().buildUser({ email: 'Grace.Hopper@Example.org' });
    await addEmailAddress(server().ctx.db, user.id, 'grace@navy.example', true);
    const byPrimary = await server()
      .client()
      .call(userApi.login, { login: 'GRACE.HOPPER@EXAMPLE.ORG', password: user.password });
    expect(byPrimary.status).toBe(200);
    const bySecond = await server()
      .client()
      .call(userApi.login, { login: 'Grace@Navy.Example', password: user.password });
    expect(bySecond.status).toBe(200);
  });

  it('answers a wrong password with one general error that does not say which part was wrong', async () => {
    const user = await server().buildUser();
    const wrongPassword = await server()
      .client()
      .call(userApi.login, { login: user.username, password: 'nope' });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.json()).toEqual(formErrors({}, [WRONG]));
    expect(wrongPassword.setCookies.find((c) => c.name === 'sessionid')).toBeUndefined();

    const unknownUser = await server()
      .client()
      .call(userApi.login, { login: 'nobody-here', password: 'nope' });
    expect(unknownUser.status).toBe(400);
    expect(unknownUser.json()).toEqual(wrongPassword.json());
  });

  it('requires both fields, with the spec text per field', async () => {
    const response = await server().client().call(userApi.login, { login: '  ', password: '' });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual(
      formErrors({ login: ['This field is required.'], password: ['This field is required.'] }),
    );
  });

  it('translates form errors into the request language', async () => {
    const response = await server()
      .client({ 'accept-language': 'de-DE,de;q=0.9' })
      .call(userApi.login, { login: 'x' });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual(formErrors({ password: ['Dieses Feld ist erforderlich.'] }));
  });

  it('refuses a deactivated account even with the right password', async () => {
    const user = await server().buildUser({ isActive: false });
    const response = await server()
      .client()
      .call(userApi.login, { login: user.username, password: user.password });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual(formErrors({}, ['This account has been deactivated.']));
  });

  it('logs out: the session row is deleted and the cookie cleared', async () => {
    const { browser } = await server().loggedInUser();
    const sessionId = browser.cookies.get('sessionid') ?? '';
    expect(sessionId).not.toBe('');

    const response = await browser.call(userApi.logout);
    expect(response.status).toBe(200);
    const cleared = response.setCookies.find((c) => c.name === 'sessionid');
    expect(cleared?.value).toBe('');
    expect(browser.cookies.has('sessionid')).toBe(false);
    expect(await server().rows('sessions', { id_hash: hashSessionId(sessionId) })).toEqual([]);

    // The old cookie, replayed, no longer opens the session.
    const replay = server().client();
    replay.cookies.set('sessionid', sessionId);
    const configuration = await replay.call(baseApi.configuration);
    expect(configuration.json<{ user: unknown }>().user).toEqual({ is_authenticated: false });
  });

  it('ignores an expired session row', async () => {
    const { user, browser } = await server().loggedInUser();
    await server()
      .ctx.db.updateTable('sessions')
      .set({ expires_at: Date.now() - 1000 })
      .where('user_id', '=', user.id)
      .execute();
    const configuration = await browser.call(baseApi.configuration);
    expect(configuration.json<{ user: unknown }>().user).toEqual({ is_authenticated: false });
  });
});

describe.each(ENGINES)('behind https (%s)', (engine) => {
  const server = useServer(engine, { env: { SITE_URL: 'https://scriptorium.example' } });

  it('marks the session and CSRF cookies Secure and sends HSTS', async () => {
    const user = await server().buildUser();
    const browser = server().client();
    const first = await browser.call(baseApi.configuration);
    expect(first.setCookies.find((c) => c.name === 'csrftoken')?.attributes.secure).toBe(true);
    expect(first.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const login = await browser.call(userApi.login, { login: user.username, password: user.password });
    expect(login.setCookies.find((c) => c.name === 'sessionid')?.attributes.secure).toBe(true);
  });
});
