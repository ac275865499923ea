import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { withWideFloats } from '@scriptorium/common/export/fixture-wide-floats';
import { type ExportInput, prepareDocument } from '@scriptorium/common/export/model';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { loadCsl } from '../src/modules/documents/export/csl-files';
import { type PageReadiness, Printer } from '../src/modules/documents/export/printer';
import { exportTypesetPdf, layOutPage, readyForTypesetting } from '../src/modules/documents/export/typeset';
import { typesetHtml } from '../src/modules/documents/export/typeset-html';
import { run, useTemporaryFolder, withTools } from './export-tools';

/**
 * Issue 53: the typeset PDF (typeset.ts), read back with poppler: notes at the foot of the page
 * that calls them, an article's title block without the editor's labels, running heads and page
 * numbers, numbered captions, the metadata, the outline of the headings, a tagged PDF in the
 * document's paper size. One printer (one Chromium start) prints both papers.
 */

const printer = new Printer({ pdfPrints: 1, pdfTimeLimitMs: 300_000, pdfMaxPages: 1_000 });
afterAll(() => printer.close());

interface Read {
  info: string;
  /** The text of each page, as laid out (pdftotext -layout). */
  pages: string[];
  outline: string;
  raw: string;
}

describe('typeset PDF', () => {
  const dir = useTemporaryFolder('export-typeset-');
  const english = fixturePaper();
  const german = fixturePaper();

  beforeAll(async () => {
    english.input.csl = await loadCsl('apa', 'en-US');
    const content = german.input.content as { attrs: Record<string, unknown> };
    german.input.content = {
      ...content,
      attrs: { ...content.attrs, language: 'de-DE', paper_size: 'US Letter' },
    };
    german.input.csl = await loadCsl('apa', 'de-DE');
    // The first figure's image is one this reader may not see: it is not in the export's input.
    const [hidden] = Object.keys(german.input.images);
    const { [hidden]: _, ...visible } = german.input.images;
    german.input.images = visible;
  });

  async function typeset(input: ExportInput, name: string): Promise<Read> {
    const file = path.join(dir(), `${name}.pdf`);
    await writeFile(file, await exportTypesetPdf(prepareDocument(input), printer));
    const { stdout: info, stderr } = await run('pdfinfo', [file]);
    // The metadata's incremental update reads without a syntax error.
    expect(stderr).toBe('');
    const count = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
    const pages: string[] = [];
    for (let page = 1; page <= count; page++) {
      pages.push(
        (await run('pdftotext', ['-layout', '-f', String(page), '-l', String(page), file, '-'])).stdout,
      );
    }
    const outline = (await run('pdftohtml', ['-xml', '-i', '-stdout', file])).stdout;
    return { info, pages, outline, raw: (await readFile(file)).toString('latin1') };
  }

  const words = (text: string) => text.replace(/\s+/g, ' ');

  interface Word {
    text: string;
    xMin: number;
    yMin: number;
    xMax: number;
    yMax: number;
  }
  /** Every page's words with their boxes in points from the top left (pdftotext -bbox). */
  async function boxes(file: string): Promise<Word[][]> {
    const { stdout } = await run('pdftotext', ['-bbox', file, '-'], { maxBuffer: 64 << 20 });
    return stdout
      .split('<page ')
      .slice(1)
      .map((page) =>
        Array.from(
          page.matchAll(
            /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
          ),
          (match) => ({
            text: match[5],
            xMin: Number(match[1]),
            yMin: Number(match[2]),
            xMax: Number(match[3]),
            yMax: Number(match[4]),
          }),
        ),
      );
  }

  async function typesetFile(
    input: ExportInput,
    name: string,
  ): Promise<{ pages: string[]; boxes: Word[][] }> {
    const file = path.join(dir(), `${name}.pdf`);
    await writeFile(file, await exportTypesetPdf(prepareDocument(input), printer));
    const { stdout } = await run('pdftotext', ['-layout', file, '-']);
    return { pages: stdout.split('\f').slice(0, -1), boxes: await boxes(file) };
  }

  withTools(
    ['chromium', 'pdftotext'],
    'an article in A4: notes on their page, title block, heads, numbers, metadata, outline, tags',
    async () => {
      const { info, pages, outline, raw } = await typeset(english.input, 'english');
      expect(info).toMatch(/Page size:\s+59[45](\.\d+)? x 84[12](\.\d+)? pts \(A4\)/);
      expect(pages.length).toBeGreaterThanOrEqual(2);
      // The document information and the catalog's language.
      expect(info).toMatch(/^Title:\s+Structures of Example Problems$/m);
      expect(info).toMatch(/^Author:\s+Ada Lovelace; Emmy Noether$/m);
      expect(info).toMatch(/^Keywords:\s+structures, examples$/m);
      expect(info).toMatch(/^Tagged:\s+yes$/m);
      expect(raw).toMatch(/\/Lang \(en-US\)/);

      const all = words(pages.join('\n'));
      // The title block: no editor labels (drawn in capitals there), the keywords under a label.
      for (const label of ['AUTHORS', 'ABSTRACT', 'KEYWORDS']) expect(all).not.toContain(label);
      expect(all).toContain('Ada Lovelace, Analytical Society');
      expect(all).toContain('Keywords: structures, examples');
      // The footnote sits at the foot of the page whose text calls it, not at the end.
      const note = english.footnotes[0];
      const notePage = pages.findIndex((page) => words(page).includes(note));
      expect(notePage).toBeGreaterThanOrEqual(0);
      expect(words(pages[notePage])).toContain('and a footnote1.');
      expect(words(pages[notePage])).toMatch(new RegExp(`1\\. ${note}`));
      expect(notePage).toBeLessThan(pages.length - 1);
      // Numbered captions, citations and the bibliography in the style's words.
      expect(all).toContain('Figure 1: A striped image number 1');
      expect(all).toContain('Table 1: Measured values');
      expect(all).toContain('(Lovelace, 1990, p. 5)');
      expect(all).toContain('Hopper, A. (1993). On the structure of problem 3. Open Press.');
      // Every page ends with its number; from the second on, the running heads stand on top.
      pages.forEach((page, index) => {
        expect(page.trim().split('\n').at(-1)?.trim(), `page ${index + 1}`).toBe(String(index + 1));
        if (index > 0)
          expect(page.trim().split('\n')[0]).toMatch(
            /^Lovelace and Noether\s+Structures of Example Problems$/,
          );
      });
      expect(pages[0]).not.toContain('Lovelace and Noether');
      // Bookmarks: the title, then the headings with their pages.
      expect(outline).toMatch(/<outline>\s*<item page="1">Structures of Example Problems<\/item>/);
      expect(outline).toMatch(/<item page="1">1 Section 1 on structures<\/item>/);
      expect(outline).toMatch(new RegExp(`<item page="${pages.length}">References</item>`));
    },
  );

  withTools(
    ['chromium', 'pdftotext'],
    "a German paper in US Letter: its labels, its language, a hidden image's spot marked",
    async () => {
      const { info, pages, raw } = await typeset(german.input, 'german');
      expect(info).toMatch(/Page size:\s+612(\.\d+)? x 792(\.\d+)? pts \(letter\)/);
      expect(raw).toMatch(/\/Lang \(de-DE\)/);
      const all = words(pages.join('\n'));
      expect(all).toContain('Schlagwörter: structures, examples');
      expect(all).not.toContain('SCHLAGWÖRTER');
      expect(all).toContain('Abbildung 1: A striped image number 1');
      expect(all).toContain('(Lovelace, 1990, S. 5)');
      expect(all).toContain('Bild nicht verfügbar');
      expect(pages[1].trim().split('\n')[0]).toMatch(
        /^Lovelace und Noether\s+Structures of Example Problems$/,
      );
    },
  );

  withTools(['chromium'], 'a paragraph split by a page keeps two lines on each page', async () => {
    const long = fixturePaper({ sections: 8, equations: 2, citations: 6, figures: 2, paragraphs: 9 });
    long.input.csl = english.input.csl;
    // The fixture's paragraphs are two lines long: each made some seven lines longer.
    const filler = ' Its argument runs on over several lines, so that a page break falls inside it.'.repeat(
      8,
    );
    const html = typesetHtml(prepareDocument(long.input)).html.replace(
      /(<p>This paragraph \d+ of section \d+)/g,
      `$1${filler}`,
    );
    const fragments = await printer.print(async (context) => {
      const page = await context.newPage();
      await page.route('**/*', (route) =>
        route.request().url().startsWith('data:') ? route.continue() : route.abort(),
      );
      expect(await layOutPage(page, html)).toBeGreaterThan(3);
      // The lines of each part of each paragraph, by the paragraph's reference, page by page.
      return page.evaluate(() => {
        const lines: Record<string, number[]> = {};
        for (const paragraph of Array.from(document.querySelectorAll('.pagedjs_page_content p[data-ref]'))) {
          const range = document.createRange();
          range.selectNodeContents(paragraph);
          const tops = new Set<number>();
          for (const rect of Array.from(range.getClientRects()))
            if (rect.height > 4) tops.add(Math.round(rect.bottom / 4));
          const ref = paragraph.getAttribute('data-ref') as string;
          lines[ref] = [...(lines[ref] ?? []), tops.size];
        }
        return Object.values(lines).filter((parts) => parts.length > 1);
      });
    });
    // Some paragraphs do cross a page, and none leaves a single line behind or ahead.
    expect(fragments.length).toBeGreaterThan(0);
    for (const parts of fragments)
      for (const count of parts) expect(count, String(parts)).toBeGreaterThanOrEqual(2);
  });

  withTools(
    ['chromium', 'pdftotext'],
    'a figure that does not fit stands at the top of the next page, the text after it fills the gap',
    async () => {
      const paper = fixturePaper({ sections: 12, equations: 4, citations: 6, figures: 12, paragraphs: 4 });
      paper.input.csl = english.input.csl;
      const { pages, boxes: placed } = await typesetFile(paper.input, 'floats');
      const pageOf = (text: string) => pages.findIndex((page) => words(page).includes(text));
      const floated: number[] = [];
      // Figure n ends section n (fixture-paper.ts): the heading of section n + 1 follows it.
      for (let n = 1; n < 12; n++) {
        const caption = pageOf(`Figure ${n}: A striped image number ${n}`);
        const after = pageOf(`${n + 1} Section ${n + 1} on structures`);
        expect(caption, `figure ${n}`).toBeGreaterThanOrEqual(0);
        expect(after, `section ${n + 1}`).toBeGreaterThan(0);
        if (after < caption) floated.push(n);
      }
      expect(floated.length).toBeGreaterThan(0);
      for (const n of floated) {
        const page = pageOf(`Figure ${n}: A striped image number ${n}`);
        // Above its caption, under the running head: its image and only other floats' captions.
        const lines = pages[page].split('\n').filter((line) => line.trim());
        const at = lines.findIndex((line) => line.includes(`Figure ${n}:`));
        for (const line of lines.slice(1, at))
          expect(line.trim(), `figure ${n}`).toMatch(/^(Figure|Table) \d+:/);
        // The page before is full: its last line of text stands at the foot of the text block
        // (A4: 842 pt less the bottom margin of 122 pt), within two lines of 12 pt.
        const text = placed[page - 1].filter((word) => word.yMax < 842 - 122 + 6);
        expect(Math.max(...text.map((word) => word.yMax)), `page ${page}`).toBeGreaterThan(842 - 122 - 24);
      }
    },
  );

  withTools(
    ['chromium'],
    'wherever a float falls near the end, it is laid out once and so is the text',
    async () => {
      // The last figure pushed down a line at a time by a longer paragraph before it, past the
      // foot of a page and on: waiting at the end of the text, or at the top of the page after.
      const short = fixturePaper({ sections: 2, equations: 0, citations: 2, figures: 2, paragraphs: 2 });
      short.input.csl = english.input.csl;
      const html = typesetHtml(prepareDocument(short.input)).html;
      const filler = ' More words that fill the page line after line.'.repeat(10);
      const laidOut = await printer.print(async (context) => {
        const page = await context.newPage();
        const found: { captions: string[]; entries: number; last: number }[] = [];
        for (let lines = 0; lines <= 18; lines++) {
          await layOutPage(
            page,
            html.replace(/(<p>This paragraph 2 of section 2[^<]*)/, `$1${filler.repeat(lines)}`),
          );
          found.push(
            await page.evaluate(() => ({
              captions: Array.from(document.querySelectorAll('.pagedjs_page figcaption'), (caption) =>
                (caption.textContent ?? '').slice(0, 8),
              ),
              entries: document.querySelectorAll('.pagedjs_page .csl-entry').length,
              last: Array.from(document.querySelectorAll('.pagedjs_page p')).filter(
                (paragraph) => paragraph.textContent === 'Finally conclude.',
              ).length,
            })),
          );
        }
        return found;
      });
      for (const [lines, { captions, entries, last }] of laidOut.entries()) {
        expect(captions, `filler ${lines}`).toEqual(['Figure 1', 'Figure 2']);
        expect(entries, `filler ${lines}`).toBe(2);
        expect(last, `filler ${lines}`).toBe(1);
      }
    },
  );

  withTools(
    ['chromium', 'pdftotext'],
    'the IEEE conference and ACM sigconf templates set two columns under a title block across both',
    async () => {
      const middle = 595.28 / 2;
      // The words of the body: below the title block on the first page, between the running
      // head and the page number.
      const body = (page: Word[], from: number) =>
        page.filter((word) => word.yMin > from && word.yMax < 842 - 72 && word.yMin > 60);
      for (const layout of ['ieee-conference', 'acm-sigconf']) {
        const paper = fixturePaper({ sections: 6, equations: 4, citations: 6, figures: 4, paragraphs: 4 });
        paper.input.csl = english.input.csl;
        const content = paper.input.content as { attrs: Record<string, unknown> };
        paper.input.content = { ...content, attrs: { ...content.attrs, latex_class: layout } };
        const { pages, boxes: placed } = await typesetFile(paper.input, layout);
        const titleFoot = Math.max(
          ...placed[0].filter((word) => word.text === 'Keywords:').map((word) => word.yMax),
        );
        // Every word stands in one of two bands with the gutter between them; both hold text.
        for (const [index, page] of placed.entries()) {
          const text = body(page, index === 0 ? titleFoot : 0);
          const left = text.filter((word) => word.xMax <= middle - 5);
          const right = text.filter((word) => word.xMin >= middle + 5);
          expect(left.length + right.length, `${layout} page ${index + 1}`).toBe(text.length);
          if (index < pages.length - 1) {
            expect(left.length, `${layout} page ${index + 1}`).toBeGreaterThan(20);
            expect(right.length, `${layout} page ${index + 1}`).toBeGreaterThan(20);
          }
        }
        // The title block spans the page: the title is centred on it.
        const title = placed[0].filter((word) => ['Structures', 'Problems'].includes(word.text));
        expect(title[0].xMin, layout).toBeLessThan(middle);
        expect(title[1].xMax, layout).toBeGreaterThan(middle);
      }
      // The one-column article's lines do cross the middle.
      const article = await typesetFile(english.input, 'one-column');
      expect(body(article.boxes[1], 0).some((word) => word.xMin < middle && word.xMax > middle)).toBe(true);
    },
  );

  withTools(
    ['chromium', 'pdftotext'],
    'in two columns a figure and a table wider than a column span both at the top of a page',
    async () => {
      const middle = 595.28 / 2;
      const paper = fixturePaper({ sections: 6, equations: 2, citations: 4, figures: 3, paragraphs: 4 });
      paper.input.csl = english.input.csl;
      const input = withWideFloats(paper.input);
      const content = input.content as { attrs: Record<string, unknown> };
      input.content = { ...content, attrs: { ...content.attrs, latex_class: 'ieee-conference' } };
      const { boxes: placed } = await typesetFile(input, 'wide-floats');
      /** The page and the words of the caption line that begins with `label` and `number`. */
      const caption = (label: string, number: string) => {
        for (const [index, page] of placed.entries())
          for (const [at, word] of page.entries())
            if (word.text === label && page[at + 1]?.text === number)
              return { index, line: page.filter((other) => Math.abs(other.yMin - word.yMin) < 1) };
        throw new Error(`no caption ${label} ${number}`);
      };
      const spanned = ['Figure', 'Table', '1:', '2:', 'A', 'striped', 'image', 'number', 'Wide', 'values'];
      const cells = ['Run', 'Alpha', 'Beta', 'Gamma', 'Delta', '1', '0.11', '0.12', '0.13', '0.14'];
      for (const [label, number] of [
        ['Figure', '1:'],
        ['Table', '2:'],
      ]) {
        const { index, line } = caption(label, number);
        // Across the gutter, centred on the page.
        expect(Math.min(...line.map((word) => word.xMin)), label).toBeLessThan(middle - 20);
        expect(Math.max(...line.map((word) => word.xMax)), label).toBeGreaterThan(middle + 20);
        // At the top of its page (below the running head): above it only the other wide float.
        const above = placed[index].filter((word) => word.yMin > 60 && word.yMax <= line[0].yMin);
        for (const word of above)
          expect([...spanned, ...cells], `${label} ${word.text}`).toContain(word.text);
        // Not on the first page: the title block and the text it interrupted come first.
        expect(index, label).toBeGreaterThan(0);
      }
      // A narrow figure stays in its column.
      const narrow = caption('Figure', '2:').line;
      const inLeft = narrow.every((word) => word.xMax <= middle);
      const inRight = narrow.every((word) => word.xMin >= middle);
      expect(inLeft || inRight).toBe(true);
    },
  );
});

describe('the page kept ready for the next export (printer.ts)', () => {
  withTools(
    ['chromium'],
    'is readied once ahead, in a fresh context, and taken by the export of its readiness',
    async () => {
      const own = new Printer({ pdfPrints: 1, pdfTimeLimitMs: 300_000, pdfMaxPages: 1_000 });
      try {
        let readied = 0;
        const readiness: PageReadiness = async (page) => {
          readied++;
          await page.evaluate('window.readied = true');
        };
        // As the server does: warm() as the HTML is made, then the print (one page readied, not two).
        void own.warm(readiness);
        const first = await own.print(
          async (context, page) => {
            const seen = {
              readied,
              marked: await page.evaluate('window.readied === true'),
              pages: context.pages().length,
            };
            await page.setContent('<p>the first export</p>');
            return seen;
          },
          { readiness },
        );
        expect(first).toEqual({ readied: 1, marked: true, pages: 1 });
        // The next one was readied after it, in a context of its own: nothing of the first is seen.
        const second = await own.print(
          async (context, page) => ({
            readied,
            marked: await page.evaluate('window.readied === true'),
            text: await page.evaluate('document.body?.textContent ?? ""'),
            pages: context.pages().length,
          }),
          { readiness },
        );
        expect(second).toEqual({ readied: 2, marked: true, text: '', pages: 1 });
        // An export of another readiness (a book's print) gets a page of its own.
        expect(await own.print(async (_context, page) => page.evaluate('window.readied === true'))).toBe(
          false,
        );
        // Paged.js stays in the page as the export's HTML is written into it.
        expect(
          await own.print(
            async (_context, page) => {
              await page.setContent('<p>Text</p>');
              return page.evaluate('typeof window.Paged');
            },
            { readiness: readyForTypesetting },
          ),
        ).toBe('object');
      } finally {
        await own.close();
      }
    },
  );
});
