import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import { schema } from '@scriptorium/common/editor/schema';
import { withBody } from '@scriptorium/common/editor/testing';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect } from 'vitest';
import { libreOfficeConvert, run, useTemporaryFolder, withTools } from './export-tools';
import { ENGINES, type TestClient, type TestServer, useServer } from './harness';
import {
  COLOUR,
  EVEN_HEADER_TEXT,
  FONT,
  HEADER_TEXT,
  referenceWithHeading,
  withHeaderFooter,
} from './reference-documents';

/**
 * Issue 21: a document of a stored template is exported as DOCX and ODT in the styles of the
 * template's export files (reference documents), on both engines; pandoc still reads the files.
 */

const folder = useTemporaryFolder('template-export-');

const referenceDocument = (kind: 'docx' | 'odt') => referenceWithHeading(kind, folder());

/** The headers pandoc read, as [level, text of their words]. */
function headers(json: string): [number, string][] {
  type Inline = { t: string; c?: unknown };
  const blocks = (JSON.parse(json) as { blocks: { t: string; c: [number, unknown, Inline[]] }[] }).blocks;
  return blocks
    .filter((block) => block.t === 'Header')
    .map((block) => [
      block.c[0],
      block.c[2]
        .filter((inline) => inline.t === 'Str')
        .map((inline) => inline.c)
        .join(' '),
    ]);
}

describe.each(ENGINES)('export with a template’s reference document (%s)', (engine) => {
  const server = useServer(engine, { env: { PLUGINS: 'templates' } });

  /** A template with an export file of `kind`, and a document of it with a heading in its body. */
  async function templateDocument(
    test: TestServer,
    browser: TestClient,
    kind: 'docx' | 'odt',
    options: { reference?: Uint8Array; paragraphs?: number } = {},
  ): Promise<{ documentId: number; templateId: number }> {
    const created = await browser.call(templatesApi.create, { title: 'Journal' });
    const templateId = created.json<{ id: number }>().id;
    const uploaded = await browser.call(templatesApi.uploadFile, {
      id: templateId,
      kind,
      title: 'Journal style',
      file: new Blob([Buffer.from(options.reference ?? (await referenceDocument(kind)))]),
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    const made = await browser.call(templatesApi.createDocument, { template: String(templateId) });
    expect(made.status, made.text).toBe(200);
    const documentId = made.json<{ id: number }>().id;
    const row = await test.ctx.db
      .selectFrom('documents')
      .select('content')
      .where('id', '=', documentId)
      .executeTakeFirstOrThrow();
    const doc = schema.nodeFromJSON(JSON.parse(row.content));
    const body = [
      schema.nodes.heading.create({ level: 1, id: 'H1' }, schema.text('Introduction')),
      ...Array.from({ length: options.paragraphs ?? 1 }, () =>
        schema.nodes.paragraph.create(null, schema.text('Body text.')),
      ),
    ];
    const content = JSON.stringify(withBody(doc, body).toJSON());
    await test.ctx.db
      .updateTable('documents')
      .set({ content, content_version: 0, version: 0 })
      .where('id', '=', documentId)
      .execute();
    return { documentId, templateId };
  }

  /** A new user's document of a template with a reference file of the format, exported in it. */
  async function exportedTemplateDocument(format: 'docx' | 'odt') {
    const test = server();
    const browser = await test.loginAs(await test.buildUser());
    const { documentId } = await templateDocument(test, browser, format);
    const response = await browser.call(documentsApi.export, { id: String(documentId), format });
    expect(response.status, response.text).toBe(200);
    return { response, files: unzipSync(response.bytes) };
  }

  withTools(['pandoc'], 'a DOCX export takes the Heading 1 of the template’s reference DOCX', async () => {
    const { response, files } = await exportedTemplateDocument('docx');
    const styles = strFromU8(files['word/styles.xml']);
    const heading = /<w:style w:type="paragraph" w:styleId="Heading1">[\s\S]*?<\/w:style>/.exec(styles)?.[0];
    expect(heading).toContain(`w:ascii="${FONT}"`);
    expect(heading).toContain(`<w:color w:val="${COLOUR}"/>`);
    // Styles only we have are there too; the theme of the reference came along.
    expect(styles).toContain('w:styleId="Abstract"');
    expect(files['word/theme/theme1.xml']).toBeDefined();
    expect(strFromU8(files['word/document.xml'])).toContain('<w:pStyle w:val="Heading1"/>');
    const file = path.join(folder(), `exported-${engine}.docx`);
    await writeFile(file, response.bytes);
    const { stdout } = await run('pandoc', ['-f', 'docx', '-t', 'json', file]);
    expect(headers(stdout)).toEqual([[1, 'Introduction']]);
    expect(stdout).toContain('"Body"');
  });

  withTools(
    ['pandoc', 'soffice', 'pdftotext'],
    'a DOCX export takes the headers, footers and settings of the template’s reference DOCX',
    async () => {
      const test = server();
      const browser = await test.loginAs(await test.buildUser());
      const reference = withHeaderFooter(await referenceDocument('docx'));
      const { documentId } = await templateDocument(test, browser, 'docx', { reference, paragraphs: 160 });
      const response = await browser.call(documentsApi.export, { id: String(documentId), format: 'docx' });
      expect(response.status, response.text).toBe(200);
      const files = unzipSync(response.bytes);
      const document = strFromU8(files['word/document.xml']);
      const section = /<w:sectPr>[\s\S]*?<\/w:sectPr>/.exec(document)?.[0] ?? '';
      const rels = strFromU8(files['word/_rels/document.xml.rels']);
      const types = strFromU8(files['[Content_Types].xml']);
      // Every header and footer the section names is a relationship to a part that is there.
      const named = [...section.matchAll(/<w:(header|footer)Reference w:type="(\w+)" r:id="([^"]+)"\/>/g)];
      expect(named.map(([, kind, type]) => `${kind}:${type}`)).toEqual([
        'header:default',
        'header:even',
        'footer:default',
      ]);
      const parts = named.map(([, , , id]) => {
        const target = new RegExp(
          `<Relationship Id="${id}" Type="[^"]+/(?:header|footer)" Target="([^"]+)"/>`,
        ).exec(rels)?.[1];
        expect(target, id).toBeDefined();
        expect(files[`word/${target}`], target).toBeDefined();
        expect(types).toContain(`PartName="/word/${target}"`);
        return strFromU8(files[`word/${target}`]);
      });
      expect(parts[0]).toContain(HEADER_TEXT);
      expect(parts[1]).toContain(EVEN_HEADER_TEXT);
      expect(parts[2]).toContain(' PAGE ');
      // Relationship ids are unique; the header's logo came along with its relationship.
      const ids = [...rels.matchAll(/Id="([^"]+)"/g)].map(([, id]) => id);
      expect(new Set(ids).size).toBe(ids.length);
      const headerRels = Object.keys(files).filter((name) => /^word\/_rels\/.*header.*\.rels$/.test(name));
      expect(headerRels).toHaveLength(1);
      const logo = /Target="([^"]+\.png)"/.exec(strFromU8(files[headerRels[0]]))?.[1];
      expect(files[`word/${logo}`]).toBeDefined();
      // Our page number footer gave way to the reference's.
      expect(files['word/footer1.xml']).toBeUndefined();
      const settings = strFromU8(files['word/settings.xml']);
      expect(settings).toContain('<w:evenAndOddHeaders/>');
      expect(settings).toContain('<w:defaultTabStop w:val="567"/>');
      for (const left of ['attachedTemplate', 'mailMerge', 'documentProtection', 'endnotePr'])
        expect(settings).not.toContain(`w:${left}`);

      const file = path.join(folder(), `journal-${engine}.docx`);
      await writeFile(file, response.bytes);
      const { stdout } = await run('pandoc', ['-f', 'docx', '-t', 'json', file]);
      expect(headers(stdout)).toEqual([[1, 'Introduction']]);
      const pdf = await libreOfficeConvert(file, 'pdf', folder(), folder());
      const pages = Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [pdf])).stdout)?.[1]);
      expect(pages).toBeGreaterThanOrEqual(3);
      for (let page = 1; page <= pages; page++) {
        const { stdout: text } = await run('pdftotext', ['-f', String(page), '-l', String(page), pdf, '-']);
        // Even-and-odd headers: odd pages carry the default header and the footer's page number,
        // even pages the even header and no footer (the reference has no even one).
        if (page % 2) {
          expect(text, `page ${page}`).toContain(HEADER_TEXT);
          expect(text, `page ${page}`).toContain(`Page ${page}`);
        } else {
          expect(text, `page ${page}`).toContain(EVEN_HEADER_TEXT);
          expect(text, `page ${page}`).not.toContain('Page ');
        }
      }
    },
  );

  withTools(['pandoc'], 'an ODT export takes the Heading 1 of the template’s reference ODT', async () => {
    const { response, files } = await exportedTemplateDocument('odt');
    const styles = strFromU8(files['styles.xml']);
    const heading = /<style:style style:name="Heading_20_1"[\s\S]*?<\/style:style>/.exec(styles)?.[0];
    expect(heading).toContain(`fo:color="#${COLOUR.toLowerCase()}"`);
    expect(heading).toContain(FONT);
    expect(styles).toContain('style:name="Bibliography"');
    const file = path.join(folder(), `exported-${engine}.odt`);
    await writeFile(file, response.bytes);
    const { stdout } = await run('pandoc', ['-f', 'odt', '-t', 'json', file]);
    expect(headers(stdout)).toEqual([[1, 'Introduction']]);
  });

  withTools(['pandoc'], 'a document of another user’s private template keeps our styles', async () => {
    const test = server();
    const owner = await test.loginAs(await test.buildUser());
    const { templateId } = await templateDocument(test, owner, 'docx');
    const other = await test.loginAs(await test.buildUser());
    const created = (await other.call(templatesApi.createDocument, { template: 'standard-article' })).json<{
      id: number;
    }>().id;
    const row = await test.ctx.db
      .selectFrom('documents')
      .select('content')
      .where('id', '=', created)
      .executeTakeFirstOrThrow();
    const content = JSON.parse(row.content);
    content.attrs.template = `template-${templateId}`;
    await test.ctx.db
      .updateTable('documents')
      .set({ content: JSON.stringify(content), content_version: 0, version: 0 })
      .where('id', '=', created)
      .execute();
    const response = await other.call(documentsApi.export, { id: String(created), format: 'docx' });
    expect(response.status, response.text).toBe(200);
    expect(strFromU8(unzipSync(response.bytes)['word/styles.xml'])).not.toContain(FONT);
  });
});
