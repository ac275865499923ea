import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpointPath } from '@scriptorium/common/api/endpoint';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { socialApi } from '@scriptorium/common/api/endpoints/social';
import { describe, expect, it } from 'vitest';
import { ENGINES } from './harness';
import { SOCIAL_SITE, useServerWithFakeProvider } from './social-support';

const SITE = SOCIAL_SITE;
/** Our server's credentials at the fake GitHub. */
const CLIENT = { client_id: 'gh-client', client_secret: 'gh-secret' };

interface GithubUser {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; verified: boolean; primary: boolean }>;
}

/**
 * A stand-in for GitHub's OAuth2 endpoints and API on loopback: it authorizes `next` at once,
 * and its token endpoint checks the client secret, the redirect URI and the PKCE verifier as
 * GitHub does.
 */
async function startFakeGithub() {
  const state = { next: undefined as GithubUser | undefined, tokenRequests: 0 };
  const codes = new Map<string, { user: GithubUser; challenge: string; redirectUri: string }>();
  const tokens = new Map<string, GithubUser>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      const user = state.next;
      const challenge = url.searchParams.get('code_challenge');
      if (!user || !challenge || url.searchParams.get('code_challenge_method') !== 'S256')
        return send(400, {});
      const code = randomBytes(8).toString('hex');
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      codes.set(code, { user, challenge, redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        state.tokenRequests++;
        const form = new URLSearchParams(body);
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (
          !grant ||
          form.get('client_secret') !== CLIENT.client_secret ||
          form.get('redirect_uri') !== grant.redirectUri ||
          challenge !== grant.challenge
        ) {
          return send(400, { error: 'bad_verification_code' });
        }
        const token = randomBytes(8).toString('hex');
        tokens.set(token, grant.user);
        send(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      });
      return;
    }
    const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /i, ''));
    if (!user) return send(401, { message: 'Bad credentials' });
    if (url.pathname === '/user') return send(200, { id: user.id, login: user.login, name: user.name });
    if (url.pathname === '/user/emails') return send(200, user.emails);
    send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings = {
    type: 'github',
    id: 'github',
    name: 'GitHub',
    ...CLIENT,
    authorization_endpoint: `${base}/login/oauth/authorize`,
    token_endpoint: `${base}/login/oauth/access_token`,
    api_base: base,
  };
  return {
    base,
    state,
    settings,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(ENGINES)('GitHub login (%s)', (engine) => {
  const { fake: github, server } = useServerWithFakeProvider(engine, 'the fake GitHub', startFakeGithub);

  async function githubLogin(browser: ReturnType<ReturnType<typeof server>['client']>, start: string) {
    const first = await browser.get(start);
    expect(first.status).toBe(302);
    const authorize = await fetch(first.headers.get('location') ?? '', { redirect: 'manual' });
    const callback = authorize.headers.get('location') ?? '';
    expect(callback.startsWith(`${SITE}${endpointPath(socialApi.callback, { provider: 'github' })}`)).toBe(
      true,
    );
    const final = await browser.get(callback.slice(SITE.length));
    return final.headers.get('location');
  }

  it('connects by a verified GitHub address and logs in by the GitHub id afterwards', async () => {
    const user = await server().buildUser();
    const octo: GithubUser = {
      id: 4242,
      login: 'octo',
      name: null,
      emails: [
        { email: 'unverified@example.net', verified: false, primary: true },
        { email: user.email, verified: true, primary: false },
      ],
    };
    github().state.next = octo;
    const browser = server().client();
    expect(await githubLogin(browser, endpointPath(socialApi.login, { provider: 'github' }))).toBe('/');
    const config = (await browser.call(baseApi.configuration)).json<{
      user: { username: string; socialaccounts: unknown[] };
    }>();
    expect(config.user.username).toBe(user.username);
    expect(config.user.socialaccounts).toMatchObject([{ provider: 'github', name: 'octo' }]);

    github().state.next = { ...octo, emails: [] };
    expect(await githubLogin(server().client(), endpointPath(socialApi.login, { provider: 'github' }))).toBe(
      '/',
    );
  });

  it('closes sign-up when only unverified addresses match', async () => {
    const user = await server().buildUser();
    github().state.next = {
      id: 777,
      login: 'nobody',
      name: 'No Body',
      emails: [{ email: user.email, verified: false, primary: true }],
    };
    expect(await githubLogin(server().client(), endpointPath(socialApi.login, { provider: 'github' }))).toBe(
      '/account/sign-up/',
    );
  });
});
