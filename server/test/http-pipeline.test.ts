import http from 'node:http';
import { endpoint } from '@scriptorium/common/api/endpoint';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { FIRST_SCREEN_PRELOADS } from '@scriptorium/common/shell/first-screen';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { route } from '../src/http/endpoint';
import { requireUser } from '../src/http/session';
import {
  ASSET_PATH,
  ENGINES,
  FIRST_SCREEN_LINKS,
  SHELL_MARKER,
  type TestResponse,
  useServer,
} from './harness';

function expectSecurityHeaders(response: TestResponse, host: string, answer: 'page' | 'api') {
  const csp = response.headers.get('content-security-policy') ?? '';
  // An API answer is data: nothing loads from it, nothing frames it.
  const policy =
    answer === 'api'
      ? ["default-src 'none'", "frame-ancestors 'none'"]
      : [
          "default-src 'self'",
          "script-src 'self'",
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: blob:",
          "font-src 'self' data:",
          `connect-src 'self' ws://${host} wss://${host}`,
          "worker-src 'self' blob:",
          "frame-ancestors 'none'",
          "base-uri 'self'",
          "form-action 'self'",
          "object-src 'none'",
        ];
  expect(csp.split('; ')).toEqual(policy);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('referrer-policy')).toBe('same-origin');
}

describe.each(ENGINES)('CSRF protection (%s)', (engine) => {
  const server = useServer(engine);

  it('hands out a csrftoken cookie readable by scripts', async () => {
    const response = await server().client().call(baseApi.configuration);
    const cookie = response.setCookies.find((c) => c.name === 'csrftoken');
    expect(cookie?.value).toMatch(/^[0-9a-f]{64}$/);
    expect(cookie?.attributes.httponly).toBeUndefined();
    expect(cookie?.attributes.samesite).toBe('Lax');
    expect(cookie?.attributes.path).toBe('/');
  });

  it('does not replace a token the browser already has', async () => {
    const browser = server().client();
    await browser.call(baseApi.configuration);
    const again = await browser.call(baseApi.configuration);
    expect(again.setCookies.find((c) => c.name === 'csrftoken')).toBeUndefined();
  });

  it('refuses an unsafe request without the header', async () => {
    const browser = server().client();
    await browser.call(baseApi.configuration);
    const response = await browser.call(baseApi.flatpage, { url: '/terms/' }, { csrf: false });
    expect(response.status).toBe(403);
    expect(response.json()).toEqual({
      error: 'csrf_failed',
      message: 'The security token is missing or wrong. Reload the page and try again.',
    });
  });

  it('refuses a header that does not match the cookie', async () => {
    const browser = server().client();
    await browser.call(baseApi.configuration);
    const response = await browser.call(
      baseApi.flatpage,
      { url: '/terms/' },
      { headers: { 'x-csrftoken': 'f'.repeat(64) } },
    );
    expect(response.status).toBe(403);
  });

  it('refuses a request without the cookie, and hands one out with the refusal', async () => {
    const browser = server().client();
    const response = await browser.call(
      userApi.logout,
      {},
      { csrf: false, headers: { 'x-csrftoken': 'abc' } },
    );
    expect(response.status).toBe(403);
    expect(browser.cookies.get('csrftoken')).toMatch(/^[0-9a-f]{64}$/);
    // With the handed-out token the same call goes through.
    expect((await browser.call(userApi.logout)).status).toBe(200);
  });

  it('checks DELETE and PUT as well', async () => {
    const browser = server().client();
    await browser.call(baseApi.configuration);
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      const response = await browser.request(method, baseApi.flatpage.path, { csrf: false });
      expect(response.status).toBe(403);
    }
  });

  it('translates the refusal', async () => {
    const browser = server().client({ 'accept-language': 'fr-CH, fr;q=0.9' });
    const response = await browser.call(userApi.logout, {}, { csrf: false });
    expect(response.json<{ message: string }>().message).toBe(
      'Le jeton de sécurité est absent ou erroné. Rechargez la page et réessayez.',
    );
  });
});

/** Two endpoints that exist only in this suite: the foundation has no login-only API of its own. */
const testApi = {
  private: endpoint({
    method: 'POST',
    path: '/api/test/private/',
    response: z.object({ username: z.string() }),
  }),
  crash: endpoint({ method: 'GET', path: '/api/test/crash/', response: z.object({}) }),
};

describe.each(ENGINES)('answers, errors and the app shell (%s)', (engine) => {
  const server = useServer(engine, {
    extensions: [
      async (app) => {
        route(app, testApi.private, async (request) => ({ username: requireUser(request).username }));
        route(app, testApi.crash, async () => {
          throw new Error('secret detail');
        });
      },
    ],
  });
  // The configured site's host (SITE_URL), whatever the request's Host header said.
  const host = () => new URL(server().ctx.config.siteUrl).host;

  it('names the configured site in the page policy, never a Host header the client sent (issue 50)', async () => {
    const { port } = new URL(server().baseUrl);
    for (const forged of ['evil.example', 'evil.example:443', '127.0.0.1:1']) {
      const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/documents/', headers: { host: forged } }, (response) => {
            response.resume();
            resolve(response);
          })
          .on('error', reject);
      });
      const csp = String(answer.headers['content-security-policy']);
      expect(csp).not.toContain(forged);
      expect(csp).toContain(`connect-src 'self' ws://${host()} wss://${host()};`);
    }
  });

  it('sends the security headers on API answers, errors, the shell and static files', async () => {
    const browser = server().client();
    // An unknown API path on purpose: its 404 carries the headers too.
    for (const path of [baseApi.configuration.path, '/api/nothing/']) {
      expectSecurityHeaders(await browser.get(path), host(), 'api');
    }
    for (const path of ['/documents/', ASSET_PATH, '/assets/gone.js']) {
      expectSecurityHeaders(await browser.get(path), host(), 'page');
    }
    expectSecurityHeaders(await browser.call(baseApi.flatpage, { url: '/missing/' }), host(), 'api');
  });

  it('answers every app route with the shell, uncached', async () => {
    const browser = server().client();
    for (const path of [
      '/',
      '/documents/a/b/',
      '/document/x/12',
      '/user/profile/',
      '/account/sign-up',
      '/no/such/page',
    ]) {
      const response = await browser.get(path);
      expect(response.status, path).toBe(200);
      expect(response.text).toContain(SHELL_MARKER);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
    const head = await browser.request('HEAD', '/bibliography/');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it("paints the overview's heading into a logged-in navigation to '/', in the user's language", async () => {
    const navigation = { headers: { 'sec-fetch-dest': 'document', accept: 'text/html' } };
    const shell = (response: TestResponse) =>
      /<div class="boot-shell">([\s\S]*?)<\/div><\/body>/.exec(response.text)?.[1];
    const { browser } = await server().loggedInUser({ language: 'de' });
    const painted = await browser.get('/', navigation);
    expect(painted.status).toBe(200);
    expect(painted.headers.get('content-type')).toMatch(/^text\/html/);
    expect(painted.headers.get('cache-control')).toBe('no-cache');
    expect(painted.text).toContain(SHELL_MARKER);
    expect(painted.text).toContain('<html lang="de">');
    expect(shell(painted)).toBe(
      '<main class="app-main"><section class="page documents-page"><h1 class="documents-heading">Dokumente</h1></section></main>',
    );
    // The shell's and the overview's files are preloaded, and the texts of the user's language and
    // of English (the fallback).
    const head = (response: TestResponse) => /<head>([\s\S]*?)<\/head>/.exec(response.text)?.[1] ?? '';
    expect(head(painted)).not.toContain('first-screen-preloads');
    expect(head(painted)).toContain(FIRST_SCREEN_LINKS.shell);
    expect(head(painted)).toContain(FIRST_SCREEN_LINKS.de);
    expect(head(painted)).toContain(FIRST_SCREEN_LINKS.en);
    expect(head(painted)).not.toContain(FIRST_SCREEN_LINKS.it);
    // Without a saved language: the browser's, as the configuration names it.
    const italian = await server().loginAs(await server().buildUser({ language: null }), {
      'accept-language': 'it',
    });
    const inItalian = await italian.get('/', navigation);
    expect(inItalian.text).toContain('<html lang="it">');
    expect(shell(inItalian)).toContain('<h1 class="documents-heading">Documenti</h1>');
    expect(head(inItalian)).toContain(FIRST_SCREEN_LINKS.it);
    expect(head(inItalian)).not.toContain(FIRST_SCREEN_LINKS.de);
    // A visitor, another route, and a fetch of '/' (the service worker's offline shell) get index.html as built.
    for (const [client, path, options] of [
      [server().client(), '/', navigation],
      [browser, '/bibliography/', navigation],
      [browser, '/', { headers: { 'sec-fetch-dest': 'empty' } }],
    ] as const) {
      const plain = await client.get(path, options);
      expect(plain.status).toBe(200);
      // Compressed on every route, not only '/' (this fetch accepts gzip and deflate).
      expect(plain.headers.get('content-encoding'), path).toBe('gzip');
      expect(shell(plain), path).toBe('<!-- first-screen -->');
      // The preloads stay commented out: a visitor never downloads the logged-in code.
      expect(head(plain), path).toContain(`${FIRST_SCREEN_PRELOADS.start}\n    ${FIRST_SCREEN_LINKS.shell}`);
    }
    const brotli = await browser.get('/document/12/', { headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(shell(brotli)).toBe('<!-- first-screen -->');
  });

  it('serves hashed assets as immutable and other files with revalidation', async () => {
    const browser = server().client();
    const asset = await browser.get(ASSET_PATH);
    expect(asset.status).toBe(200);
    expect(asset.text).toContain('console.log');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // No cookie on a publicly cacheable answer.
    expect(asset.setCookies).toEqual([]);
    const icon = await browser.get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing asset with a real 404, so that a failed chunk load shows', async () => {
    const response = await server().client().get('/assets/index-000000.js');
    expect(response.status).toBe(404);
    expect(response.text).not.toContain(SHELL_MARKER);
  });

  it('answers unknown API, media and websocket paths with 404 JSON, never the shell', async () => {
    const browser = server().client();
    // Unknown paths on purpose: no descriptor names them.
    for (const path of ['/api/nothing/', '/api/base/nothing', '/media/images/1.png', '/ws/nothing']) {
      const response = await browser.get(path);
      expect(response.status, path).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'The requested item was not found.' });
    }
    const post = await browser.post('/api/nothing/', {});
    expect(post.status).toBe(404);
    expect(post.json<{ error: string }>().error).toBe('not_found');
    const postShell = await browser.post('/documents/', {});
    expect(postShell.status).toBe(404);
  });

  it('answers a login-only API with 401 JSON for visitors and lets the user in', async () => {
    const visitor = await server().client().call(testApi.private);
    expect(visitor.status).toBe(401);
    expect(visitor.json()).toEqual({ error: 'unauthorized', message: 'Please log in first.' });
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const allowed = await browser.call(testApi.private);
    expect(allowed.status).toBe(200);
    expect(allowed.json()).toEqual({ username: user.username });
  });

  it('answers an unexpected failure with a bare 500, no details', async () => {
    const response = await server().client().call(testApi.crash);
    expect(response.status).toBe(500);
    expect(response.json()).toEqual({
      error: 'server_error',
      message: 'Something went wrong on the server. Please try again later.',
    });
    expect(response.text).not.toContain('secret detail');
  });

  it('turns malformed bodies into 4xx JSON, never 500', async () => {
    const browser = server().client();
    await browser.call(baseApi.configuration);
    const badJson = await browser.call(
      baseApi.flatpage,
      {},
      {
        headers: { 'content-type': 'application/json' },
      },
    );
    expect(badJson.status).toBe(400);
    const unsupported = await browser.call(
      baseApi.flatpage,
      {},
      {
        headers: { 'content-type': 'text/x-unknown' },
      },
    );
    expect(unsupported.status).toBe(415);
    expect(unsupported.json<{ error: string }>().error).toBe('unsupported_media_type');
  });
});

describe.each(ENGINES)('before the web app is built (%s)', (engine) => {
  const server = useServer(engine, { web: 'missing' });

  it('tells the operator to run the build', async () => {
    const response = await server().client().get('/documents/');
    expect(response.status).toBe(200);
    expect(response.text).toContain(
      'The web app has not been built yet. Run npm run build on the server, then reload this page.',
    );
    const api = await server().client().call(baseApi.configuration);
    expect(api.status).toBe(200);
  });
});
