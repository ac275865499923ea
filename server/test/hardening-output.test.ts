import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { importApi } from '@scriptorium/common/api/endpoints/imports';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument as createStandard, standardArticle } from '@scriptorium/common/editor/templates';
import { stepsOf, withBody } from '@scriptorium/common/editor/testing';
import { exportNative } from '@scriptorium/common/exchange/native';
import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { useDocumentEditors } from './document-editors';
import { ENGINES, useServer } from './harness';
import { bodyParagraphStart } from './ws-support';

/** A Standard article whose body says "See " and then "here", linked to `href`. */
function linkedPaper(href: string): PMNode {
  const base = createStandard(schema, standardArticle, { title: 'Links', language: 'en-US' });
  return withBody(base, [
    schema.nodes.paragraph.create(null, [
      schema.text('See '),
      schema.text('here', [schema.marks.link.create({ href })]),
    ]),
  ]);
}

const FORBIDDEN = [
  'javascript:alert(document.cookie)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:x',
];

describe.each(ENGINES)('issue 50: exports and imports (%s)', (engine) => {
  const server = useServer(engine);
  const { user, createDocument, open } = useDocumentEditors(server);

  describe('finding 11: link targets', () => {
    it('refuses a diff that adds a javascript:, data: or vbscript: link, with its reason; a web link is confirmed', async () => {
      const owner = await user();
      const id = await createDocument(owner.browser, 'Links');
      const client = await open(owner.browser, id);
      const doc = client.state!.doc;
      const { browser } = owner;
      // The first paragraph gets text first, then each link over its second word.
      const start = bodyParagraphStart(doc);
      const typing = stepsOf(doc, (tr) => tr.insert(start, schema.text('See here')));
      const typed = await client.sendRaw({ v: 0, ds: typing });
      expect(typed).toMatchObject({ type: 'confirm_diff', v: 1 });
      const after = new Transform(doc).insert(start, schema.text('See here')).doc;
      const from = start + 4;
      for (const href of FORBIDDEN) {
        const answer = await client.sendRaw({
          v: 1,
          ds: stepsOf(after, (tr) => tr.addMark(from, from + 4, schema.marks.link.create({ href }))),
        });
        expect(answer, href).toEqual({ type: 'reject_diff', rid: answer.rid, reason: 'unsafe_link' });
        // Inserted with the link already on it: the same.
        const inserted = await client.sendRaw({
          v: 1,
          ds: stepsOf(after, (tr) => tr.insert(from, schema.text('x', [schema.marks.link.create({ href })]))),
        });
        expect(inserted, href).toEqual({ type: 'reject_diff', rid: inserted.rid, reason: 'unsafe_link' });
      }
      const row = await server()
        .ctx.db.selectFrom('documents')
        .select(['version'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.version).toBe(1);
      const web = await client.sendRaw({
        v: 1,
        ds: stepsOf(after, (tr) =>
          tr.addMark(from, from + 4, schema.marks.link.create({ href: 'https://example.org/paper' })),
        ),
      });
      expect(web).toMatchObject({ type: 'confirm_diff', v: 2 });
      // Created with content (offline), a forbidden link is refused as well.
      const created = await browser.call(documentsApi.create, {
        title: 'Offline',
        content: JSON.stringify(linkedPaper(FORBIDDEN[0]).toJSON()),
      });
      expect(created.status).toBe(400);
    });

    it('exports a document stored before the rule without its forbidden link, its text kept', async () => {
      const owner = await user();
      const id = await createDocument(owner.browser, 'Old');
      await server()
        .ctx.db.updateTable('documents')
        .set({ content: JSON.stringify(linkedPaper(FORBIDDEN[0]).toJSON()), content_version: 0, version: 0 })
        .where('id', '=', id)
        .execute();
      for (const format of ['html', 'epub', 'jats', 'docx', 'odt', 'latex']) {
        const response = await owner.browser.call(documentsApi.export, { id: String(id), format });
        expect(response.status, `${format}: ${response.text}`).toBe(200);
        const text = Object.values(unzipSync(response.bytes))
          .map((file) => strFromU8(file))
          .join('\n');
        expect(text, format).not.toContain('javascript:');
        expect(text, format).toContain('here');
      }
    });

    it('imports our own zip with a forbidden link as its text only', async () => {
      const { user: me, browser } = await server().loggedInUser();
      const zip = exportNative({
        title: 'Links',
        content: linkedPaper(FORBIDDEN[1]).toJSON(),
        bibliography: [],
        threads: [],
        images: [],
      });
      const response = await browser.call(importApi.document, {
        path: '',
        file: new File([new Uint8Array(zip)], 'links.zip'),
      });
      expect(response.status, response.text).toBe(201);
      const { id } = response.json<{ id: number }>();
      const [row] = await server().rows('documents', { id, owner_id: me.id });
      const content = String(row.content);
      expect(content).not.toContain('data:text/html');
      expect(schema.nodeFromJSON(JSON.parse(content)).textContent).toContain('See here');
    });
  });
});

describe.each(ENGINES)('issue 50: an import past the time budget (%s)', (engine) => {
  const server = useServer(engine, { env: { UPLOAD_TIME_LIMIT_MS: '1' } });

  it('says the file needed too much time or memory, not that it is larger than 50 MB', async () => {
    const { browser } = await server().loggedInUser();
    const zip = exportNative({
      title: 'Small',
      content: linkedPaper('https://example.org').toJSON(),
      bibliography: [],
      threads: [],
      images: [],
    });
    expect(zip.length).toBeLessThan(10_000);
    const response = await browser.call(importApi.document, {
      path: '',
      file: new File([new Uint8Array(zip)], 'small.zip'),
    });
    expect(response.status, response.text).toBe(400);
    expect(response.json()).toEqual({
      code: 'over_budget',
      error:
        'Reading this file needed too much time or memory, so nothing was imported. Please import a simpler or smaller file.',
    });
  });
});
