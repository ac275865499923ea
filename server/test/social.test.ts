import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeRequest, endpointPath } from '@scriptorium/common/api/endpoint';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { socialApi } from '@scriptorium/common/api/endpoints/social';
import Provider from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { ENGINES, type TestClient } from './harness';
import { SOCIAL_SITE, useServerWithFakeProvider } from './social-support';

const SITE = SOCIAL_SITE;
/** Our server's credentials at the identity provider. */
const CLIENT = { client_id: 'scriptorium', client_secret: 'a-test-secret-that-is-long-enough' };
const CALLBACK = `${SITE}${endpointPath(socialApi.callback, { provider: 'idp' })}`;

interface Person {
  email: string;
  email_verified: boolean;
  name: string;
}

/** A real OpenID Connect provider on loopback that logs in whoever `people[next]` names. */
async function startProvider() {
  const people = new Map<string, Person>();
  const state = { next: '' };
  let provider: Provider | undefined;
  const server: Server = createServer((req, res) => {
    const p = provider;
    if (!p) return;
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        const details = await p.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await p.interactionFinished(
            req,
            res,
            { login: { accountId: state.next } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const grant = new p.Grant({
          accountId: details.session?.accountId ?? '',
          clientId: CLIENT.client_id,
        });
        grant.addOIDCScope('openid email profile');
        await p.interactionFinished(
          req,
          res,
          { consent: { grantId: await grant.save() } },
          { mergeWithLastSubmission: true },
        );
      })().catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    p.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new Provider(issuer, {
    clients: [
      {
        ...CLIENT,
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Put the claims into the ID token, as ORCID and Keycloak can; userinfo is the fallback.
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, id: string) => {
      const person = people.get(id);
      if (!person) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...person }) };
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-cookie-key'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
  });
  return {
    issuer,
    people,
    state,
    settings: { type: 'oidc', id: 'idp', name: 'Test IdP', issuer, ...CLIENT },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Follows redirects as a browser does: the provider with its own cookie jar, our server with the
 * test client (the callback address of SITE_URL is mapped to the test server).
 */
async function socialLogin(browser: TestClient, baseUrl: string, start: string) {
  const providerCookies = new Map<string, string>();
  const response = await browser.get(start);
  expect(response.status, response.text).toBe(302);
  let location = response.headers.get('location') ?? '';
  for (let hop = 0; hop < 20; hop++) {
    if (location.startsWith(SITE)) {
      const final = await browser.get(location.slice(SITE.length));
      return { status: final.status, location: final.headers.get('location') };
    }
    const answer = await fetch(location, {
      redirect: 'manual',
      headers: { cookie: [...providerCookies].map(([n, v]) => `${n}=${v}`).join('; ') },
    });
    for (const header of answer.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const eq = pair.indexOf('=');
      providerCookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const next = answer.headers.get('location');
    if (!next) throw new Error(`provider stopped at ${location}: ${answer.status} ${await answer.text()}`);
    location = new URL(next, location).href;
  }
  throw new Error(`too many redirects, last at ${location} (our server at ${baseUrl})`);
}

describe.each(ENGINES)('social login (%s)', (engine) => {
  const { fake: idp, server } = useServerWithFakeProvider(engine, 'the identity provider', startProvider);

  it('lists the providers in the configuration', async () => {
    const config = (await server().client().call(baseApi.configuration)).json();
    expect(config.socialaccount_providers).toEqual([
      { id: 'idp', name: 'Test IdP', login_url: endpointPath(socialApi.login, { provider: 'idp' }) },
    ]);
  });

  it('closes sign-up for identities that match no account', async () => {
    idp().people.set('stranger', { email: 'stranger@example.net', email_verified: true, name: 'Stranger' });
    idp().state.next = 'stranger';
    const browser = server().client();
    const outcome = await socialLogin(
      browser,
      server().baseUrl,
      endpointPath(socialApi.login, { provider: 'idp' }),
    );
    expect(outcome).toEqual({ status: 302, location: '/account/sign-up/' });
    expect(browser.cookies.has('sessionid')).toBe(false);
  });

  it('does not connect by an address the provider has not verified', async () => {
    const user = await server().buildUser();
    idp().people.set('unverified', { email: user.email, email_verified: false, name: 'Unverified' });
    idp().state.next = 'unverified';
    const outcome = await socialLogin(
      server().client(),
      server().baseUrl,
      endpointPath(socialApi.login, { provider: 'idp' }),
    );
    expect(outcome.location).toBe('/account/sign-up/');
  });

  it('logs in by a verified address of an account, connects it, and logs in by it afterwards', async () => {
    const user = await server().buildUser();
    const sub = `sub-${user.id}`;
    idp().people.set(sub, { email: user.email.toUpperCase(), email_verified: true, name: 'Ada at IdP' });
    idp().state.next = sub;
    const browser = server().client();
    expect(
      await socialLogin(browser, server().baseUrl, endpointPath(socialApi.login, { provider: 'idp' })),
    ).toEqual({
      status: 302,
      location: '/',
    });
    const config = (await browser.call(baseApi.configuration)).json<{
      user: { username: string; socialaccounts: Array<{ provider: string; name: string }> };
    }>();
    expect(config.user.username).toBe(user.username);
    expect(config.user.socialaccounts).toMatchObject([{ provider: 'idp', name: 'Ada at IdP' }]);

    // The provider's address changes: the connection (by subject) still logs in.
    idp().people.set(sub, { email: 'changed@example.net', email_verified: true, name: 'Ada at IdP' });
    const again = server().client();
    expect(
      (await socialLogin(again, server().baseUrl, endpointPath(socialApi.login, { provider: 'idp' })))
        .location,
    ).toBe('/');
  });

  it('connects from the profile and refuses an identity connected elsewhere', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    idp().people.set(`connect-${user.id}`, {
      email: 'other@example.net',
      email_verified: false,
      name: 'Connected',
    });
    idp().state.next = `connect-${user.id}`;
    const outcome = await socialLogin(
      browser,
      server().baseUrl,
      encodeRequest(socialApi.login, { provider: 'idp', process: 'connect' }).url,
    );
    expect(outcome.location).toBe('/user/profile/');
    const accounts = await server()
      .ctx.db.selectFrom('social_accounts')
      .select(['uid'])
      .where('user_id', '=', user.id)
      .execute();
    expect(accounts).toEqual([{ uid: `connect-${user.id}` }]);

    const other = await server().loginAs(await server().buildUser());
    const taken = await socialLogin(
      other,
      server().baseUrl,
      encodeRequest(socialApi.login, { provider: 'idp', process: 'connect' }).url,
    );
    expect(taken.location).toBe('/user/profile/?social=failed');
    expect(
      (
        await server()
          .client()
          .get(encodeRequest(socialApi.login, { provider: 'idp', process: 'connect' }).url)
      ).status,
    ).toBe(401);
  });

  it('checks the state: a callback link from another browser does not log in', async () => {
    const user = await server().buildUser();
    idp().people.set(`victim-${user.id}`, { email: user.email, email_verified: true, name: 'V' });
    idp().state.next = `victim-${user.id}`;
    const attacker = server().client();
    const start = await attacker.get(endpointPath(socialApi.login, { provider: 'idp' }));
    const authorize = new URL(start.headers.get('location') ?? '');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    // Another browser, without the state cookie, brings a made-up callback.
    const victim = server().client();
    const forged = await victim.get(
      encodeRequest(socialApi.callback, {
        provider: 'idp',
        code: 'x',
        state: authorize.searchParams.get('state'),
      }).url,
    );
    expect(forged.status).toBe(400);
    expect(victim.cookies.has('sessionid')).toBe(false);
    expect(
      (
        await server()
          .client()
          .get(endpointPath(socialApi.login, { provider: 'unknown' }))
      ).status,
    ).toBe(404);
  });
});
