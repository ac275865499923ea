import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { compileErrors, validate } from '@readme/openapi-parser';
import type { BibSource } from '@scriptorium/common/api/bib-sources';
import { v1Api } from '@scriptorium/common/api/endpoints/v1';
import type { V1BibEntry } from '@scriptorium/common/api/v1';
import { EXPORT_FORMATS } from '@scriptorium/common/export/registry';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMAT_NAMES, openApiDocument } from '../src/modules/v1/openapi';
import { useDocumentEditors } from './document-editors';
import { ENGINES, useServer } from './harness';
import { shareDocument } from './seed';
import { callV1, OPERATIONS, type Operation, tokenOf } from './v1-support';
import { bodyParagraphStart, waitFor } from './ws-support';

const ARTICLE_CSL = {
  id: 'knuth1984',
  type: 'article-journal',
  title: 'Literate Programming',
  author: [{ family: 'Knuth', given: 'Donald E.' }],
  'container-title': 'The Computer Journal',
  issued: { 'date-parts': [[1984]] },
};

describe.each(ENGINES)('public API v1 (%s)', (engine) => {
  const server = useServer(engine, {
    env: { API_TOKEN_RATE_LIMIT: '10000', BIB_SOURCES_ALLOW_PRIVATE: '127.0.0.1' },
  });
  /** Operations a test has called successfully through a token. */
  const exercised = new Set<Operation>();
  const call = async (...args: Parameters<typeof callV1>) => {
    const answer = await callV1(...args);
    if (args[1] && answer.status === 200) exercised.add(args[2]);
    return answer;
  };

  it('describes itself in a valid OpenAPI 3.1 document that matches the routes', async () => {
    const response = await fetch(`${server().baseUrl}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as ReturnType<typeof openApiDocument>;
    expect(document).toEqual(openApiDocument());
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);

    const described = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        url: path.replace(/\{([a-z_]+)\}/g, ':$1'),
        id: (op as { operationId: string }).operationId,
      })),
    );
    expect(described.map((op) => op.id).sort()).toEqual([...OPERATIONS].sort());
    // Each described operation is a route with its token scope: the scope test below gets
    // insufficient_scope (not token_not_allowed) from every one of them.
    for (const op of described) {
      const target = v1Api[op.id as Operation];
      expect([target.method, target.path]).toEqual([op.method, op.url]);
      expect(target.tokenScope, op.id).toBeDefined();
    }
  });

  it('creates, lists in pages, reads, moves, exports and deletes documents', async () => {
    const { browser } = await server().loggedInUser();
    const token = await tokenOf(browser);
    const created = await call(
      server(),
      token,
      'documentsCreate',
      {},
      { title: 'API paper', path: '/papers/' },
    );
    expect(created.status).toBe(200);
    const { id, path } = created.json<{ id: number; path: string }>();
    expect(path).toBe('/papers/');
    const more: number[] = [];
    for (const title of ['Second', 'Third']) {
      more.push((await call(server(), token, 'documentsCreate', {}, { title })).json<{ id: number }>().id);
    }

    const first = await call(server(), token, 'documentsList', {}, { limit: 2 });
    expect(first.status).toBe(200);
    const page1 = first.json<{ documents: { id: number; title: string }[]; next_cursor: string | null }>();
    expect(page1.documents.map((doc) => doc.id)).toEqual([id, more[0]]);
    expect(page1.next_cursor).toBe(String(more[0]));
    const second = await call(
      server(),
      token,
      'documentsList',
      {},
      { limit: 2, cursor: page1.next_cursor ?? '' },
    );
    expect(second.json()).toEqual({
      documents: [expect.objectContaining({ id: more[1] })],
      next_cursor: null,
    });

    const read = await call(server(), token, 'documentsGet', { id });
    expect(read.status).toBe(200);
    const body = read.json<{ document: { title: string; path: string }; content: { type: string } }>();
    expect(body.document).toEqual(expect.objectContaining({ id, title: 'API paper', path: '/papers/' }));
    expect(body.content.type).toBe('doc');

    const moved = await call(server(), token, 'documentsMove', { id }, { path: '/archive/' });
    expect(moved.status).toBe(200);
    expect(moved.json()).toEqual({ done: true });
    const [row] = await server().rows('documents', { id });
    expect(row.path).toBe('/archive/');

    expect((await call(server(), token, 'documentsExport', { id, format: 'doc' })).status).toBe(404);

    const deleted = await call(server(), token, 'documentsDelete', { id });
    expect(deleted.status).toBe(200);
    expect(deleted.json()).toEqual({ deleted: [id], left: [] });
    expect(await server().rows('documents', { id })).toEqual([]);
    expect((await call(server(), token, 'documentsGet', { id })).status).toBe(404);
  });

  it.each(EXPORT_FORMAT_NAMES)('exports a document as %s', async (format) => {
    const { browser } = await server().loggedInUser();
    const token = await tokenOf(browser, ['documents:read', 'documents:write']);
    const created = await call(server(), token, 'documentsCreate', {}, { title: 'API paper' });
    const { id } = created.json<{ id: number }>();
    const file = await call(server(), token, 'documentsExport', { id, format });
    expect(file.status, format).toBe(200);
    const mime =
      format === 'pdf' ? 'application/pdf' : EXPORT_FORMATS[format as keyof typeof EXPORT_FORMATS].mime;
    expect(file.headers.get('content-type'), format).toBe(mime);
    const magic = new TextDecoder().decode(file.bytes.slice(0, 4));
    expect(magic, format).toBe(
      ({ pdf: '%PDF', markdown: '---\n' } as Record<string, string>)[format] ?? 'PK\u0003\u0004',
    );
    expect(file.headers.get('content-disposition'), format).toContain('API paper');
  });

  it('adds, lists, reads, updates and deletes bibliography entries as CSL-JSON', async () => {
    const { user, browser } = await server().loggedInUser();
    const token = await tokenOf(browser, ['bibliography:read', 'bibliography:write']);
    const added = await call(server(), token, 'bibliographyAdd', {}, { csl: JSON.stringify(ARTICLE_CSL) });
    expect(added.status).toBe(200);
    const entry = added.json<{ entry: V1BibEntry }>().entry;
    expect(entry.key).toBe('knuth1984');
    expect(entry.csl).toEqual(
      // The converter keeps titles in sentence case (its CSL export case-folds them).
      expect.objectContaining({ id: 'knuth1984', type: 'article-journal', title: 'Literate programming' }),
    );
    expect(entry.csl.author).toEqual([{ family: 'Knuth', given: 'Donald E.' }]);
    const [row] = await server().rows('bib_entries', { id: entry.id });
    expect(row.owner_id).toBe(user.id);

    const second = await call(
      server(),
      token,
      'bibliographyAdd',
      {},
      {
        csl: JSON.stringify({ ...ARTICLE_CSL, id: 'lamport1994', title: 'LaTeX' }),
      },
    );
    const secondId = second.json<{ entry: V1BibEntry }>().entry.id;
    const page = await call(server(), token, 'bibliographyList', {}, { limit: 1 });
    expect(page.status).toBe(200);
    const listed = page.json<{ entries: V1BibEntry[]; next_cursor: string | null }>();
    expect(listed.entries).toEqual([entry]);
    expect(listed.next_cursor).toBe(String(entry.id));
    const rest = await call(server(), token, 'bibliographyList', {}, { cursor: String(entry.id) });
    expect(rest.json<{ entries: V1BibEntry[] }>().entries.map((e) => e.id)).toEqual([secondId]);

    const got = await call(server(), token, 'bibliographyGet', { id: entry.id });
    expect(got.json()).toEqual({ entry });

    const updated = await call(
      server(),
      token,
      'bibliographyUpdate',
      { id: entry.id },
      {
        csl: JSON.stringify({ ...ARTICLE_CSL, title: 'Literate Programming, revised' }),
      },
    );
    expect(updated.status).toBe(200);
    expect(updated.json<{ entry: V1BibEntry }>().entry.csl.title).toBe('Literate programming, revised');

    for (const bad of ['not json', '[]', JSON.stringify([ARTICLE_CSL, ARTICLE_CSL]), '{}']) {
      const refused = await call(server(), token, 'bibliographyAdd', {}, { csl: bad });
      expect(refused.status, bad).toBe(400);
    }
    expect(await server().rows('bib_entries', { owner_id: user.id })).toHaveLength(2);

    const deleted = await call(server(), token, 'bibliographyDelete', { id: entry.id });
    expect(deleted.status).toBe(200);
    expect(deleted.json()).toEqual({ ok: true });
    expect((await call(server(), token, 'bibliographyGet', { id: entry.id })).status).toBe(404);
  });

  it('uploads, lists and deletes images', async () => {
    const { user, browser } = await server().loggedInUser();
    const token = await tokenOf(browser, ['images:read', 'images:write']);
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    const upload = async (file: Uint8Array<ArrayBuffer>, name: string) => {
      const form = new FormData();
      form.append('title', 'Red square');
      form.append('image', new Blob([file]), name);
      const response = await fetch(`${server().baseUrl}/api/v1/images/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      if (response.status === 200) exercised.add('imagesUpload');
      return response;
    };
    const uploaded = await upload(png, 'red.png');
    expect(uploaded.status).toBe(200);
    const { image } = (await uploaded.json()) as { image: { id: number; title: string; width: number } };
    expect(image).toEqual(expect.objectContaining({ title: 'Red square', width: 4, height: 3 }));
    const refused = await upload(new TextEncoder().encode('not an image'), 'fake.png');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBeTypeOf('string');

    const listed = await call(server(), token, 'imagesList');
    expect(listed.status).toBe(200);
    expect(listed.json()).toEqual({ images: [expect.objectContaining({ id: image.id })], next_cursor: null });

    const deleted = await call(server(), token, 'imagesDelete', { id: image.id });
    expect(deleted.status).toBe(200);
    expect(await server().rows('usermedia_images', { owner_id: user.id })).toEqual([]);
    expect((await call(server(), token, 'imagesDelete', { id: image.id })).status).toBe(404);
  });

  it('answers every operation 401 without a valid token and 403 out of scope', async () => {
    const { browser } = await server().loggedInUser();
    const imagesOnly = await tokenOf(browser, ['images:read', 'images:write']);
    const bibliographyOnly = await tokenOf(browser, ['bibliography:read', 'bibliography:write']);
    const revokedToken = await tokenOf(browser);
    const tokens = (await browser.request('POST', '/api/user/tokens/list/')).json<{
      tokens: { id: number }[];
    }>();
    const revoked = await browser.request('POST', '/api/user/tokens/revoke/', {
      form: { id: Math.max(...tokens.tokens.map((t) => t.id)) },
    });
    expect(revoked.status).toBe(200);
    for (const operation of OPERATIONS) {
      const params = { id: 1, format: 'docx' };
      // Anonymous: a read is 401; an unsafe call without token or cookies fails the app's CSRF
      // check first (403), as it would in the app.
      const anonymous = await callV1(server(), null, operation, params);
      expect([anonymous.status, anonymous.json().error], operation).toEqual(
        v1Api[operation].method === 'GET' ? [401, 'unauthorized'] : [403, 'csrf_failed'],
      );
      expect((await callV1(server(), 'scr_wrong', operation, params)).status, operation).toBe(401);
      expect((await callV1(server(), revokedToken, operation, params)).status, operation).toBe(401);
      const otherArea = v1Api[operation].tokenScope?.startsWith('images') ? bibliographyOnly : imagesOnly;
      const outOfScope = await callV1(server(), otherArea, operation, params);
      expect(outOfScope.status, operation).toBe(403);
      expect(outOfScope.json(), operation).toEqual({
        error: 'insufficient_scope',
        message: `The access token lacks the scope ${v1Api[operation].tokenScope}.`,
      });
    }
  });

  it("never shows or changes a stranger's documents and entries", async () => {
    const owner = await server().loggedInUser();
    const ownerToken = await tokenOf(owner.browser);
    const stranger = await server().loggedInUser();
    const strangerToken = await tokenOf(stranger.browser);
    const doc = (await callV1(server(), ownerToken, 'documentsCreate', {}, { title: 'Mine' })).json<{
      id: number;
    }>();
    const entry = (
      await callV1(server(), ownerToken, 'bibliographyAdd', {}, { csl: JSON.stringify(ARTICLE_CSL) })
    ).json<{ entry: V1BibEntry }>().entry;

    const csl = { csl: JSON.stringify({ ...ARTICLE_CSL, title: 'Stolen' }) };
    const attempts: Array<[Operation, Record<string, string | number>, Record<string, string>?]> = [
      ['documentsGet', { id: doc.id }],
      ['documentsMove', { id: doc.id }, { path: '/stolen/' }],
      ['documentsContent', { id: doc.id }, { markdown: 'Stolen' }],
      ['documentsExport', { id: doc.id, format: 'html' }],
      ['documentsDelete', { id: doc.id }],
      ['bibliographyGet', { id: entry.id }],
      ['bibliographyUpdate', { id: entry.id }, csl],
      ['bibliographyDelete', { id: entry.id }],
      ['imagesDelete', { id: entry.id }],
    ];
    for (const [operation, params, fields] of attempts) {
      expect((await callV1(server(), strangerToken, operation, params, fields)).status, operation).toBe(404);
    }
    const lists = await callV1(server(), strangerToken, 'documentsList');
    expect(lists.json()).toEqual({ documents: [], next_cursor: null });
    expect((await callV1(server(), strangerToken, 'bibliographyList')).json()).toEqual({
      entries: [],
      next_cursor: null,
    });
    const [docRow] = await server().rows('documents', { id: doc.id });
    expect(docRow.path).toBe('');
    const [entryRow] = await server().rows('bib_entries', { id: entry.id });
    expect(entryRow.fields).toContain('Literate');
    expect(entryRow.fields).not.toContain('Stolen');
    // The owner's browser session reaches the same endpoints (cookie and CSRF token).
    const own = await owner.browser.call(v1Api.documentsGet, { id: String(doc.id) });
    expect(own.status).toBe(200);
  });

  const editors = useDocumentEditors(server);

  it('writes Markdown and JSON into a document through the collaboration server: an open editor sees it live', async () => {
    const { user, browser } = await server().loggedInUser();
    const token = await tokenOf(browser);
    const { id } = (await call(server(), token, 'documentsCreate', {}, { title: 'Live' })).json<{
      id: number;
    }>();
    const entry = (
      await call(server(), token, 'bibliographyAdd', {}, { csl: JSON.stringify(ARTICLE_CSL) })
    ).json<{ entry: V1BibEntry }>().entry;
    const editor = await editors.open(browser, id);
    const relayed = editor.next((message) => message.type === 'diff');

    const markdown = '# Results\n\nAs @knuth1984 showed, $x^2$ holds[^1] [@nobody].\n\n[^1]: A note.\n';
    const appended = await call(server(), token, 'documentsContent', { id }, { markdown });
    expect(appended.status, appended.json().message as string).toBe(200);
    expect(appended.json()).toEqual({
      version: expect.any(Number),
      unknown_citations: ['nobody'],
      unknown_images: [],
    });
    await relayed;
    await waitFor(() => editor.version === appended.json<{ version: number }>().version, 'the relayed steps');
    const doc = editor.state?.doc;
    expect(doc?.textContent).toContain('Results');
    expect(doc?.textContent).toContain('[@nobody]');
    const cited: string[] = [];
    doc?.descendants((node) => {
      if (node.type.name === 'citation') cited.push(node.attrs.references[0].id);
      if (node.type.name === 'bib_entry') cited.push(`entry ${node.attrs.id} ${node.attrs.data.entry_key}`);
      return true;
    });
    expect(cited).toEqual([`${user.id}-${entry.id}`, `entry ${user.id}-${entry.id} knuth1984`]);
    // The editor keeps typing on top: its diff is made on the API's version and confirmed.
    editor.edit((tr) => tr.insertText('Typed. ', bodyParagraphStart(tr.doc)));
    await editor.settled();

    const renamed = await call(server(), token, 'documentsRename', { id }, { title: 'Renamed by a script' });
    expect(renamed.status).toBe(200);
    await waitFor(() => editor.state?.doc.firstChild?.textContent === 'Renamed by a script', 'the title');
    const [row] = await server().rows('documents', { id });
    expect(row.title).toBe('Renamed by a script');

    const exported = await call(server(), token, 'documentsExport', { id, format: 'markdown' });
    const text = new TextDecoder().decode(exported.bytes);
    expect(text).toContain('title: "Renamed by a script"');
    expect(text).toContain('# 1 Results');
    expect(text).toContain('As @knuth1984 showed, $x^2$ holds[^1] \\[\\@nobody\\].');
    expect(text).toContain('[^1]: A note.');

    const blocks = JSON.stringify([{ type: 'paragraph', content: [{ type: 'text', text: 'Only this.' }] }]);
    const replaced = await call(
      server(),
      token,
      'documentsContent',
      { id },
      { mode: 'replace', content: blocks },
    );
    expect(replaced.status).toBe(200);
    await waitFor(() => editor.version === replaced.json<{ version: number }>().version, 'the replacement');
    expect(editor.state?.doc.textContent).toContain('Only this.');
    expect(editor.state?.doc.textContent).not.toContain('Results');
    const read = (await call(server(), token, 'documentsGet', { id })).json<{ content: unknown }>();
    expect(read.content).toEqual(editor.state?.doc.toJSON());
  });

  it('refuses content it cannot read or may not write, and changes nothing', async () => {
    const owner = await server().loggedInUser();
    const token = await tokenOf(owner.browser);
    const { id } = (await call(server(), token, 'documentsCreate', {}, { title: 'Kept' })).json<{
      id: number;
    }>();
    const before = await server().rows('documents', { id });
    const invalid = {
      error: 'invalid_content',
      message: 'The content is neither Markdown nor a ProseMirror JSON document or block list of this site.',
    };
    const refusedFields: Record<string, string>[] = [
      {},
      { markdown: 'x', content: '[]' },
      { content: 'not json' },
      { content: JSON.stringify([{ type: 'richtext_part' }]) },
      { content: JSON.stringify({ type: 'doc', content: [] }) },
    ];
    for (const fields of refusedFields) {
      const answer = await call(server(), token, 'documentsContent', { id }, fields);
      expect([answer.status, answer.json()], JSON.stringify(fields)).toEqual([400, invalid]);
    }
    const javascript = await call(
      server(),
      token,
      'documentsContent',
      { id },
      { markdown: '[x](javascript:alert(1))' },
    );
    expect(javascript.status).toBe(200);
    // markdown-it makes no link of it: the text stays as written. As JSON, the link is refused.
    const stored = JSON.stringify((await call(server(), token, 'documentsGet', { id })).json());
    expect(stored).toContain('[x](javascript:alert(1))');
    expect(stored).not.toContain('"href"');
    const link = [
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
        ],
      },
    ];
    const unsafe = await call(server(), token, 'documentsContent', { id }, { content: JSON.stringify(link) });
    expect([unsafe.status, unsafe.json().error]).toEqual([400, 'unsafe_link']);
    const tooLong = await call(server(), token, 'documentsRename', { id }, { title: 'x'.repeat(256) });
    expect(tooLong.status).toBe(400);

    const reader = await server().loggedInUser();
    await shareDocument(server().ctx.db, id, { userId: reader.user.id }, 'comment');
    const readerToken = await tokenOf(reader.browser);
    const refused = await callV1(server(), readerToken, 'documentsContent', { id }, { markdown: 'Mine.' });
    expect([refused.status, refused.json()]).toEqual([
      403,
      {
        error: 'rights',
        message:
          'Only the owner and users who may write or suggest changes may change the content through the API.',
      },
    ]);
    const stranger = await server().loggedInUser();
    const strangerToken = await tokenOf(stranger.browser);
    expect(
      (await callV1(server(), strangerToken, 'documentsRename', { id }, { title: 'Stolen' })).status,
    ).toBe(404);
    const [after] = await server().rows('documents', { id });
    expect(after.title).toBe(before[0].title);
    expect(after.content).not.toContain('Mine.');
  });

  it("writes a write-tracked user's content as their suggestions, which open editors see", async () => {
    const { browser } = await server().loggedInUser();
    const token = await tokenOf(browser);
    const { id } = (await call(server(), token, 'documentsCreate', {}, { title: 'Reviewed' })).json<{
      id: number;
    }>();
    const tracked = await server().loggedInUser();
    await shareDocument(server().ctx.db, id, { userId: tracked.user.id }, 'write-tracked');
    const trackedToken = await tokenOf(tracked.browser);
    const editor = await editors.open(browser, id);
    const relayed = editor.next((message) => message.type === 'diff');
    const answer = await callV1(
      server(),
      trackedToken,
      'documentsContent',
      { id },
      { markdown: 'A suggestion.' },
    );
    expect(answer.status, answer.json().message as string).toBe(200);
    await relayed;
    await waitFor(() => editor.version === answer.json<{ version: number }>().version, 'the relayed steps');
    const marks: { type: string; user: number; text: string }[] = [];
    editor.state?.doc.descendants((node) => {
      if (node.isText)
        for (const mark of node.marks)
          if (mark.type.name === 'insertion')
            marks.push({ type: mark.type.name, user: mark.attrs.user as number, text: node.text ?? '' });
      return true;
    });
    expect(marks.map((m) => m.text).join('')).toContain('A suggestion.');
    expect(new Set(marks.map((m) => m.user))).toEqual(new Set([tracked.user.id]));
  });

  it('imports a BibTeX file, exports the bibliography as BibTeX, and keeps categories', async () => {
    const { user, browser } = await server().loggedInUser();
    const token = await tokenOf(browser, ['bibliography:read', 'bibliography:write']);
    const bibtex = [
      '@string{tcj = "The Computer Journal"}',
      '@article{knuth1984, author = {Knuth, Donald E.}, title = {Literate {P}rogramming},',
      '  journal = tcj, year = 1984, pages = {97--111}}',
      '@book{lamport1994, author = {Lamport, Leslie}, title = {{\\LaTeX}: A Document Preparation System},',
      '  publisher = {Addison-Wesley}, year = 1994}',
    ].join('\n');
    const imported = await call(server(), token, 'bibliographyImport', {}, { text: bibtex });
    expect(imported.status, imported.json().message as string).toBe(200);
    const { entries } = imported.json<{ entries: V1BibEntry[] }>();
    expect(entries.map((entry) => entry.key)).toEqual(['knuth1984', 'lamport1994']);
    expect(entries[0].csl['container-title']).toBe('The Computer Journal');
    expect(await server().rows('bib_entries', { owner_id: user.id })).toHaveLength(2);
    const nothing = await call(server(), token, 'bibliographyImport', {}, { text: 'no entries here' });
    expect(nothing.json<{ entries: unknown[] }>().entries).toEqual([]);

    const file = await call(server(), token, 'bibliographyExportBibtex');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/x-bibtex; charset=utf-8');
    const text = new TextDecoder().decode(file.bytes);
    expect(text).toMatch(/@article\{knuth1984,/);
    expect(text).toMatch(/@book\{lamport1994,/);

    const added = await call(server(), token, 'bibliographyCategoryAdd', {}, { title: 'Typesetting' });
    expect(added.status).toBe(200);
    const { category } = added.json<{ category: { id: number; title: string } }>();
    expect(category.title).toBe('Typesetting');
    expect((await call(server(), token, 'bibliographyCategories')).json()).toEqual({
      categories: [category],
    });
    expect((await call(server(), token, 'bibliographyCategoryAdd', {}, { title: '' })).status).toBe(400);
    const gone = await call(server(), token, 'bibliographyCategoryDelete', { id: category.id });
    expect(gone.json()).toEqual({ ok: true });
    expect((await call(server(), token, 'bibliographyCategories')).json()).toEqual({ categories: [] });
    expect((await call(server(), token, 'bibliographyCategoryDelete', { id: category.id })).status).toBe(404);
  });

  it("shares a document with the owner's contacts, and only with them", async () => {
    const owner = await server().loggedInUser();
    const token = await tokenOf(owner.browser);
    const coauthor = await server().loggedInUser();
    const stranger = await server().loggedInUser();
    const now = Date.now();
    await server()
      .ctx.db.insertInto('contacts')
      .values([
        { user_id: owner.user.id, contact_id: coauthor.user.id, created_at: now },
        { user_id: coauthor.user.id, contact_id: owner.user.id, created_at: now },
      ])
      .execute();
    const { id } = (await call(server(), token, 'documentsCreate', {}, { title: 'Shared' })).json<{
      id: number;
    }>();
    expect((await call(server(), token, 'documentsAccess', { id })).json()).toEqual({ access: [] });
    const grant = (userId: number, rights: string) =>
      JSON.stringify([{ holder_type: 'user', holder_id: userId, rights }]);
    const shared = await call(
      server(),
      token,
      'documentsShare',
      { id },
      { access: grant(coauthor.user.id, 'comment') },
    );
    expect(shared.json()).toEqual({ done: true });
    expect((await call(server(), token, 'documentsAccess', { id })).json()).toEqual({
      access: [
        expect.objectContaining({ holder_type: 'user', holder_id: coauthor.user.id, rights: 'comment' }),
      ],
    });
    const refused = await call(
      server(),
      token,
      'documentsShare',
      { id },
      { access: grant(stranger.user.id, 'write') },
    );
    expect(refused.status).toBe(400);
    // Only the owner sees and sets the rights.
    const coauthorToken = await tokenOf(coauthor.browser);
    expect((await callV1(server(), coauthorToken, 'documentsAccess', { id })).status).toBe(403);
    expect(
      (
        await callV1(
          server(),
          coauthorToken,
          'documentsShare',
          { id },
          { access: grant(coauthor.user.id, 'write') },
        )
      ).status,
    ).toBe(403);
    expect(await server().rows('document_access', { document_id: id })).toEqual([
      expect.objectContaining({ user_id: coauthor.user.id, rights: 'comment' }),
    ]);
  });

  it('links, lists, syncs and unlinks a bibliography source; a stranger reaches none of it', async () => {
    const remote = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-bibtex' });
      response.end(
        '@book{knuth1984, author = {Knuth, Donald E.}, title = {Literate Programming}, year = {1984}}\n',
      );
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    try {
      const { browser } = await server().loggedInUser();
      const token = await tokenOf(browser);
      const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/refs.bib`;
      const added = await call(
        server(),
        token,
        'bibliographySourceAdd',
        {},
        { kind: 'url', title: 'Lab', url },
      );
      const source = added.json<{ source: BibSource }>().source;
      expect(source).toMatchObject({ kind: 'url', title: 'Lab', url, entries: 1 });
      expect(source.report).toMatchObject({ added: ['knuth1984'], errors: [] });
      const listed = await call(server(), token, 'bibliographySources');
      expect(listed.json<{ sources: BibSource[] }>().sources.map((s) => s.id)).toEqual([source.id]);
      const synced = await call(server(), token, 'bibliographySourceSync', { id: source.id });
      expect(synced.json<{ source: BibSource }>().source.report).toMatchObject({
        added: [],
        updated: [],
        gone: [],
      });

      const stranger = await tokenOf((await server().loggedInUser()).browser);
      expect((await callV1(server(), stranger, 'bibliographySourceSync', { id: source.id })).status).toBe(
        404,
      );
      expect((await callV1(server(), stranger, 'bibliographySourceDelete', { id: source.id })).status).toBe(
        404,
      );
      expect((await callV1(server(), stranger, 'bibliographySources')).json()).toEqual({ sources: [] });
      const reader = await tokenOf(browser, ['bibliography:read']);
      const refused = await callV1(
        server(),
        reader,
        'bibliographySourceAdd',
        {},
        { kind: 'url', title: 'X', url },
      );
      expect(refused.status).toBe(403);

      expect((await call(server(), token, 'bibliographySourceDelete', { id: source.id })).status).toBe(200);
      expect((await callV1(server(), token, 'bibliographySources')).json()).toEqual({ sources: [] });
    } finally {
      await new Promise<void>((resolve) => remote.close(() => resolve()));
    }
  });

  it('has exercised every operation of the OpenAPI document through a token', () => {
    expect([...exercised].sort()).toEqual([...OPERATIONS].sort());
  });
});
