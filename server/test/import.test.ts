import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { importApi } from '@scriptorium/common/api/endpoints/imports';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { exportNative, NATIVE_VERSION } from '@scriptorium/common/exchange/native';
import { EXPORT_FORMATS } from '@scriptorium/common/export/registry';
import { encryptedDocx, reviewDocx, zipBomb } from '@scriptorium/common/import/testing/fixtures';
import {
  emfTextBoxDocx,
  oneAuthorCitationsDocx,
  referenceManagersDocx,
} from '@scriptorium/common/import/testing/word';
import { toolAvailable } from '@scriptorium/common/testing/office-tools';
import { strToU8, unzipSync, zipSync } from 'fflate';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ENGINES, type TestClient, useServer } from './harness';

function importFile(client: TestClient, bytes: Uint8Array, name: string, path = '') {
  return client.call(importApi.document, { path, file: new File([new Uint8Array(bytes)], name) });
}

async function counts(server: ReturnType<ReturnType<typeof useServer>>, ownerId: number) {
  const db = server.ctx.db;
  const count = async (table: 'documents' | 'usermedia_images' | 'bib_entries') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('owner_id', '=', ownerId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    documents: await count('documents'),
    images: await count('usermedia_images'),
    entries: await count('bib_entries'),
  };
}

async function nativeWithImage(): Promise<Uint8Array> {
  const png = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 10, b: 10 } },
  })
    .png()
    .toBuffer();
  return exportNative({
    title: 'Native paper',
    content: {
      type: 'doc',
      attrs: { template: 'standard-article', language: 'en-US', paper_size: 'A4', citationstyle: 'apa' },
      content: [
        { type: 'title', content: [{ type: 'text', text: 'Native paper' }] },
        {
          type: 'richtext_part',
          attrs: {
            id: 'body',
            title: 'Body',
            optional: false,
            hidden: false,
            elements: ['paragraph', 'figure', 'citation'],
            marks: [],
          },
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'Cited ', marks: [{ type: 'comment', attrs: { id: 2 } }] },
                {
                  type: 'citation',
                  attrs: { format: 'autocite', references: [{ id: '77-5', prefix: '', locator: '' }] },
                },
              ],
            },
            {
              type: 'figure',
              attrs: {
                id: 'F1',
                category: 'figure',
                image: 31,
                src: '/media/images/old.png',
                caption: 'Map',
              },
            },
          ],
        },
        {
          type: 'bibliography_part',
          content: [
            {
              type: 'bib_entry',
              attrs: {
                id: '77-5',
                data: {
                  entry_key: 'Roe1999',
                  bib_type: 'book',
                  fields: { title: [{ type: 'text', text: 'A Book' }] },
                  cats: [],
                },
              },
            },
          ],
        },
      ],
    },
    bibliography: [
      {
        key: '77-5',
        data: {
          entry_key: 'Roe1999',
          bib_type: 'book',
          fields: { title: [{ type: 'text', text: 'A Book' }] },
          cats: [],
        },
      },
    ],
    threads: [{ id: 2, resolved: false, comments: [{ author: 'Ann', date: 1000, text: 'Source?' }] }],
    images: [{ key: '31', name: 'map.png', bytes: new Uint8Array(png) }],
  });
}

describe.each(ENGINES)('document import (%s)', (engine) => {
  const server = useServer(engine);

  it('imports a native zip: document, library image, bibliography entry and comment in one go', async () => {
    const { user, browser } = await server().loggedInUser();
    const response = await importFile(browser, await nativeWithImage(), 'paper.zip', '/imports/');
    expect(response.status, response.text).toBe(201);
    const answer = response.json() as {
      id: number;
      path: string;
      title: string;
      notes: unknown[];
      images: number;
      entries: number;
    };
    expect(answer).toMatchObject({
      title: 'Native paper',
      path: '/imports/',
      notes: [],
      images: 1,
      entries: 1,
    });

    const images = (await browser.call(usermediaApi.images)).json() as {
      images: { id: number; image: string; title: string }[];
    };
    expect(images.images).toHaveLength(1);
    expect(images.images[0].title).toBe('map.png');
    const entries = (await browser.call(bibliographyApi.list)).json() as {
      bib_list: { id: number; entry_key: string }[];
    };
    expect(entries.bib_list.map((e) => e.entry_key)).toEqual(['Roe1999']);
    const key = `${user.id}-${entries.bib_list[0].id}`;

    const [row] = await server().rows('documents', { id: answer.id });
    const content = JSON.parse(row.content);
    const bodyPart = content.content[1];
    expect(bodyPart.content[0].content[1].attrs.references).toEqual([{ id: key, prefix: '', locator: '' }]);
    expect(bodyPart.content[1].attrs).toMatchObject({
      image: images.images[0].id,
      src: images.images[0].image,
    });
    expect(content.content[2].content[0].attrs.id).toBe(key);
    const comments = await server().rows('document_comments', { document_id: answer.id });
    expect(comments.map((c) => [c.thread_id, c.user_name, c.text])).toEqual([[2, 'Ann', 'Source?']]);
    expect(await server().rows('document_images', { document_id: answer.id })).toHaveLength(1);
  });

  it.runIf(toolAvailable('pandoc'))(
    'imports a Word file with a Zotero citation into the bibliography',
    async () => {
      const { browser } = await server().loggedInUser();
      const response = await importFile(browser, reviewDocx(), 'Review.docx');
      expect(response.status, response.text).toBe(201);
      expect(response.json()).toMatchObject({ title: 'Review', entries: 1, notes: [] });
      const entries = (await browser.call(bibliographyApi.list)).json() as {
        bib_list: { entry_key: string }[];
      };
      expect(entries.bib_list.map((e) => e.entry_key)).toEqual(['Doe2020']);
    },
  );

  it('imports an EMF logo in a text box as a named placeholder, and the document exports in every format', async () => {
    const { browser } = await server().loggedInUser();
    const response = await importFile(browser, emfTextBoxDocx(), 'Logo.docx');
    expect(response.status, response.text).toBe(201);
    const answer = response.json() as { id: number; notes: unknown[]; images: number };
    expect(answer.images).toBe(0);
    expect(answer.notes).toEqual([{ code: 'unsupported_element', detail: 'EMF image1.emf', count: 1 }]);
    for (const format of Object.keys(EXPORT_FORMATS)) {
      const exported = await browser.call(documentsApi.export, { id: String(answer.id), format });
      expect(exported.status, `${format}: ${exported.text}`).toBe(200);
    }
  });

  it('imports the citations Mendeley, EndNote and Citavi left in a Word file into the bibliography', async () => {
    const { user, browser } = await server().loggedInUser();
    const response = await importFile(browser, referenceManagersDocx(), 'Managers.docx');
    expect(response.status, response.text).toBe(201);
    const answer = response.json() as { id: number };
    expect(response.json()).toMatchObject({ title: 'Managers', entries: 3, notes: [] });
    const entries = (await browser.call(bibliographyApi.list)).json() as {
      bib_list: { id: number; entry_key: string; bib_type: string }[];
    };
    const byKey = Object.fromEntries(entries.bib_list.map((e) => [e.entry_key, e]));
    expect(Object.keys(byKey).sort()).toEqual(['Muster2017', 'Ng2021', 'Park2010']);
    expect(byKey.Muster2017.bib_type).toBe('book');
    const [row] = await server().rows('documents', { id: answer.id });
    const cited = [...row.content.matchAll(/"references":\[\{"id":"([^"]+)"/g)].map((m) => m[1]);
    expect(cited).toEqual(['Ng2021', 'Park2010', 'Muster2017'].map((key) => `${user.id}-${byKey[key].id}`));
  });

  it('stores a citation of 2,000 works of one author and year with keys Doe2020, Doe2020_2, ... after those taken', async () => {
    const { user, browser } = await server().loggedInUser();
    const taken = await browser.call(bibliographyApi.save, {
      is_new: true,
      bibs: {
        '-1': { entry_key: 'doe2020', bib_type: 'book', fields: {}, cats: [] },
        '-2': { entry_key: 'Doe2020_3', bib_type: 'book', fields: {}, cats: [] },
      },
    });
    expect(taken.status, taken.text).toBe(200);
    const response = await importFile(browser, oneAuthorCitationsDocx(2_000), 'Many.docx');
    expect(response.status, response.text).toBe(201);
    expect(response.json()).toMatchObject({ title: 'Many', entries: 2_000, notes: [] });
    const rows = await server()
      .ctx.db.selectFrom('bib_entries')
      .select(['id', 'entry_key', 'fields'])
      .where('owner_id', '=', user.id)
      .orderBy('id')
      .execute();
    const imported = rows.slice(2);
    // Doe2020 and Doe2020_3 were the library's own (case ignored): the import goes around them.
    const expected = ['Doe2020_2', ...Array.from({ length: 1_999 }, (_, index) => `Doe2020_${index + 4}`)];
    expect(imported.map((row) => row.entry_key)).toEqual(expected);
    expect(JSON.parse(imported[1_999].fields).title).toEqual([{ type: 'text', text: 'Study 2000' }]);
    const [document] = await server().rows('documents', { id: (response.json() as { id: number }).id });
    const cited = [...document.content.matchAll(/\{"id":"(\d+-\d+)","prefix"/g)].map((match) => match[1]);
    expect(cited).toEqual(imported.map((row) => `${user.id}-${row.id}`));
  });

  it('refuses bad files with a translated message and creates nothing', async () => {
    const { user, browser } = await server().loggedInUser();
    const future = unzipSync(await nativeWithImage());
    const manifest = JSON.parse(new TextDecoder().decode(future['scriptorium.json']));
    future['scriptorium.json'] = strToU8(JSON.stringify({ ...manifest, version: NATIVE_VERSION + 1 }));
    const cases: [Uint8Array, string, string, number][] = [
      [strToU8('plain text'), 'x.docx', 'corrupt', 400],
      [encryptedDocx(), 'secret.docx', 'encrypted', 400],
      [zipBomb(), 'bomb.docx', 'zip_bomb', 400],
      [zipSync(future), 'future.zip', 'future_version', 400],
    ];
    for (const [bytes, name, code, status] of cases) {
      const response = await importFile(browser, bytes, name);
      expect(response.status, name).toBe(status);
      expect(response.json(), name).toMatchObject({ code });
    }
    const english = await importFile(browser, zipSync(future), 'future.zip');
    expect(english.json()).toEqual({
      code: 'future_version',
      error: 'This file was made by a newer version of Scriptorium. Update Scriptorium to import it.',
    });
    const german = await browser.call(
      importApi.document,
      { path: '', file: new File([zipSync(future)], 'future.zip') },
      { headers: { 'Accept-Language': 'de' } },
    );
    expect(german.json()).toEqual({
      code: 'future_version',
      error:
        'Diese Datei stammt aus einer neueren Version von Scriptorium. Aktualisieren Sie Scriptorium, um sie zu importieren.',
    });
    expect(await counts(server(), user.id)).toEqual({ documents: 0, images: 0, entries: 0 });
  });

  it('refuses a file over 50 MB', async () => {
    const { user, browser } = await server().loggedInUser();
    const response = await importFile(browser, new Uint8Array(50 * 1024 * 1024 + 1), 'huge.docx');
    expect(response.status).toBe(413);
    expect(response.json()).toEqual({
      code: 'too_large',
      error: 'This file is larger than 50 MB and cannot be imported.',
    });
    expect(await counts(server(), user.id)).toEqual({ documents: 0, images: 0, entries: 0 });
  });
});
