import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { importApi } from '@scriptorium/common/api/endpoints/imports';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { saveImageResponse } from '@scriptorium/common/api/usermedia';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ENGINES, type TestClient, type TestServer, useServer } from './harness';
import { shareDocument } from './seed';

/**
 * Issue 19: GET /api/documents/<id>/export/<format>/ answers the document as a file to anyone
 * who may read it, named after the title, on both engines.
 */

const person = (server: TestServer) => server.loggedInUser();

async function exportCall(browser: TestClient, id: number, format: string) {
  return browser.call(documentsApi.export, { id: String(id), format });
}

/** Exports the document as `format`, expects 200 with these headers, and unzips the answer. */
async function exportedFiles(
  browser: TestClient,
  id: number,
  format: string,
  expected: { type: string; disposition: string },
) {
  const response = await exportCall(browser, id, format);
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toBe(expected.type);
  expect(response.headers.get('content-disposition')).toBe(expected.disposition);
  return unzipSync(response.bytes);
}

describe.each(ENGINES)('document export API (%s)', (engine) => {
  const server = useServer(engine);

  /** The fixture paper as the owner's document, its first figure an image of the owner's library. */
  async function paperDocument(owner: TestClient, ownerId: number, title: string): Promise<number> {
    const created = await owner.call(documentsApi.create, {});
    const id = created.json<{ id: number }>().id;
    const paper = fixturePaper(undefined, title);
    const upload = await owner.call(usermediaApi.save, {
      title: 'Stripes',
      image: new File(
        [new Uint8Array(paper.input.images[Object.keys(paper.input.images)[0]].data)],
        'stripes.png',
        {
          type: 'image/png',
        },
      ),
    });
    expect(upload.status, upload.text).toBe(201);
    const src = saveImageResponse.parse(upload.json()).values?.image ?? '';
    const content = JSON.stringify(paper.doc.toJSON()).replace(Object.keys(paper.input.images)[0], src);
    const db = server().ctx.db;
    await db
      .updateTable('documents')
      .set({ content, content_version: 0, version: 0, title })
      .where('id', '=', id)
      .execute();
    await db
      .insertInto('document_threads')
      .values({
        document_id: id,
        thread_id: 501,
        user_id: ownerId,
        resolved: 0,
        assigned_to: null,
        created_at: 1,
      })
      .execute();
    await db
      .insertInto('document_comments')
      .values({
        document_id: id,
        thread_id: 501,
        user_id: ownerId,
        user_name: 'Ada Lovelace',
        text: 'Please check this claim.',
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    return id;
  }

  /** The paper "Structures of Example Problems" exported as DOCX or ODT, answered as a file of that name and type. */
  async function examplePaperAs(format: 'docx' | 'odt', type: string) {
    const owner = await person(server());
    const id = await paperDocument(owner.browser, owner.user.id, 'Structures of Example Problems');
    return exportedFiles(owner.browser, id, format, {
      type,
      disposition: `attachment; filename="Structures of Example Problems.${format}"; filename*=UTF-8''Structures%20of%20Example%20Problems.${format}`,
    });
  }

  it('answers a DOCX named after the title with the content, math, image and comments', async () => {
    const files = await examplePaperAs(
      'docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const document = strFromU8(files['word/document.xml']);
    expect(document).toContain('Section 1 on structures');
    expect(document.match(/<m:oMath>/g)?.length).toBe(10);
    expect(document).toContain('<w:ins ');
    expect(document).toContain('<w:del ');
    expect(strFromU8(files['word/comments.xml'])).toContain('Please check this claim.');
    expect(Object.keys(files).filter((name) => name.startsWith('word/media/'))).toEqual([
      'word/media/image1.png',
    ]);
  });

  it('answers an ODT named after the title with the content, formulas, picture and comments', async () => {
    const files = await examplePaperAs('odt', 'application/vnd.oasis.opendocument.text');
    expect(strFromU8(files.mimetype)).toBe('application/vnd.oasis.opendocument.text');
    const content = strFromU8(files['content.xml']);
    expect(content).toContain('Section 1 on structures');
    expect(content.match(/<draw:object /g)?.length).toBe(10);
    expect(content).toContain('<text:insertion>');
    expect(content).toContain('<text:deletion>');
    expect(content).toContain('<dc:creator>Ada Lovelace</dc:creator><dc:date>');
    expect(content).toContain('Please check this claim.');
    expect(Object.keys(files).filter((name) => name.startsWith('Pictures/'))).toEqual([
      'Pictures/image1.png',
    ]);
  });

  it('answers the native zip, which imports back as the same document for another user', async () => {
    const owner = await person(server());
    const id = await paperDocument(owner.browser, owner.user.id, 'Round trip');
    const response = await exportCall(owner.browser, id, 'native');
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-disposition')).toContain('filename="Round trip.zip"');

    const other = await person(server());
    const imported = await other.browser.call(importApi.document, {
      path: '',
      file: new File([new Uint8Array(response.bytes)], 'Round trip.zip'),
    });
    expect(imported.status, imported.text).toBe(201);
    const copy = imported.json<{ id: number }>().id;
    const stored = async (documentId: number) => {
      const row = await server()
        .ctx.db.selectFrom('documents')
        .select(['content', 'title'])
        .where('id', '=', documentId)
        .executeTakeFirstOrThrow();
      // The figure points at the importer's own copy of the image (the fixture's other figures
      // have none: they keep their captions), and the entries get keys of the importer's
      // library: compare all but those.
      const keys = new Map<string, string>();
      const text = row.content
        .replace(/"image":\d+/g, '"image":0')
        .replace(/"src":"[^"]*"/g, '"src":""')
        .replace(/"id":"(\d+-\d+)"/g, (_, key: string) => {
          if (!keys.has(key)) keys.set(key, `entry${keys.size}`);
          return `"id":"${keys.get(key)}"`;
        });
      return { title: row.title, content: JSON.parse(text) as unknown };
    };
    expect(await stored(copy)).toEqual(await stored(id));
    const threads = await server()
      .ctx.db.selectFrom('document_comments')
      .select('text')
      .where('document_id', '=', copy)
      .execute();
    expect(threads.map((row) => row.text)).toEqual(['Please check this claim.']);
  });

  it('names a non-ASCII title by RFC 5987 with an ASCII fallback', async () => {
    const owner = await person(server());
    const id = await paperDocument(owner.browser, owner.user.id, 'Über Ωmega: 1/2');
    const response = await exportCall(owner.browser, id, 'docx');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Uber mega 1 2.docx"; filename*=UTF-8''%C3%9Cber%20%CE%A9mega%201%202.docx`,
    );
  });

  it('lets a reader export, hides comments from a reader without comments, refuses others', async () => {
    const owner = await person(server());
    const reader = await person(server());
    const stranger = await person(server());
    const id = await paperDocument(owner.browser, owner.user.id, 'Shared paper');
    await shareDocument(server().ctx.db, id, { userId: reader.user.id }, 'read-without-comments');
    const read = await exportCall(reader.browser, id, 'docx');
    expect(read.status, read.text).toBe(200);
    expect(strFromU8(unzipSync(read.bytes)['word/comments.xml'])).not.toContain('Please check this claim.');
    expect((await exportCall(stranger.browser, id, 'docx')).status).toBe(404);
    expect((await exportCall(owner.browser, id, 'rtf')).status).toBe(404);
    expect((await exportCall(owner.browser, 999999, 'docx')).status).toBe(404);
    expect((await exportCall(server().client(), id, 'docx')).status).toBe(401);
  });
});
