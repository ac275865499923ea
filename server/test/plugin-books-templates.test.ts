import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { booksApi, templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect } from 'vitest';
import { run, useTemporaryFolder, withTools } from './export-tools';
import { ENGINES, type TestClient, useServer } from './harness';
import { COLOUR, FONT, referenceWithHeading } from './reference-documents';

/**
 * Issue 21: a book whose chapters all come from one stored template is exported as DOCX in the
 * styles of that template's export file, as each chapter alone would be; chapters of different
 * templates keep our styles. On both engines.
 */

const folder = useTemporaryFolder('book-template-');

describe.each(ENGINES)('book export with a template’s reference document (%s)', (engine) => {
  const server = useServer(engine, { env: { PLUGINS: 'templates,books' } });

  /** A template with a reference DOCX whose Heading 1 is in FONT; its id. */
  async function template(browser: TestClient, title: string): Promise<number> {
    const id = (await browser.call(templatesApi.create, { title })).json<{ id: number }>().id;
    const uploaded = await browser.call(templatesApi.uploadFile, {
      id,
      kind: 'docx',
      title: `${title} style`,
      file: new Blob([Buffer.from(await referenceWithHeading('docx', folder()))]),
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    return id;
  }

  /** A book of one document of each template given (by id or 'standard-article'); the DOCX's styles. */
  async function bookDocx(browser: TestClient, templates: string[]) {
    const chapters = [];
    for (const key of templates) {
      const made = await browser.call(templatesApi.createDocument, { template: key });
      expect(made.status, made.text).toBe(200);
      chapters.push({ document_id: made.json<{ id: number }>().id });
    }
    const { id } = (await browser.call(booksApi.create, { title: 'Styled' })).json<{ id: number }>();
    expect((await browser.call(booksApi.chapters, { id, chapters })).status).toBe(200);
    const response = await browser.call(booksApi.export, { id: String(id), format: 'docx' });
    expect(response.status, response.text).toBe(200);
    return response.bytes;
  }

  const heading1 = (docx: Uint8Array) =>
    /<w:style w:type="paragraph" w:styleId="Heading1">[\s\S]*?<\/w:style>/.exec(
      strFromU8(unzipSync(docx)['word/styles.xml']),
    )?.[0] ?? '';

  withTools(['pandoc'], 'chapters of one template: the book DOCX takes its Heading 1', async () => {
    const browser = await server().loginAs(await server().buildUser());
    const journal = String(await template(browser, 'Journal'));
    const docx = await bookDocx(browser, [journal, journal, journal]);
    expect(heading1(docx)).toContain(`w:ascii="${FONT}"`);
    expect(heading1(docx)).toContain(`<w:color w:val="${COLOUR}"/>`);
    // The chapter titles are Heading 1; pandoc still reads the file.
    const files = unzipSync(docx);
    expect(strFromU8(files['word/document.xml'])).toContain('<w:pStyle w:val="Heading1"/>');
    expect(files['word/theme/theme1.xml']).toBeDefined();
    const file = path.join(folder(), `book-${engine}.docx`);
    await writeFile(file, docx);
    const { stdout } = await run('pandoc', ['-f', 'docx', '-t', 'plain', file]);
    expect(stdout).toContain('Chapter 3');
  });

  withTools(['pandoc'], 'chapters of different templates: the book DOCX keeps our styles', async () => {
    const browser = await server().loginAs(await server().buildUser());
    const journal = String(await template(browser, 'Journal'));
    expect(heading1(await bookDocx(browser, [journal, 'standard-article']))).not.toContain(FONT);
    const other = String(await template(browser, 'Other journal'));
    expect(heading1(await bookDocx(browser, [journal, other]))).not.toContain(FONT);
  });

  withTools(['pandoc'], 'another user’s private template lends the book no styles', async () => {
    const owner = await server().loginAs(await server().buildUser());
    const journal = await template(owner, 'Journal');
    const other = await server().loginAs(await server().buildUser());
    // A document of `other` that names the owner's template (as a copied document would).
    const made = (await other.call(templatesApi.createDocument, { template: 'standard-article' })).json<{
      id: number;
    }>().id;
    const row = await server()
      .ctx.db.selectFrom('documents')
      .select('content')
      .where('id', '=', made)
      .executeTakeFirstOrThrow();
    const content = JSON.parse(row.content);
    content.attrs.template = `template-${journal}`;
    await server()
      .ctx.db.updateTable('documents')
      .set({ content: JSON.stringify(content), content_version: 0, version: 0 })
      .where('id', '=', made)
      .execute();
    const { id } = (await other.call(booksApi.create, { title: 'Borrowed' })).json<{ id: number }>();
    await other.call(booksApi.chapters, { id, chapters: [{ document_id: made }] });
    const response = await other.call(booksApi.export, { id: String(id), format: 'docx' });
    expect(response.status, response.text).toBe(200);
    expect(heading1(response.bytes)).not.toContain(FONT);
  });
});
