import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { booksApi, templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import type { DocDataMessage } from '@scriptorium/common/ws/document-messages';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { BooksTables } from '../src/plugins/books/queries';
import type { TemplatesTables } from '../src/plugins/templates/queries';
import { DocumentClient } from '../src/ws/document-client';
import { TestClient, type TestServer, type TestUser } from './harness';
import { bodyParagraphStart, cookieHeader, waitFor, wsUrlBase } from './ws-support';

// A small but whole site for the tests that move one (migrate, backup, restore): every kind of
// row the application writes, made through the API and the websocket where users make them.

/** What the server environment of a seeded site needs: both plugins, so their tables have rows. */
export const SITE_ENV = { PLUGINS: 'templates,books' };

export interface SeededSite {
  ada: TestUser;
  emmy: TestUser;
  /** Ada's browser: its session cookie is a row of the site (sessions) and works after a move. */
  adaBrowser: TestClient;
  documentId: number;
}

/** The document socket of `browser` on the server at `baseUrl`, open, with its first doc_data. */
export async function openEditor(baseUrl: string, browser: TestClient, documentId: number) {
  const client = new DocumentClient({
    wsUrlBase: wsUrlBase(baseUrl),
    documentId,
    headers: { cookie: cookieHeader(browser), origin: baseUrl },
  });
  const data = await client.open();
  return { client, data };
}

/** Users, contacts, a bibliography, an image, a document with steps, comments and a revision, a template, a book. */
export async function seedSite(server: TestServer): Promise<SeededSite> {
  const { user: ada, browser: adaBrowser } = await server.loggedInUser({
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
  const { user: emmy, browser: emmyBrowser } = await server.loggedInUser({
    firstName: 'Émilie',
    lastName: 'du Châtelet',
  });
  expect((await adaBrowser.call(contactsApi.invite, { user_string: emmy.username })).status).toBe(201);
  const invites = (await emmyBrowser.call(contactsApi.list)).json<{ contacts: { id: number }[] }>().contacts;
  expect((await emmyBrowser.call(contactsApi.accept, { invites: [{ id: invites[0].id }] })).status).toBe(200);

  const bibs = await adaBrowser.call(bibliographyApi.save, {
    is_new: true,
    bibs: {
      '-1': {
        entry_key: 'noether1921',
        bib_type: 'article',
        fields: { title: [{ type: 'text', text: 'Idealtheorie in Ringbereichen' }], date: '1921' },
        cats: [],
      },
      '-2': {
        entry_key: 'lovelace1843',
        bib_type: 'article',
        fields: { title: [{ type: 'text', text: 'Notes by the translator' }], date: '1843' },
        cats: [],
      },
    },
  });
  expect(bibs.status, bibs.text).toBe(200);

  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#a03' } })
    .png()
    .toBuffer();
  const upload = await adaBrowser.call(usermediaApi.save, {
    title: 'Analytical engine',
    image: new File([new Uint8Array(png)], 'engine.png', { type: 'image/png' }),
  });
  expect(upload.status, upload.text).toBe(201);

  const created = await adaBrowser.call(documentsApi.create, { title: 'On the engine' });
  expect(created.status, created.text).toBe(200);
  const documentId = created.json<{ id: number }>().id;
  await server.ctx.db
    .insertInto('document_access')
    .values({
      document_id: documentId,
      user_id: emmy.id,
      invite_id: null,
      rights: 'write',
      path: '',
      created_at: 1,
    })
    .execute();
  const adaEditor = await openEditor(server.baseUrl, adaBrowser, documentId);
  const emmyEditor = await openEditor(server.baseUrl, emmyBrowser, documentId);
  try {
    // Each word goes in front: one diff each, so the document has a history of steps.
    for (const word of ['patterns.', 'algebraic ', 'weaves ', 'engine ', 'The ']) {
      adaEditor.client.edit((tr) => tr.insertText(word, bodyParagraphStart(tr.doc)));
      await adaEditor.client.settled();
    }
    // Émilie writes on the text she has seen whole: her edit lands where she meant it.
    await waitFor(() => emmyEditor.client.version === adaEditor.client.version, 'the relayed steps');
    emmyEditor.client.edit((tr) => tr.insertText('Indeed: ', bodyParagraphStart(tr.doc)));
    await emmyEditor.client.settled();
    await adaEditor.client.review({ type: 'thread_create', thread: 7, text: 'Cite Menabrea here?' });
    await emmyEditor.client.review({ type: 'comment_answer', thread: 7, text: 'Yes, his 1842 paper.' });
    await adaEditor.client.review({ type: 'revision_save', name: 'First draft' });
  } finally {
    adaEditor.client.close();
    emmyEditor.client.close();
  }

  const plugins = server.ctx.db.withTables<TemplatesTables & BooksTables>();
  await plugins
    .insertInto('document_templates')
    .values({ owner_id: ada.id, title: 'Thesis', updated: 2 })
    .execute();
  await plugins
    .insertInto('books')
    .values({ owner_id: ada.id, title: 'Collected notes', updated: 5 })
    .execute();
  return { ada, emmy, adaBrowser, documentId };
}

/**
 * What the site answers Ada (with the cookies of her browser, so her session must have moved
 * too): her documents, bibliography, images, contacts, templates and books through the API, and
 * the document's content, version and comments through its socket.
 */
export async function siteAnswers(baseUrl: string, site: SeededSite): Promise<Record<string, unknown>> {
  const browser = new TestClient(baseUrl);
  for (const [name, value] of site.adaBrowser.cookies) browser.cookies.set(name, value);
  const answers: Record<string, unknown> = {};
  const calls = {
    documents: () => browser.call(documentsApi.list),
    bibliography: () =>
      browser.call(bibliographyApi.list, { last_modified: -1, number_of_entries: -1, user_id: -1 }),
    images: () => browser.call(usermediaApi.images),
    contacts: () => browser.call(contactsApi.list),
    templates: () => browser.call(templatesApi.list),
    books: () => browser.call(booksApi.list),
  };
  for (const [name, call] of Object.entries(calls)) {
    const response = await call();
    expect(response.status, `${name}: ${response.text}`).toBe(200);
    answers[name] = response.json();
  }
  const editor = await openEditor(baseUrl, browser, site.documentId);
  try {
    const data: DocDataMessage = editor.data;
    answers.document = { doc: data.doc, access_right: data.access_right, is_owner: data.is_owner };
    const revisions = await editor.client.review({ type: 'revisions_list' });
    answers.revisions = { ...revisions, rid: undefined };
  } finally {
    editor.client.close();
  }
  return answers;
}
