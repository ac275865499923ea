import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { booksApi } from '@scriptorium/common/api/endpoints/plugins';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { saveImageResponse } from '@scriptorium/common/api/usermedia';
import { fixturePaper, stripedPng } from '@scriptorium/common/export/fixture-paper';
import { epubcheckReport } from '@scriptorium/common/testing/office-tools';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createDocument } from '../src/modules/documents/commands/create-document';
import { compileLatex, run, unzipTo, useTemporaryFolder, withTools } from './export-tools';
import { ENGINES, type TestClient, useServer } from './harness';
import { shareDocument } from './seed';

/**
 * Issue 21: GET /api/books/<id>/export/<format>/ answers the whole book as one file: the chapters
 * the user may read in order, with a table of contents, numbered chapters, one bibliography and
 * figure numbers that go on from chapter to chapter; checked by epubcheck, LuaLaTeX and pdftotext.
 */

/** Each chapter: 2 sections, a table, 2 figures, 2 equations and 3 citations of the fixture paper. */
const CHAPTER = { sections: 2, equations: 2, citations: 3, figures: 2, paragraphs: 1 };
const TITLES = ['Roots of ink', 'Paper mills', 'Printing presses'];

const FORMATS = {
  epub: { mime: 'application/epub+zip', extension: 'epub' },
  html: { mime: 'application/zip', extension: 'zip' },
  latex: { mime: 'application/zip', extension: 'zip' },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extension: 'docx',
  },
} as const;

describe.each(ENGINES)('book export API (%s)', (engine) => {
  const server = useServer(engine, { env: { PLUGINS: 'books' } });
  const dir = useTemporaryFolder('book-export-');

  const author = (firstName: string) => server().loggedInUser({ firstName, lastName: 'Author' });

  /** A document of the owner holding the fixture paper under `title`. */
  async function chapterDocument(ownerId: number, title: string, size = CHAPTER): Promise<number> {
    const { id } = await createDocument(server().ctx.db, ownerId, { title, path: '' });
    const content = JSON.stringify(fixturePaper(size, title).doc.toJSON());
    await server()
      .ctx.db.updateTable('documents')
      .set({ content, content_version: 0, version: 0, title })
      .where('id', '=', id)
      .execute();
    return id;
  }

  /** Ann's book "Ink and paper" of her three chapters (the first two in a part) with a cover. */
  async function volume(bibliography: 'book' | 'chapter' = 'book', sizes = TITLES.map(() => CHAPTER)) {
    const ann = await author('Ann');
    const ids = [];
    for (const [index, title] of TITLES.entries())
      ids.push(await chapterDocument(ann.user.id, title, sizes[index]));
    const upload = await ann.browser.call(usermediaApi.save, {
      title: 'Cover',
      image: new File([new Uint8Array(stripedPng(60, 90, [200, 40, 40]))], 'cover.png', {
        type: 'image/png',
      }),
    });
    expect(upload.status, upload.text).toBe(201);
    const cover = saveImageResponse.parse(upload.json()).values?.id ?? null;
    const { id } = (await ann.browser.call(booksApi.create, { title: 'Ink and paper' })).json<{
      id: number;
    }>();
    const chapters = [
      { document_id: ids[0], part: 'Beginnings' },
      { document_id: ids[1], part: 'Beginnings' },
      { document_id: ids[2], part: '' },
    ];
    expect((await ann.browser.call(booksApi.chapters, { id, chapters })).status).toBe(200);
    const saved = await ann.browser.call(booksApi.save, {
      id,
      title: 'Ink and paper',
      metadata: {
        authors: 'Ann Editor; Bob Editor',
        publisher: 'Quill Press',
        isbn: '978-3-16-148410-0',
        copyright: '© 2026 Quill Press',
        language: 'en-US',
        cover_image: cover,
      },
      settings: { citation_style: 'apa', paper_size: 'A4', bibliography },
    });
    expect(saved.status, saved.text).toBe(200);
    return { ann, id };
  }

  async function exportCall(browser: TestClient, id: number, format: string) {
    return browser.call(booksApi.export, { id: String(id), format });
  }

  /**
   * The book's LaTeX export unpacked into the folder `name` and compiled `runs` times (a second
   * run sets the contents): no LaTeX error, every citation found. The text of the PDF.
   */
  async function compiledLatexText(browser: TestClient, id: number, name: string, runs = 1) {
    const folder = path.join(dir(), name);
    await unzipTo((await exportCall(browser, id, 'latex')).bytes, folder);
    let log = '';
    for (let pass = 0; pass < runs; pass++) log = await compileLatex(folder);
    expect(log).not.toMatch(/^! /m);
    expect(log).not.toContain('Citation ');
    return (await run('pdftotext', [path.join(folder, 'document.pdf'), '-'])).stdout;
  }

  it('answers every format as a file named after the book; other formats and readers get 404', async () => {
    const { ann, id } = await volume();
    for (const [format, { mime, extension }] of Object.entries(FORMATS)) {
      const response = await exportCall(ann.browser, id, format);
      expect(response.status, `${format}: ${response.text}`).toBe(200);
      expect(response.headers.get('content-type')).toBe(mime);
      expect(response.headers.get('content-disposition')).toContain(`filename="Ink and paper.${extension}"`);
      expect(response.headers.get('x-chapters-left-out')).toBe('');
      expect(Object.keys(unzipSync(response.bytes)).length).toBeGreaterThan(2);
    }
    const stranger = await author('Dee');
    expect((await exportCall(stranger.browser, id, 'epub')).status).toBe(404);
    expect((await exportCall(ann.browser, id, 'jats')).status).toBe(404);
    expect((await exportCall(ann.browser, 999999, 'epub')).status).toBe(404);
    expect((await exportCall(server().client(), id, 'epub')).status).toBe(401);
  });

  it('exports a chapter document that was never opened under its title', async () => {
    const ann = await author('Ann');
    const { id: fresh } = await createDocument(server().ctx.db, ann.user.id, { title: 'Unopened', path: '' });
    const { id } = (await ann.browser.call(booksApi.create, { title: 'Fresh' })).json<{ id: number }>();
    await ann.browser.call(booksApi.chapters, { id, chapters: [{ document_id: fresh }] });
    const response = await exportCall(ann.browser, id, 'html');
    expect(response.status, response.text).toBe(200);
    expect(strFromU8(unzipSync(response.bytes)['index.html'])).toContain('Chapter 1: Unopened');
  });

  it('leaves out a chapter the user can no longer read and says which place it had', async () => {
    const bob = await author('Bob');
    const borrowed = await chapterDocument(bob.user.id, 'Borrowed secrets');
    const { ann: editor, id } = await volume();
    await shareDocument(server().ctx.db, borrowed, { userId: editor.user.id }, 'read');
    const current = (await editor.browser.call(booksApi.get, { id })).json<{
      book: { chapters: { document_id: number; part: string }[] };
    }>().book.chapters;
    const chapters = [
      { document_id: borrowed, part: 'Beginnings' },
      ...current.map(({ document_id, part }) => ({ document_id, part })),
    ];
    expect((await editor.browser.call(booksApi.chapters, { id, chapters })).status).toBe(200);
    const before = await exportCall(editor.browser, id, 'html');
    expect(strFromU8(unzipSync(before.bytes)['index.html'])).toContain('Borrowed secrets');
    await bob.browser.call(documentsApi.accessSave, { id: borrowed, access: [] });

    const after = await exportCall(editor.browser, id, 'html');
    expect(after.status, after.text).toBe(200);
    expect(after.headers.get('x-chapters-left-out')).toBe('1');
    const html = strFromU8(unzipSync(after.bytes)['index.html']);
    expect(html).not.toContain('Borrowed secrets');
    // The chapters that remain are numbered 1, 2, 3.
    expect(html).toContain(`Chapter 1: ${TITLES[0]}`);
    expect(html).toContain(`Chapter 3: ${TITLES[2]}`);
  });

  withTools(
    ['epubcheck'],
    'the EPUB of three chapters passes epubcheck, lists them in order, numbers on',
    async () => {
      const { ann, id } = await volume();
      const response = await exportCall(ann.browser, id, 'epub');
      expect(response.status, response.text).toBe(200);
      const file = path.join(dir(), `${engine}-book.epub`);
      await writeFile(file, response.bytes);
      expect(await epubcheckReport(file)).toContain('0 fatals / 0 errors / 0 warnings');

      const files = unzipSync(response.bytes);
      const nav = strFromU8(files['EPUB/nav.xhtml']);
      const listed = [...nav.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((match) => [
        match[1],
        match[2],
      ]);
      expect(listed).toEqual([
        ['part-1.xhtml', 'Beginnings'],
        ['chapter-1.xhtml', `Chapter 1: ${TITLES[0]}`],
        ['chapter-2.xhtml', `Chapter 2: ${TITLES[1]}`],
        ['chapter-3.xhtml', `Chapter 3: ${TITLES[2]}`],
        ['bibliography.xhtml', 'References'],
      ]);
      const opf = strFromU8(files['EPUB/content.opf']);
      expect(opf).toContain('<dc:identifier id="uid">urn:isbn:9783161484100</dc:identifier>');
      expect(opf).toMatch(
        /<item id="image1" href="images\/image1\.png" media-type="image\/png" properties="cover-image"\/>/,
      );
      expect(opf).toMatch(/<spine><itemref idref="cover"\/><itemref idref="title"\/><itemref idref="nav"\/>/);
      // Each chapter has 1 table and 2 figures: numbers go on across the chapters.
      const labels = (chapter: number) =>
        [...strFromU8(files[`EPUB/chapter-${chapter}.xhtml`]).matchAll(/caption-label">([^<:]+):/g)].map(
          (match) => match[1],
        );
      expect(labels(1)).toEqual(['Table 1', 'Figure 1', 'Figure 2']);
      expect(labels(2)).toEqual(['Table 2', 'Figure 3', 'Figure 4']);
      expect(labels(3)).toEqual(['Table 3', 'Figure 5', 'Figure 6']);
      // Cross-references follow: "See Figure 3" in chapter 2, its sections are 2.x.
      const second = strFromU8(files['EPUB/chapter-2.xhtml']);
      expect(second).toContain('<a class="cross-reference" href="#c2-F0">Figure 3</a>');
      expect(second).toMatch(/<a class="cross-reference" href="#c2-H\d+">Section 2\.\d+<\/a>/);
      // One bibliography at the end, none in the chapters.
      expect(second).not.toContain('csl-bib-body');
      expect(strFromU8(files['EPUB/bibliography.xhtml'])).toContain('class="csl-entry"');
    },
  );

  it('HTML and DOCX carry the contents in order and the figure numbers of the whole book', async () => {
    const { ann, id } = await volume();
    const html = strFromU8(unzipSync((await exportCall(ann.browser, id, 'html')).bytes)['index.html']);
    const toc = /<nav class="toc" id="toc">(.*?)<\/nav>/.exec(html)?.[1] ?? '';
    expect([...toc.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((match) => match[2])).toEqual([
      'Beginnings',
      `Chapter 1: ${TITLES[0]}`,
      `Chapter 2: ${TITLES[1]}`,
      `Chapter 3: ${TITLES[2]}`,
      'References',
    ]);
    expect(html).toContain('<section class="bibliography" id="bibliography">');
    expect(html.match(/caption-label">Figure \d+/g)).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `caption-label">Figure ${n}`),
    );
    expect(html.match(/class="csl-bib-body[ "]/g)).toHaveLength(1);

    const docx = strFromU8(unzipSync((await exportCall(ann.browser, id, 'docx')).bytes)['word/document.xml']);
    expect(docx).toContain('TOC \\o "1-1"');
    const chapters = [...docx.matchAll(/<w:t xml:space="preserve">(Chapter \d: [^<]+)<\/w:t>/g)].map(
      (match) => match[1],
    );
    expect(chapters).toEqual(TITLES.map((title, index) => `Chapter ${index + 1}: ${title}`));
    // The numbers are SEQ fields' results (Word renumbers them): read the text Word shows.
    const shown = [...docx.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((match) => match[1]).join('');
    expect(shown.match(/Figure \d+: /g)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Figure ${n}: `));
  });

  withTools(
    ['pandoc'],
    'pandoc reads the DOCX and the HTML of the book: chapters in order, figures',
    async () => {
      const { ann, id } = await volume();
      const docx = path.join(dir(), `${engine}-book.docx`);
      await writeFile(docx, (await exportCall(ann.browser, id, 'docx')).bytes);
      const folder = path.join(dir(), `${engine}-html`);
      await unzipTo((await exportCall(ann.browser, id, 'html')).bytes, folder);
      for (const [file, from] of [
        [docx, 'docx'],
        [path.join(folder, 'index.html'), 'html'],
      ]) {
        const text = (await run('pandoc', ['-f', from, '-t', 'plain', '--wrap=none', file])).stdout;
        const places = TITLES.map((title) => text.lastIndexOf(title));
        expect(
          places.every((place) => place >= 0),
          from,
        ).toBe(true);
        expect(
          [...places].sort((a, b) => a - b),
          from,
        ).toEqual(places);
        expect(text, from).toContain('Figure 6: ');
        expect(text, from).toContain('Quill Press');
      }
    },
  );

  withTools(
    ['epubcheck', 'lualatex'],
    'with one bibliography per chapter, each chapter ends with its own',
    async () => {
      const { ann, id } = await volume('chapter');
      const html = strFromU8(unzipSync((await exportCall(ann.browser, id, 'html')).bytes)['index.html']);
      const chapters = html.split('<section class="chapter"').slice(1);
      expect(chapters).toHaveLength(3);
      for (const chapter of chapters) expect(chapter.match(/class="csl-bib-body[ "]/g)).toHaveLength(1);

      const epub = await exportCall(ann.browser, id, 'epub');
      const files = unzipSync(epub.bytes);
      expect(files['EPUB/bibliography.xhtml']).toBeUndefined();
      for (const n of [1, 2, 3])
        expect(strFromU8(files[`EPUB/chapter-${n}.xhtml`])).toContain('class="csl-bib-body');
      const file = path.join(dir(), `${engine}-per-chapter.epub`);
      await writeFile(file, epub.bytes);
      expect(await epubcheckReport(file)).toContain('0 fatals / 0 errors / 0 warnings');

      const text = await compiledLatexText(ann.browser, id, `${engine}-per-chapter-latex`);
      // biblatex heads each chapter's bibliography with \refname.
      expect(text.match(/^References$/gm)).toHaveLength(3);
    },
    400_000,
  );

  withTools(
    ['lualatex', 'pdftotext'],
    'the LaTeX compiles with LuaLaTeX and biber, contents in order',
    async () => {
      const { ann, id } = await volume();
      const text = await compiledLatexText(ann.browser, id, `${engine}-latex`, 2);
      const places = TITLES.map((title) => text.indexOf(title));
      expect(places.every((place) => place >= 0)).toBe(true);
      expect([...places].sort((a, b) => a - b)).toEqual(places);
      // LaTeX numbers the figures through the book too: chapter 3 holds Figure 5.
      expect(text).toContain('Figure 5:');
      expect(text).toContain('Ink and paper');
    },
    400_000,
  );

  withTools(
    ['chromium', 'pdftotext'],
    'the print PDF in A4 has the contents and the chapters in order',
    async () => {
      const { ann, id } = await volume();
      const response = await exportCall(ann.browser, id, 'pdf');
      expect(response.status, response.text).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const file = path.join(dir(), `${engine}-book.pdf`);
      await writeFile(file, response.bytes);
      expect((await run('pdfinfo', [file])).stdout).toMatch(
        /Page size:\s+59[56](\.\d+)? x 84[12](\.\d+)? pts \(A4\)/,
      );
      const text = (await run('pdftotext', [file, '-'])).stdout;
      expect(text).toContain('Contents');
      const places = TITLES.map((title, index) => text.indexOf(`Chapter ${index + 1}: ${title}`));
      expect(places.every((place) => place >= 0)).toBe(true);
      expect([...places].sort((a, b) => a - b)).toEqual(places);
      expect(text).toContain('Figure 6:');
    },
  );

  withTools(
    ['chromium', 'pdftotext'],
    "the print PDF's contents give the page each chapter and the part start on",
    async () => {
      // Chapters of different lengths, each over several pages.
      const sizes = [12, 4, 8].map((paragraphs) => ({ ...CHAPTER, sections: 3, paragraphs }));
      const { ann, id } = await volume('book', sizes);
      const response = await exportCall(ann.browser, id, 'pdf');
      expect(response.status, response.text).toBe(200);
      const file = path.join(dir(), `${engine}-book-pages.pdf`);
      await writeFile(file, response.bytes);
      const pages = (await run('pdftotext', ['-layout', file, '-'])).stdout.split('\f');
      const contents = pages.findIndex((page) => /^\s*Contents\s*$/m.test(page));
      expect(contents).toBeGreaterThan(-1);
      /** The page number after a line of the contents, e.g. "Chapter 2: Paper mills      7". */
      const listed = (line: string) =>
        Number(new RegExp(`^\\s*${line}\\s+(\\d+)\\s*$`, 'm').exec(pages[contents])?.[1]);
      /** The page (from 1, as its footer prints it) where a heading line stands after the contents. */
      const actual = (heading: string) => {
        const index = pages.findIndex(
          (page, at) => at > contents && new RegExp(`^\\s*${heading}\\s*$`, 'm').test(page),
        );
        expect(pages[index], heading).toMatch(new RegExp(`^\\s*${index + 1} / \\d+\\s*$`, 'm'));
        return index + 1;
      };
      const starts = TITLES.map((title) => actual(title));
      expect(TITLES.map((title, index) => listed(`Chapter ${index + 1}: ${title}`))).toEqual(starts);
      expect(listed('Beginnings')).toBe(actual('Beginnings'));
      expect(listed('References')).toBe(actual('References'));
      // Each chapter fills pages of its own: the numbers are not simply one apart.
      expect(starts[1] - starts[0]).toBeGreaterThan(2);
      expect(starts[2] - starts[1]).toBeGreaterThan(1);
    },
  );
});
