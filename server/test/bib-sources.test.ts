import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BibSource } from '@scriptorium/common/api/bib-sources';
import { bibliographyApi, bibSourcesApi } from '@scriptorium/common/api/endpoints/bibliography';
import { v1Api } from '@scriptorium/common/api/endpoints/v1';
import { afterAll, describe, expect, it } from 'vitest';
import { syncDueSources } from '../src/modules/bibliography/sources/schedule';
import { ENGINES, type TestClient, useServer } from './harness';

/**
 * Bibliography sources (issue 57) against a real HTTP server of the test: BibTeX and CSL-JSON
 * files with their validators, a fake of the Zotero Web API's shapes (format=csljson pages with
 * Link and Total-Results, Last-Modified-Version, 304 on If-Modified-Since-Version), and the
 * answers a source must survive (slow, huge, HTML, a redirect to a private address, broken BibTeX).
 */

const BIB_V1 = `@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate Programming},
  journal = {The Computer Journal},
  year = {1984}
}
@book{lamport1994,
  author = {Lamport, Leslie},
  title = {LaTeX: A Document Preparation System},
  publisher = {Addison-Wesley},
  year = {1994}
}
`;
// knuth1984 changed, lamport1994 gone, dijkstra1968 new.
const BIB_V2 = `@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate Programming, revised},
  journal = {The Computer Journal},
  year = {1984}
}
@article{dijkstra1968,
  author = {Dijkstra, Edsger W.},
  title = {Go To Statement Considered Harmful},
  journal = {Communications of the ACM},
  year = {1968}
}
`;
const BROKEN_BIB = `@article{good2020, title = {Fine}, author = {Doe, Jane}, year = {2020}}
@article{broken2021, title = {Never closed, author = {Roe, Richard}
`;

function cslItem(n: number, title = `Paper ${n}`) {
  return {
    id: `42/ITEM${String(n).padStart(4, '0')}`,
    type: 'article-journal',
    title,
    author: [{ family: `Author${n}`, given: 'A.' }],
    issued: { 'date-parts': [[2000 + (n % 20)]] },
  };
}

interface Fake {
  files: Map<string, { body: string; type: string; etag?: string }>;
  zotero: { version: number; items: ReturnType<typeof cslItem>[]; requests: string[] };
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  port: number;
  server: http.Server;
}

async function fakeRemote(): Promise<Fake> {
  const fake = {
    files: new Map(),
    zotero: { version: 10, items: [], requests: [] },
    requests: [],
  } as unknown as Fake;
  fake.server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    fake.requests.push({ path: url.pathname, headers: request.headers });
    if (url.pathname === '/slow.bib') {
      // Headers and a first line, then nothing: the fetch's time limit must end it.
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('@article{slow,\n');
      return;
    }
    if (url.pathname === '/huge.bib') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = `@misc{x, title = {${'x'.repeat(8000)}}}\n`;
      const write = () => {
        while (response.write(chunk)) if (response.writableLength > 1e6) break;
      };
      response.on('drain', write);
      write();
      request.on('close', () => response.destroy());
      return;
    }
    if (url.pathname === '/to-private.bib') {
      response.writeHead(302, { location: 'http://10.20.30.40/refs.bib' });
      return response.end();
    }
    if (url.pathname === '/moved.bib') {
      response.writeHead(301, { location: '/refs.bib' });
      return response.end();
    }
    if (url.pathname.startsWith('/zotero/')) return zotero(fake, url, request, response);
    const file = fake.files.get(url.pathname);
    if (!file) {
      response.writeHead(404);
      return response.end('not here');
    }
    const etag = file.etag ?? `"${Buffer.from(file.body).length}-${file.body.length % 97}"`;
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag });
      return response.end();
    }
    response.writeHead(200, { 'content-type': file.type, etag, 'last-modified': new Date(0).toUTCString() });
    response.end(file.body);
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.port = (fake.server.address() as AddressInfo).port;
  return fake;
}

/** The Zotero Web API's shapes (v3): as its documentation describes them, no more. */
function zotero(fake: Fake, url: URL, request: http.IncomingMessage, response: http.ServerResponse) {
  fake.zotero.requests.push(url.pathname + url.search);
  const match = /^\/zotero\/(users|groups)\/(\d+)(?:\/collections\/([A-Z0-9]+))?\/items\/top$/.exec(
    url.pathname,
  );
  if (
    !match ||
    request.headers['zotero-api-version'] !== '3' ||
    url.searchParams.get('format') !== 'csljson'
  ) {
    response.writeHead(400);
    return response.end('bad request');
  }
  if (request.headers['zotero-api-key'] !== 'secret-key') {
    response.writeHead(403);
    return response.end('Forbidden');
  }
  const version = fake.zotero.version;
  const since = request.headers['if-modified-since-version'];
  if (since !== undefined && Number(since) >= version) {
    response.writeHead(304, { 'last-modified-version': String(version) });
    return response.end();
  }
  const start = Number(url.searchParams.get('start') ?? 0);
  const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 25));
  const total = fake.zotero.items.length;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'last-modified-version': String(version),
    'total-results': String(total),
  };
  const links: string[] = [];
  if (start + limit < total) {
    const next = new URL(url.href);
    next.searchParams.set('start', String(start + limit));
    links.push(`<http://127.0.0.1:${fake.port}${next.pathname}${next.search}>; rel="next"`);
  }
  if (links.length > 0) headers.link = links.join(', ');
  response.writeHead(200, headers);
  response.end(JSON.stringify({ items: fake.zotero.items.slice(start, start + limit) }));
}

const remote = await fakeRemote();
afterAll(() => new Promise<void>((resolve) => remote.server.close(() => resolve())));
const at = (path: string) => `http://127.0.0.1:${remote.port}${path}`;

async function addSource(client: TestClient, input: Record<string, string>) {
  const response = await client.call(bibSourcesApi.add, input);
  expect(response.status, response.text).toBe(200);
  return response.json<{ source: BibSource }>().source;
}

async function sync(client: TestClient, id: number) {
  const response = await client.call(bibSourcesApi.sync, { id });
  expect(response.status, response.text).toBe(200);
  return response.json<{ source: BibSource }>().source;
}

async function entries(client: TestClient) {
  const response = await client.call(bibliographyApi.list, {
    last_modified: -1,
    number_of_entries: -1,
    user_id: -1,
  });
  expect(response.status, response.text).toBe(200);
  return response.json<{
    bib_list: { id: number; entry_key: string; fields: { title?: { text: string }[] }; cats: number[] }[];
    bib_categories: { id: number; category_title: string }[];
    last_modified: number;
  }>();
}

const titleOf = (entry: { fields: { title?: { text: string }[] } }) =>
  (entry.fields.title ?? []).map((part) => part.text).join('');

describe.each(ENGINES)('bibliography sources (%s)', (engine) => {
  const server = useServer(engine, {
    env: {
      BIB_SOURCES_ALLOW_PRIVATE: '127.0.0.1',
      BIB_SOURCES_MAX_BYTES: '300000',
      BIB_SOURCES_TIME_LIMIT_MS: '1500',
      ZOTERO_API_URL: at('/zotero'),
      API_TOKEN_RATE_LIMIT: '10000',
    },
  });

  it('syncs a BibTeX file: adds, then updates, marks gone (a cited entry is kept), keeps keys; 304 reads nothing', async () => {
    const { browser } = await server().loggedInUser();
    remote.files.set('/refs.bib', { body: BIB_V1, type: 'application/x-bibtex' });
    const source = await addSource(browser, { kind: 'url', title: 'Group refs', url: at('/refs.bib') });
    expect(source.report).toMatchObject({
      added: ['knuth1984', 'lamport1994'],
      updated: [],
      gone: [],
      errors: [],
    });
    expect(source.entries).toBe(2);
    const first = await entries(browser);
    const category = first.bib_categories.find((c) => c.category_title === 'Group refs');
    expect(category?.id).toBe(source.category_id);
    expect(first.bib_list.map((e) => [e.entry_key, e.cats])).toEqual([
      ['knuth1984', [source.category_id]],
      ['lamport1994', [source.category_id]],
    ]);
    const knuthId = first.bib_list.find((e) => e.entry_key === 'knuth1984')!.id;
    const lamportId = first.bib_list.find((e) => e.entry_key === 'lamport1994')!.id;

    // A document cites lamport1994 (through the public API, as a script would).
    const token = (
      await browser.request('POST', '/api/user/tokens/create/', {
        form: {
          name: 't',
          scopes: ['documents:read', 'documents:write', 'bibliography:read'],
          expires_in_days: 7,
        },
      })
    ).json<{ secret: string }>().secret;
    const headers = { authorization: `Bearer ${token}` };
    const created = await fetch(`${server().baseUrl}${v1Api.documentsCreate.path}`, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ title: 'Cites' }),
    });
    const { id: docId } = (await created.json()) as { id: number };
    const appended = await fetch(
      `${server().baseUrl}${v1Api.documentsContent.path.replace(':id', String(docId))}`,
      {
        method: 'POST',
        headers,
        body: new URLSearchParams({ markdown: 'As [@lamport1994] wrote.' }),
      },
    );
    expect(appended.status).toBe(200);
    expect(((await appended.json()) as { unknown_citations: string[] }).unknown_citations).toEqual([]);

    // Unchanged: the conditional request answers 304 and nothing is read or written.
    const again = await sync(browser, source.id);
    expect(again.report).toMatchObject({ not_modified: true, added: [], updated: [], gone: [], errors: [] });
    expect(remote.requests.at(-1)?.headers['if-none-match']).toBeTruthy();
    expect((await entries(browser)).last_modified).toBe(first.last_modified);

    remote.files.set('/refs.bib', { body: BIB_V2, type: 'text/plain' });
    const changed = await sync(browser, source.id);
    expect(changed.report).toMatchObject({
      not_modified: false,
      added: ['dijkstra1968'],
      updated: ['knuth1984'],
      gone: ['lamport1994'],
      errors: [],
    });
    expect(changed).toMatchObject({ entries: 3, gone: 1 });
    const after = await entries(browser);
    const knuth = after.bib_list.find((e) => e.id === knuthId);
    expect(knuth?.entry_key).toBe('knuth1984');
    expect(titleOf(knuth!)).toBe('Literate Programming, revised');
    // The cited entry the source lost is kept (and marked gone in the source's count).
    expect(after.bib_list.find((e) => e.id === lamportId)?.entry_key).toBe('lamport1994');

    // It comes back: marked no more, same entry.
    remote.files.set('/refs.bib', { body: BIB_V1, type: 'text/plain' });
    const back = await sync(browser, source.id);
    expect(back.report).toMatchObject({ updated: ['knuth1984', 'lamport1994'], gone: ['dijkstra1968'] });
    expect((await entries(browser)).bib_list.find((e) => e.entry_key === 'lamport1994')?.id).toBe(lamportId);

    // A redirect to an allowed place is followed; a key the user already has gets a suffix.
    const moved = await addSource(browser, { kind: 'url', title: 'Moved', url: at('/moved.bib') });
    expect(moved.report?.added).toEqual(['knuth1984_2', 'lamport1994_2']);

    const listed = await browser.call(bibSourcesApi.list, {});
    expect(listed.json<{ sources: BibSource[] }>().sources.map((s) => s.title)).toEqual([
      'Group refs',
      'Moved',
    ]);
    expect((await browser.call(bibSourcesApi.remove, { id: moved.id })).status).toBe(200);
    // Removing the source leaves its entries in the bibliography.
    expect((await entries(browser)).bib_list).toHaveLength(5);
    expect((await browser.call(bibSourcesApi.remove, { id: moved.id })).status).toBe(404);
  });

  it('syncs CSL-JSON and a Zotero library in pages, with its library version', async () => {
    const { browser } = await server().loggedInUser();
    remote.files.set('/refs.json', {
      body: JSON.stringify([cslItem(1), cslItem(2)]),
      type: 'application/vnd.citationstyles.csl+json',
    });
    const csl = await addSource(browser, { kind: 'url', title: 'CSL', url: at('/refs.json') });
    expect(csl.report?.added).toHaveLength(2);
    // A BibTeX file a server labels text/html is still the file it holds.
    remote.files.set('/labelled-html.bib', { body: BIB_V2, type: 'text/html; charset=utf-8' });
    const labelled = await addSource(browser, {
      kind: 'url',
      title: 'Labelled',
      url: at('/labelled-html.bib'),
    });
    expect(labelled.report).toMatchObject({ added: ['knuth1984', 'dijkstra1968'], errors: [] });

    remote.zotero.version = 10;
    remote.zotero.items = Array.from({ length: 230 }, (_, i) => cslItem(i + 1));
    remote.zotero.requests.length = 0;
    const wrongKey = await addSource(browser, {
      kind: 'zotero',
      title: 'Wrong key',
      zotero_library: 'group',
      zotero_id: '42',
      zotero_key: 'nope',
    });
    expect(wrongKey.report?.errors).toEqual([{ code: 'zotero_forbidden', entry: null }]);
    expect(wrongKey.entries).toBe(0);

    const lib = await addSource(browser, {
      kind: 'zotero',
      title: 'Zotero group',
      zotero_library: 'group',
      zotero_id: '42',
      zotero_key: 'secret-key',
    });
    expect(lib.has_key).toBe(true);
    expect(JSON.stringify(lib)).not.toContain('secret-key');
    expect(lib.report?.errors).toEqual([]);
    expect(lib.report?.added).toHaveLength(230);
    expect(remote.zotero.requests.slice(-3)).toEqual([
      '/zotero/groups/42/items/top?format=csljson&limit=100&start=0',
      '/zotero/groups/42/items/top?format=csljson&limit=100&start=100',
      '/zotero/groups/42/items/top?format=csljson&limit=100&start=200',
    ]);

    // Not modified since version 10: one request, 304.
    const same = await sync(browser, lib.id);
    expect(same.report?.not_modified).toBe(true);

    remote.zotero.version = 11;
    remote.zotero.items[4] = cslItem(5, 'Paper five, second edition');
    remote.zotero.items.pop();
    const next = await sync(browser, lib.id);
    expect(next.report).toMatchObject({ added: [], errors: [] });
    expect(next.report?.updated).toHaveLength(1);
    expect(next.report?.gone).toHaveLength(1);
    const updatedKey = next.report!.updated[0];
    const list = await entries(browser);
    expect(titleOf(list.bib_list.find((e) => e.entry_key === updatedKey)!)).toBe(
      'Paper five, second edition',
    );

    // A collection of the library.
    remote.zotero.requests.length = 0;
    await addSource(browser, {
      kind: 'zotero',
      title: 'Collection',
      zotero_library: 'user',
      zotero_id: '7',
      zotero_key: 'secret-key',
      zotero_collection: 'ABCD1234',
    });
    expect(remote.zotero.requests[0]).toBe(
      '/zotero/users/7/collections/ABCD1234/items/top?format=csljson&limit=100&start=0',
    );
  });

  it('reports a slow, huge, HTML, private or broken answer and writes nothing of it', async () => {
    const { browser } = await server().loggedInUser();
    remote.files.set('/page.html', {
      body: '<!doctype html><html><body>Sign in</body></html>',
      type: 'text/html',
    });
    remote.files.set('/broken.bib', { body: BROKEN_BIB, type: 'text/plain' });
    const cases: [string, string][] = [
      ['/slow.bib', 'timeout'],
      ['/huge.bib', 'too_large'],
      ['/page.html', 'not_bibliography'],
      ['/to-private.bib', 'private_address'],
      ['/missing.bib', 'http_status'],
    ];
    const before = await entries(browser);
    for (const [path, code] of cases) {
      const source = await addSource(browser, { kind: 'url', title: path, url: at(path) });
      expect(
        source.report?.errors.map((e) => e.code),
        path,
      ).toEqual([code]);
      expect(source.entries).toBe(0);
    }
    const broken = await addSource(browser, { kind: 'url', title: 'Broken', url: at('/broken.bib') });
    expect(broken.report?.errors.length).toBeGreaterThan(0);
    expect(broken.report?.errors[0]).toMatchObject({ code: 'invalid_entries', entry: 'broken2021' });
    expect(broken.report?.added).toEqual([]);
    // Not even the good entry of the broken file: nothing half-written.
    const after = await entries(browser);
    expect(after.bib_list).toEqual([]);
    expect(after.last_modified).toBe(before.last_modified);

    // The server still answers at once (the slow source's socket is gone).
    expect((await browser.call(bibSourcesApi.list, {})).status).toBe(200);

    // Bad input: another scheme, credentials in the URL, a Zotero source without its library.
    for (const input of [
      { kind: 'url', title: 'File', url: 'file:///etc/passwd' },
      { kind: 'url', title: 'Ftp', url: 'ftp://example.org/x.bib' },
      { kind: 'url', title: 'Creds', url: 'http://user:pw@example.org/x.bib' },
      { kind: 'zotero', title: 'Z', zotero_library: 'user' },
    ]) {
      const response = await browser.call(bibSourcesApi.add, input);
      expect(response.status, input.url).toBe(400);
    }
  });

  it('belongs to its owner: another user can neither sync nor remove it; a visitor is refused', async () => {
    const { browser } = await server().loggedInUser();
    const { browser: stranger } = await server().loggedInUser();
    remote.files.set('/refs.bib', { body: BIB_V1, type: 'text/plain' });
    const source = await addSource(browser, { kind: 'url', title: 'Mine', url: at('/refs.bib') });
    expect((await stranger.call(bibSourcesApi.sync, { id: source.id })).status).toBe(404);
    expect((await stranger.call(bibSourcesApi.remove, { id: source.id })).status).toBe(404);
    expect((await stranger.call(bibSourcesApi.list, {})).json<{ sources: unknown[] }>().sources).toEqual([]);
    expect((await server().client().call(bibSourcesApi.list, {})).status).toBe(401);
  });

  it('syncs due sources on the schedule, each once across processes', async () => {
    const { browser } = await server().loggedInUser();
    remote.files.set('/sched.bib', { body: BIB_V1, type: 'text/plain' });
    const source = await addSource(browser, { kind: 'url', title: 'Scheduled', url: at('/sched.bib') });
    remote.files.set('/sched.bib', { body: BIB_V2, type: 'text/plain' });
    const later = Date.now() + 7 * 60 * 60_000;
    const due = (await server().rows('bib_sources')).filter(
      (row) => Number(row.next_sync_at) <= later,
    ).length;
    // Two processes' ticks at once, until nothing is due: each source is claimed by one of them.
    let synced = 0;
    for (;;) {
      const [a, b] = await Promise.all([
        syncDueSources(server().ctx, later),
        syncDueSources(server().ctx, later),
      ]);
      if (a + b === 0) break;
      synced += a + b;
    }
    expect(synced).toBe(due);
    const [row] = await server().rows('bib_sources', { id: source.id });
    expect(JSON.parse(row.report ?? '{}')).toMatchObject({ added: ['dijkstra1968'], updated: ['knuth1984'] });
    expect(Number(row.next_sync_at)).toBeGreaterThan(later);
  });
});

describe.each(ENGINES)('bibliography sources without BIB_SOURCES_ALLOW_PRIVATE (%s)', (engine) => {
  const server = useServer(engine);

  it('refuses loopback and private addresses, by name (resolved) and literal', async () => {
    const { browser } = await server().loggedInUser();
    remote.files.set('/refs.bib', { body: BIB_V1, type: 'text/plain' });
    const seen = remote.requests.length;
    for (const url of [
      `http://localhost:${remote.port}/refs.bib`,
      `http://127.0.0.1:${remote.port}/refs.bib`,
      `http://[::1]:${remote.port}/refs.bib`,
      `http://[::ffff:127.0.0.1]:${remote.port}/refs.bib`,
      'http://169.254.169.254/latest/meta-data/',
      'http://192.168.1.1/refs.bib',
    ]) {
      const response = await browser.call(bibSourcesApi.add, { kind: 'url', title: 'Local', url });
      expect(response.status, response.text).toBe(200);
      expect(response.json<{ source: BibSource }>().source.report?.errors, url).toEqual([
        { code: 'private_address', entry: null },
      ]);
    }
    // Not one request reached the local server.
    expect(remote.requests.length).toBe(seen);
  });
});
