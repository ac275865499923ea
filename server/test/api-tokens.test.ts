import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { tokensApi } from '@scriptorium/common/api/endpoints/tokens';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { v1Api } from '@scriptorium/common/api/endpoints/v1';
import type { TokenInfo } from '@scriptorium/common/api/tokens';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { TOKEN_LAST_USED_STEP_MS } from '../src/modules/tokens/bearer';
import { ENGINES, type TestClient, type TestServer, useServer } from './harness';
import { ALL_SCOPES } from './v1-support';

async function makeToken(
  browser: TestClient,
  scopes: string[] = ALL_SCOPES,
  name = 'my script',
): Promise<{ token: TokenInfo; secret: string }> {
  const response = await browser.call(tokensApi.create, { name, scopes, expires_in_days: 30 });
  expect(response.status, response.text).toBe(200);
  return response.json();
}

/** A script's request: no cookie, no CSRF token, only the Authorization header. */
function withToken(server: TestServer, secret: string, method: string, path: string, body?: string) {
  return fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body,
  });
}

describe.each(ENGINES)('personal access tokens (%s)', (engine) => {
  const server = useServer(engine, { env: { API_TOKEN_RATE_LIMIT: '1000' } });

  it('are made, listed without their secret, stored hashed and revoked', async () => {
    const { user, browser } = await server().loggedInUser();
    const before = Date.now();
    const made = await makeToken(browser, ['documents:read', 'images:write'], 'Zotero sync');
    expect(made.secret).toMatch(/^scr_[A-Za-z0-9_-]{43}$/);
    expect(made.token).toEqual({
      id: made.token.id,
      name: 'Zotero sync',
      scopes: ['documents:read', 'images:write'],
      created_at: made.token.created_at,
      expires_at: made.token.created_at + 30 * 24 * 3600 * 1000,
      last_used_at: null,
    });
    expect(made.token.created_at).toBeGreaterThanOrEqual(before);

    const [row] = await server().rows('api_tokens', { user_id: user.id });
    expect(row.token_hash).toBe(createHash('sha256').update(made.secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(made.secret);

    const listed = await browser.call(tokensApi.list);
    expect(listed.status).toBe(200);
    expect(listed.json()).toEqual({ tokens: [made.token] });
    expect(listed.text).not.toContain(made.secret);

    // Another user neither sees nor revokes it.
    const other = await server().loggedInUser();
    expect((await other.browser.call(tokensApi.list)).json()).toEqual({ tokens: [] });
    expect((await other.browser.call(tokensApi.revoke, { id: made.token.id })).status).toBe(404);

    expect((await withToken(server(), made.secret, 'GET', '/api/v1/documents/')).status).toBe(200);
    const revoked = await browser.call(tokensApi.revoke, { id: made.token.id });
    expect(revoked.status, revoked.text).toBe(200);
    expect((await browser.call(tokensApi.list)).json()).toEqual({ tokens: [] });
    const refused = await withToken(server(), made.secret, 'GET', '/api/v1/documents/');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: 'invalid_token',
      message: 'The access token is invalid, revoked or expired.',
    });
  });

  it('refuses bad names, scopes and expiries, and visitors', async () => {
    const { browser } = await server().loggedInUser();
    for (const input of [
      { name: '', scopes: ['documents:read'], expires_in_days: 30 },
      { name: 'x', scopes: [], expires_in_days: 30 },
      { name: 'x', scopes: ['documents:admin'], expires_in_days: 30 },
      { name: 'x', scopes: ['documents:read'], expires_in_days: 0 },
      { name: 'x', scopes: ['documents:read'], expires_in_days: 366 },
      { name: 'x'.repeat(101), scopes: ['documents:read'], expires_in_days: 30 },
    ]) {
      const response = await browser.call(tokensApi.create, input);
      expect(response.status, JSON.stringify(input)).toBe(400);
    }
    expect(await server().rows('api_tokens')).not.toContainEqual(expect.objectContaining({ name: 'x' }));
    const visitor = server().client();
    expect((await visitor.call(tokensApi.list)).status).toBe(401);
    expect(
      (await visitor.call(tokensApi.create, { name: 'a', scopes: ['documents:read'], expires_in_days: 7 }))
        .status,
    ).toBe(401);
  });

  it('authenticate a script without cookie or CSRF token, for its scopes only', async () => {
    const { browser } = await server().loggedInUser();
    const reader = await makeToken(browser, ['documents:read']);
    const response = await withToken(server(), reader.secret, 'GET', '/api/v1/documents/');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ documents: [], next_cursor: null });
    // No session and no CSRF cookie handed out to a script.
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('cache-control')).toBe('no-store');

    const imagesOnly = await makeToken(browser, ['images:read', 'documents:write']);
    const outOfScope = await withToken(server(), imagesOnly.secret, 'GET', '/api/v1/documents/');
    expect(outOfScope.status).toBe(403);
    expect(outOfScope.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="documents:read"',
    );
    expect(await outOfScope.json()).toEqual({
      error: 'insufficient_scope',
      message: 'The access token lacks the scope documents:read.',
    });

    for (const wrong of ['scr_nonsense', '', 'a b']) {
      const refused = await withToken(server(), wrong, 'GET', '/api/v1/documents/');
      expect(refused.status, wrong).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
  });

  it('never reach account, password, e-mail, token, staff or app endpoints', async () => {
    const { user, browser } = await server().loggedInUser({ isStaff: true });
    const { secret } = await makeToken(browser);
    const closed: Array<[string, string, string?]> = [
      ['POST', '/api/user/tokens/create/', 'name=evil&scopes[]=documents:read&expires_in_days=7'],
      ['POST', '/api/user/tokens/list/'],
      ['POST', '/api/user/tokens/revoke/', 'id=1'],
      ['POST', '/api/user/passwordchange/', 'old_password=a&new_password1=b&new_password2=b'],
      ['POST', '/api/user/email/add/', 'email=evil@example.org'],
      ['POST', '/api/user/delete/', `password=${encodeURIComponent(user.password)}`],
      ['POST', '/api/user/save/', 'form_data={}'],
      ['POST', '/api/user/logout/'],
      ['GET', '/api/admin/users/'],
      ['POST', '/api/documents/list/'],
      ['POST', '/api/bibliography/biblist/'],
      ['GET', '/api/base/configuration/'],
      ['GET', '/api/v1/nothing-here/'],
    ];
    for (const [method, path, body] of closed) {
      const response = await withToken(server(), secret, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(await response.json(), path).toEqual({
        error: 'token_not_allowed',
        message: 'An access token cannot be used for this call. Log in to do this.',
      });
    }
    // Nothing was changed: the account, its tokens and addresses are as they were.
    expect(await server().rows('users', { id: user.id })).toHaveLength(1);
    expect(await server().rows('api_tokens', { user_id: user.id })).toHaveLength(1);
    expect(await server().rows('user_emails', { user_id: user.id })).toHaveLength(1);
  });

  it('ignore the cookie session: a bad token with a good session is refused', async () => {
    const { browser } = await server().loggedInUser();
    const response = await browser.call(
      v1Api.documentsList,
      {},
      { headers: { authorization: 'Bearer scr_x' } },
    );
    expect(response.status).toBe(401);
    // Without the header the browser's session reads the same endpoint.
    expect((await browser.call(v1Api.documentsList)).status).toBe(200);
  });

  it('stop at expiry, with a deactivated or deleted user', async () => {
    const { user, browser } = await server().loggedInUser();
    const expiring = await makeToken(browser, ['documents:read']);
    await server()
      .ctx.db.updateTable('api_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', expiring.token.id)
      .execute();
    expect((await withToken(server(), expiring.secret, 'GET', '/api/v1/documents/')).status).toBe(401);

    const live = await makeToken(browser, ['documents:read']);
    await server().ctx.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
    expect((await withToken(server(), live.secret, 'GET', '/api/v1/documents/')).status).toBe(401);
    await server().ctx.db.updateTable('users').set({ is_active: 1 }).where('id', '=', user.id).execute();
    expect((await withToken(server(), live.secret, 'GET', '/api/v1/documents/')).status).toBe(200);

    const deleted = await browser.call(userApi.deleteAccount, { password: user.password });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await server().rows('api_tokens', { user_id: user.id })).toEqual([]);
    expect((await withToken(server(), live.secret, 'GET', '/api/v1/documents/')).status).toBe(401);
  });

  it('note their last use at most once a minute', async () => {
    const { browser } = await server().loggedInUser();
    const { token, secret } = await makeToken(browser, ['documents:read']);
    const before = Date.now();
    expect((await withToken(server(), secret, 'GET', '/api/v1/documents/')).status).toBe(200);
    const [first] = await server().rows('api_tokens', { id: token.id });
    expect(Number(first.last_used_at)).toBeGreaterThanOrEqual(before);
    expect((await withToken(server(), secret, 'GET', '/api/v1/documents/')).status).toBe(200);
    const [second] = await server().rows('api_tokens', { id: token.id });
    expect(second.last_used_at).toBe(first.last_used_at);
    // A use a minute after the last noted one is noted again.
    const older = Number(first.last_used_at) - TOKEN_LAST_USED_STEP_MS;
    await server()
      .ctx.db.updateTable('api_tokens')
      .set({ last_used_at: older })
      .where('id', '=', token.id)
      .execute();
    expect((await withToken(server(), secret, 'GET', '/api/v1/documents/')).status).toBe(200);
    const [third] = await server().rows('api_tokens', { id: token.id });
    expect(Number(third.last_used_at)).toBeGreaterThan(older);
    const listed = (await browser.call(tokensApi.list)).json<{ tokens: TokenInfo[] }>().tokens;
    expect(listed[0].last_used_at).toBe(Number(third.last_used_at));
  });

  it('never appear in the request log', async () => {
    const { browser } = await server().loggedInUser();
    const { secret } = await makeToken(browser, ['documents:read']);
    let logged = '';
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        logged += String(chunk);
        callback();
      },
    });
    // The same context with a logging app, as main.ts runs it (info and more).
    const app = await buildApp(server().ctx, { logger: { level: 'trace', stream } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = app.server.address();
      if (!address || typeof address !== 'object') throw new Error('no port');
      const base = `http://127.0.0.1:${address.port}`;
      const ok = await fetch(`${base}/api/v1/documents/`, { headers: { authorization: `Bearer ${secret}` } });
      expect(ok.status).toBe(200);
      const closed = await fetch(`${base}/api/user/tokens/list/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(closed.status).toBe(403);
    } finally {
      await app.close();
    }
    expect(logged).toContain('/api/v1/documents/');
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain(secret.slice(4));
  });
});

describe.each(ENGINES)('personal access tokens: rate limit (%s)', (engine) => {
  const server = useServer(engine, { env: { API_TOKEN_RATE_LIMIT: '3' } });

  it('answers 429 with Retry-After past the limit, per token', async () => {
    const { browser } = await server().loggedInUser();
    const first = await makeToken(browser, ['documents:read']);
    const second = await makeToken(browser, ['documents:read']);
    for (let call = 0; call < 3; call += 1) {
      expect((await withToken(server(), first.secret, 'GET', '/api/v1/documents/')).status).toBe(200);
    }
    const limited = await withToken(server(), first.secret, 'GET', '/api/v1/documents/');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await limited.json()).toEqual({
      error: 'rate_limited',
      message: 'Too many requests. Please try again later.',
    });
    expect((await withToken(server(), second.secret, 'GET', '/api/v1/documents/')).status).toBe(200);
  });
});
