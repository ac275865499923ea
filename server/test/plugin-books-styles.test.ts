import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { booksApi } from '@scriptorium/common/api/endpoints/plugins';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createDocument } from '../src/modules/documents/commands/create-document';
import { compileLatex, run, unzipTo, useTemporaryFolder, withTools } from './export-tools';
import { ENGINES, useServer } from './harness';

/**
 * Issue 21: a book whose citation style is "as in each chapter" renders each chapter's citations
 * in that chapter's own style (author-date, numeric, notes), on both engines.
 */

const CHAPTER = { sections: 1, equations: 0, citations: 3, figures: 0, paragraphs: 1 };
const STYLES = ['apa', 'ieee', 'chicago-note-bibliography'];
/** A fixture chapter's citations in IEEE: an autocite with a locator, a text citation, an autocite. */
// The second is a text citation: its authors, then the number (issue 53).
const IEEE_CITES = ['[1, p. 5]', 'Noether [2]', '[3]'];
type JsonNode = { type: string; content?: JsonNode[] };

/** The first node of `type` in a document's JSON. */
function first(node: JsonNode, type: string): JsonNode | undefined {
  if (node.type === type) return node;
  for (const child of node.content ?? []) {
    const found = first(child, type);
    if (found) return found;
  }
  return undefined;
}

/** The document's first citation repeated at the end of its first footnote. */
function citeInFootnote(doc: unknown) {
  const citation = first(doc as JsonNode, 'citation');
  const paragraph = first(first(doc as JsonNode, 'footnote') as JsonNode, 'paragraph');
  paragraph?.content?.push(structuredClone(citation as JsonNode));
}

/** The footnotes each fixture chapter has of its own. */
const CHAPTER_NOTES = 1;

describe.each(ENGINES)('book citation styles per chapter (%s)', (engine) => {
  const server = useServer(engine, { env: { PLUGINS: 'books' } });
  const dir = useTemporaryFolder('book-styles-');

  /** A book of three chapters, one in each of STYLES. */
  async function makeBook(citationStyle: string, bibliography: 'book' | 'chapter', citeInNote = false) {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const ids: number[] = [];
    for (const [index, style] of STYLES.entries()) {
      const title = `Chapter in ${style}`;
      const { id } = await createDocument(server().ctx.db, user.id, { title, path: '' });
      const doc = fixturePaper(CHAPTER, title).doc.toJSON() as { attrs: Record<string, unknown> };
      doc.attrs.citationstyle = style;
      if (citeInNote) citeInFootnote(doc);
      await server()
        .ctx.db.updateTable('documents')
        .set({ content: JSON.stringify(doc), content_version: 0, version: 0, title })
        .where('id', '=', id)
        .execute();
      ids.push(id);
      expect(index).toBe(ids.length - 1);
    }
    const { id } = (await browser.call(booksApi.create, { title: 'Mixed' })).json<{ id: number }>();
    await browser.call(booksApi.chapters, { id, chapters: ids.map((document_id) => ({ document_id })) });
    const saved = await browser.call(booksApi.save, {
      id,
      title: 'Mixed',
      metadata: { authors: '', publisher: '', isbn: '', copyright: '', language: 'en-US', cover_image: null },
      settings: { citation_style: citationStyle, paper_size: 'A4', bibliography },
    });
    expect(saved.status, saved.text).toBe(200);
    return { browser, id };
  }

  /** Each chapter's HTML in the book's HTML export. */
  async function book(citationStyle: string, bibliography: 'book' | 'chapter') {
    const { browser, id } = await makeBook(citationStyle, bibliography);
    const response = await browser.call(booksApi.export, { id: String(id), format: 'html' });
    expect(response.status, response.text).toBe(200);
    const files = unzipSync(response.bytes);
    const html = strFromU8(files[Object.keys(files).find((name) => name.endsWith('.html')) as string]);
    // Each chapter's section, from its opening to the next chapter's.
    return STYLES.map((_, index) => {
      const start = html.indexOf(`id="chapter-${index + 1}"`);
      const end = html.indexOf(`id="chapter-${index + 2}"`);
      expect(start).toBeGreaterThan(-1);
      return html.slice(start, end === -1 ? undefined : end);
    });
  }

  /** The footnotes of a chapter's HTML. */
  const notes = (chapter: string) => chapter.match(/class="footnote-back"/g)?.length ?? 0;

  /** The rendered citations of a chapter's HTML. */
  const cites = (chapter: string) =>
    [...chapter.matchAll(/<span class="citation">(.*?)<\/span>/g)].map((m) => m[1]);

  it.each(['chapter', 'book'] as const)(
    'renders each chapter in its own style (bibliography per %s)',
    async (bibliography) => {
      const [apa, ieee, chicago] = await book('', bibliography);
      expect(cites(apa).length).toBeGreaterThan(0);
      for (const cite of cites(apa)) expect(cite).toMatch(/^[^[]*\d{4}[^[]*$/);
      expect(cites(ieee)).toEqual(IEEE_CITES);
      // A note style: every citation is a footnote of the chapter (its back link after it).
      expect(cites(chicago).length).toBeGreaterThan(0);
      expect(notes(chicago)).toBe(cites(chicago).length + CHAPTER_NOTES);
      for (const chapter of [apa, ieee]) expect(notes(chapter)).toBe(CHAPTER_NOTES);
    },
  );

  it('keeps one style for the whole book when the book names one', async () => {
    const chapters = await book('ieee', 'book');
    // Numbered through the book; the chapters cite the same three entries (the second in the
    // text: its authors named from the entry, never citeproc's "[NO_PRINTED_FORM]").
    for (const chapter of chapters) expect(cites(chapter)).toEqual(IEEE_CITES);
    // The bibliography at the end (after the last chapter) is in the book's style too.
    expect(chapters[2]).toContain('<div class="csl-left-margin">[1]');
  });

  it('with "as in each chapter", the bibliography at the end is in the first chapter’s style', async () => {
    const chapters = await book('', 'book');
    const bibliography = chapters[2].slice(chapters[2].indexOf('class="csl-bib-body'));
    // APA (author-date): no numbered labels, the year after the authors.
    expect(bibliography).toContain('Lovelace, A. (1990)');
    expect(bibliography).not.toContain('csl-left-margin');
  });

  withTools(
    ['lualatex', 'pdftotext'],
    'LaTeX: a chapter whose style biblatex cannot give keeps its own (bibliography per book and per chapter)',
    async () => {
      for (const bibliography of ['book', 'chapter'] as const) {
        const { browser, id } = await makeBook('', bibliography, true);
        const response = await browser.call(booksApi.export, { id: String(id), format: 'latex' });
        expect(response.status, response.text).toBe(200);
        const folder = path.join(dir(), `${engine}-${bibliography}`);
        await unzipTo(response.bytes, folder);
        const tex = await readFile(path.join(folder, 'document.tex'), 'utf8');
        // The book's biblatex style is the first chapter's (APA: biblatex-apa); its citations stay
        // biblatex's, the IEEE chapter's read as citeproc wrote them, the note style's as footnotes.
        expect(tex).toContain('style=apa');
        const [apa, ieee, chicago] = tex.split('\\chapter{').slice(1);
        expect(apa).toContain('\\autocite');
        for (const cite of IEEE_CITES) expect(ieee).toContain(cite);
        expect(ieee).not.toContain('\\autocite');
        expect(chicago).not.toContain('\\autocite');
        expect(chicago).toMatch(/\\footnote\{[^}]*Lovelace/);
        // A citation inside a footnote is no footnote of its own there.
        expect(chicago).toMatch(/\\footnote\{A footnote with remarks on section 1\.[^{}]*Lovelace[^{}]*\}/);
        await compileLatex(folder);
        const log = await compileLatex(folder);
        expect(log).not.toMatch(/^! /m);
        expect(log).not.toContain('Citation ');
        const text = (await run('pdftotext', [path.join(folder, 'document.pdf'), '-'])).stdout;
        expect(text).toContain('[1, p. 5]');
        if (bibliography === 'chapter') {
          // Each chapter ends with its own list, the IEEE one numbered as its citations.
          expect(text.match(/^References$/gm)).toHaveLength(3);
          expect(ieee).toContain('\\item[{[1]}] ');
        } else expect(text).toMatch(/^Bibliography$/m);
      }
    },
    400_000,
  );
});
