import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { importApi } from '@scriptorium/common/api/endpoints/imports';
import { templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument as createStandard, standardArticle } from '@scriptorium/common/editor/templates';
import { stepsOf, withBody } from '@scriptorium/common/editor/testing';
import { exportNative } from '@scriptorium/common/exchange/native';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { templateFilePath } from '../src/plugins/templates/files';
import type { TemplatesTables } from '../src/plugins/templates/queries';
import { useDocumentEditors } from './document-editors';
import { ENGINES, type TestClient, useServer } from './harness';
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

const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const REFERENCE_FONT = 'Reference Distinct';

/** A reference DOCX: a Heading 1 in its own font, and `extra` entries the writers never read. */
function referenceDocx(extra: Record<string, Uint8Array> = {}): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    'word/styles.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W_NS}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:rPr><w:rFonts w:ascii="${REFERENCE_FONT}" w:hAnsi="${REFERENCE_FONT}"/></w:rPr></w:style></w:styles>`,
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document ${W_NS}><w:body/></w:document>`,
    ),
    ...extra,
  });
}

/** Bytes that do not compress: an embedded file the reference carries along. */
function noise(size: number): Uint8Array {
  return new Uint8Array(randomBytes(size));
}

describe.each(ENGINES)('issue 50: template reference documents (%s)', (engine) => {
  const server = useServer(engine, { env: { PLUGINS: 'templates' } });

  async function template(browser: TestClient): Promise<number> {
    const created = await browser.call(templatesApi.create, { title: 'Journal' });
    expect(created.status, created.text).toBe(200);
    return created.json<{ id: number }>().id;
  }

  function upload(browser: TestClient, templateId: number, bytes: Uint8Array) {
    return browser.call(templatesApi.uploadFile, {
      id: templateId,
      kind: 'docx',
      title: 'Journal style',
      file: new Blob([Buffer.from(bytes)]),
    });
  }

  async function storedFiles(templateId: number) {
    return server()
      .ctx.db.withTables<TemplatesTables>()
      .selectFrom('template_export_files')
      .select(['file_name'])
      .where('template_id', '=', templateId)
      .execute();
  }

  /** A document of the template, exported as DOCX: its styles part. */
  async function exportedStyles(browser: TestClient, templateId: number): Promise<string> {
    const made = await browser.call(templatesApi.createDocument, { template: String(templateId) });
    expect(made.status, made.text).toBe(200);
    const id = made.json<{ id: number }>().id;
    const response = await browser.call(documentsApi.export, { id: String(id), format: 'docx' });
    expect(response.status, response.text).toBe(200);
    return strFromU8(unzipSync(response.bytes)['word/styles.xml']);
  }

  it('refuses a reference document that inflates past the imports’ zip limits, and stores nothing', async () => {
    const { browser } = await server().loggedInUser();
    const id = await template(browser);
    // 4 MB of zeros in a few kB: past the ratio limit, as the 1 MB file that inflated to 1 GB.
    const bomb = referenceDocx({ 'word/media/zeros.bin': new Uint8Array(4 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(100_000);
    const answer = await upload(browser, id, bomb);
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({
      error: 'reference_too_large',
      message:
        'This reference document unpacks to far more data than a DOCX or ODT template holds, so it was not stored.',
    });
    expect(await storedFiles(id)).toEqual([]);
  });

  it('stores only the parts the exports read, and exports in the reference’s styles', async () => {
    const { browser } = await server().loggedInUser();
    const id = await template(browser);
    const original = referenceDocx({ 'word/embeddings/big.bin': noise(2 * 1024 * 1024) });
    const answer = await upload(browser, id, original);
    expect(answer.status, answer.text).toBe(200);
    const [row] = await storedFiles(id);
    const stored = new Uint8Array(await readFile(templateFilePath(server().ctx, row.file_name)));
    expect(Object.keys(unzipSync(stored)).sort()).toEqual([
      '[Content_Types].xml',
      'word/document.xml',
      'word/styles.xml',
    ]);
    expect(await exportedStyles(browser, id)).toContain(`w:ascii="${REFERENCE_FONT}"`);
  });

  it('checks a reference stored before the rule on its first export, once, and keeps it cut down', async () => {
    const { browser } = await server().loggedInUser();
    const id = await template(browser);
    expect((await upload(browser, id, referenceDocx())).status).toBe(200);
    const [row] = await storedFiles(id);
    const file = templateFilePath(server().ctx, row.file_name);
    // As an upload before the rule left it: the whole archive.
    await writeFile(file, referenceDocx({ 'word/embeddings/big.bin': noise(1024 * 1024) }));
    expect(await exportedStyles(browser, id)).toContain(`w:ascii="${REFERENCE_FONT}"`);
    const after = new Uint8Array(await readFile(file));
    expect(Object.keys(unzipSync(after))).not.toContain('word/embeddings/big.bin');
    // A stored bomb: the export goes on in our own styles.
    await writeFile(file, referenceDocx({ 'word/media/zeros.bin': new Uint8Array(4 * 1024 * 1024) }));
    const styles = await exportedStyles(browser, id);
    expect(styles).not.toContain(REFERENCE_FONT);
    expect(styles).toContain('w:styleId="Heading1"');
  });
});

describe.each(ENGINES)('issue 50: equations in the LaTeX export (%s)', (engine) => {
  const server = useServer(engine);

  it('writes an equation that leaves math mode as visible text, and a harmless one as math', async () => {
    const { browser } = await server().loggedInUser();
    const hostile = '}\\input{/etc/passwd}';
    const base = createStandard(schema, standardArticle, { title: 'Math', language: 'en-US' });
    const doc = withBody(base, [
      schema.nodes.paragraph.create(null, [
        schema.text('Bad '),
        schema.nodes.equation.create({ equation: hostile }),
        schema.text(' good '),
        schema.nodes.equation.create({ equation: 'a^2+b^2=c^2' }),
      ]),
    ]);
    const id = (await browser.call(documentsApi.create, {})).json<{ id: number }>().id;
    await server()
      .ctx.db.updateTable('documents')
      .set({ content: JSON.stringify(doc.toJSON()), content_version: 0, version: 0, title: 'Math' })
      .where('id', '=', id)
      .execute();
    const response = await browser.call(documentsApi.export, { id: String(id), format: 'latex' });
    expect(response.status, response.text).toBe(200);
    const tex = Object.entries(unzipSync(response.bytes))
      .filter(([name]) => name.endsWith('.tex'))
      .map(([, file]) => strFromU8(file))
      .join('\n');
    // Outside comments, the file never runs \input; the source is there as typewriter text.
    const code = tex
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('%'))
      .join('\n');
    expect(code).not.toContain('\\input{/etc/passwd}');
    expect(code).toContain('\\texttt{\\}\\textbackslash{}input\\{/etc/passwd\\}}');
    expect(code).toContain('a^2+b^2=c^2');
  });
});
