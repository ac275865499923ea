import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { journalPaper } from '@scriptorium/common/export/fixture-journal';
import {
  blockSuggestionsDocument,
  fixturePaper,
  joinSuggestionsDocument,
  pasteSuggestionsDocument,
} from '@scriptorium/common/export/fixture-paper';
import { commentDate, THREAD_SHAPES, threadsDocument } from '@scriptorium/common/export/fixture-threads';
import { WIDE_TABLE_CAPTION, withWideFloats } from '@scriptorium/common/export/fixture-wide-floats';
import { prepareDocument } from '@scriptorium/common/export/model';
import { type ExportFormatName, exportDocument } from '@scriptorium/common/export/registry';
import { attr, descendants, parseXml } from '@scriptorium/common/import/xml';
import { BUILTIN_TEMPLATES } from '@scriptorium/common/plugins/builtin-templates';
import { epubcheckReport } from '@scriptorium/common/testing/office-tools';
import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCsl } from '../src/modules/documents/export/csl-files';
import { exportPdf } from '../src/modules/documents/export/pdf';
import { Printer } from '../src/modules/documents/export/printer';
import {
  compileLatex,
  inPairs,
  jatsCatalog,
  libreOfficeConvert,
  run,
  unzipTo,
  useTemporaryFolder,
  withTools,
} from './export-tools';

/**
 * Issue 19: the exports of the fixture paper (headings, lists, a table with merged cells,
 * footnotes, 10 equations, 20 citations, 3 figures, comments, tracked changes, cross-references)
 * checked by the real tools. A test whose tool is missing is skipped, and fails with
 * REQUIRE_SERVICES=1 (CI installs the tools: .ci/run).
 */

/**
 * The paragraphs of a WordprocessingML body: text (deleted text in [ ]), and its mark's and row's
 * revisions, and whether a tracked change of its properties had it numbered.
 */
function wordParagraphs(xml: string): string[] {
  return [...xml.matchAll(/<w:tr>(?:<w:trPr>(.*?)<\/w:trPr>)?|<w:p>(.*?)<\/w:p>/g)].map(([, row, p]) => {
    if (p === undefined) return `row ${/<w:(ins|del) /.exec(row ?? '')?.[1] ?? ''}`;
    const mark = /<w:pPr>.*<w:rPr>(.*?)<\/w:rPr><\/w:pPr>/.exec(p)?.[1] ?? '';
    const text = [...p.matchAll(/<w:(t|delText)(?: [^>]*)?>([^<]*)</g)]
      .map(([, tag, value]) => (tag === 'delText' ? `[${value}]` : value))
      .join('');
    const numbering = /<w:pPrChange /.test(p)
      ? ` numbering was ${/<w:pPrChange .*<w:numPr>/.test(p) ? 'on' : 'off'}`
      : '';
    return `${text}${/<w:ins /.test(mark) ? ' +¶' : ''}${/<w:del /.test(mark) ? ' -¶' : ''}${numbering}`;
  });
}

describe('exports checked by real tools', () => {
  const paper = fixturePaper();
  const dir = useTemporaryFolder('export-validation-');
  const files = new Map<string, string>();

  beforeAll(async () => {
    paper.input.csl = await loadCsl('apa', 'en-US');
  });

  async function exported(format: ExportFormatName): Promise<string> {
    const known = files.get(format);
    if (known) return known;
    const file = await exportDocument(format, paper.input);
    const target = path.join(dir(), file.name.replace(/\.zip$/, `.${format}.zip`));
    await writeFile(target, file.data);
    files.set(format, target);
    return target;
  }

  async function unzipped(format: ExportFormatName): Promise<string> {
    const target = path.join(dir(), format);
    const entries = unzipSync(await readFile(await exported(format)));
    await run('mkdir', ['-p', target]);
    for (const [name, data] of Object.entries(entries)) {
      await run('mkdir', ['-p', path.dirname(path.join(target, name))]);
      await writeFile(path.join(target, name), data);
    }
    return target;
  }

  /** What pandoc reads of a file, as its JSON AST text. */
  async function pandocJson(file: string, from: string): Promise<string> {
    const { stdout } = await run('pandoc', ['-f', from, '-t', 'json', '--track-changes=all', file], {
      maxBuffer: 64 << 20,
    });
    return stdout;
  }

  function expectPaperContent(
    ast: string,
    { comments, notes = true }: { comments: boolean; notes?: boolean },
  ) {
    for (const heading of paper.headings) expect(ast).toContain(JSON.stringify(heading.split(' ')[0]));
    const headers = (ast.match(/"t":"Header"/g) ?? []).length;
    expect(headers).toBeGreaterThanOrEqual(paper.headings.length);
    expect((ast.match(/"t":"Math"/g) ?? []).length).toBeGreaterThanOrEqual(paper.equations.length);
    if (notes) expect((ast.match(/"t":"Note"/g) ?? []).length).toBeGreaterThanOrEqual(paper.footnotes.length);
    expect(ast).toContain('"remarks"');
    if (comments) expect(ast).toContain('comment-start');
  }

  /** The paper exported in the format, read back by pandoc and checked for the paper's content. */
  async function exportedPaper(format: 'docx' | 'odt', expected: { comments: boolean }) {
    const file = await exported(format);
    const ast = await pandocJson(file, format);
    expectPaperContent(ast, expected);
    return { file, ast };
  }

  /** LibreOffice headless converts a file to `to` (pdf, docx); the path of the result. */
  async function sofficeConvert(file: string, to: string): Promise<string> {
    return libreOfficeConvert(file, to, path.join(dir(), `${path.extname(file).slice(1)}-${to}`), dir());
  }

  withTools(
    ['soffice', 'pandoc'],
    'DOCX: LibreOffice converts it to PDF, pandoc reads headings, math, footnotes, comments',
    async () => {
      const { file: docx, ast } = await exportedPaper('docx', { comments: true });
      expect(ast).toContain('"insertion"');
      expect(ast).toContain('"deletion"');
      const pdf = await sofficeConvert(docx, 'pdf');
      const { stdout } = await run('pdftotext', [pdf, '-']);
      expect(stdout).toContain('Section 1 on structures');
      expect(stdout).toContain('Lovelace');
    },
  );

  withTools(
    ['soffice', 'pandoc', 'pdftotext'],
    'ODT: pandoc reads headings, emphasis, math, footnotes, table; LibreOffice opens it with comments, suggestions and repeated table header rows',
    async () => {
      const { file: odt, ast } = await exportedPaper('odt', { comments: false });
      expect(ast).toContain('"t":"Emph"');
      expect(ast).toContain('"t":"Table"');
      expect(ast).toContain('"Measured"');
      expect(ast).toContain('"Lovelace,"');
      // pandoc 2.17's ODT reader skips annotations and tracked changes: LibreOffice reads them, and
      // the DOCX it makes of our ODT shows them (and the formulas as Office math) to pandoc.
      const relayedDocx = await sofficeConvert(odt, 'docx');
      const relayed = await pandocJson(relayedDocx, 'docx');
      expectPaperContent(relayed, { comments: true });
      // The table's header rows (table:table-header-rows, whose content pandoc 2.17's ODT reader
      // skips) are LibreOffice's repeated heading rows: w:tblHeader in its DOCX.
      const document = strFromU8(unzipSync(await readFile(relayedDocx))['word/document.xml']);
      const rows = (
        /<w:tbl>[\s\S]*?<\/w:tbl>/.exec(document)?.[0].match(/<w:tr[ >][\s\S]*?<\/w:tr>/g) ?? []
      ).map((row) => ({
        text: [...row.matchAll(/<w:t(?: [^>]*)?>([^<]+)<\/w:t>/g)].map((match) => match[1]).join(' '),
        header: row.includes('<w:tblHeader'),
      }));
      expect(rows).toEqual([
        { text: 'Group Results', header: true },
        { text: 'Mean Deviation', header: true },
        { text: 'A 1.5 0.2', header: false },
        { text: 'B 2.5', header: false },
      ]);
      expect(relayed).toContain('"insertion"');
      expect(relayed).toContain('"deletion"');
      expect(relayed).toContain('"Please"');
      const { stdout } = await run('pdftotext', [await sofficeConvert(odt, 'pdf'), '-']);
      expect(stdout).toContain('Section 1 on structures');
      expect(stdout).toContain('(Lovelace, 1990, p. 5)');
      expect(stdout).toContain('Figure 3: A striped image number 3');
    },
  );

  withTools(
    ['soffice'],
    'Suggestions on blocks: LibreOffice reads the inserted and deleted list item and table rows of our DOCX and ODT',
    async () => {
      const input = { content: blockSuggestionsDocument().toJSON(), threads: [], images: {}, csl: null };
      const file = async (format: 'docx' | 'odt') => {
        const target = path.join(dir(), `suggestions.${format}`);
        await writeFile(target, (await exportDocument(format, input)).data);
        return target;
      };
      const docx = await file('docx');
      const odt = await file('odt');
      const part = async (zip: string, name: string) => strFromU8(unzipSync(await readFile(zip))[name]);
      const expected = [
        'Before the list.',
        'Kept item +¶',
        'New item',
        '[Old item] -¶',
        'Last item',
        'Table 1: ',
        'row ',
        'A',
        'B',
        'row ins',
        'C',
        'D',
        'row del',
        '[E]',
        '[F]',
        '',
        'After the table.',
      ];
      const body = (xml: string) => {
        const all = wordParagraphs(xml);
        return all.slice(all.indexOf('Before the list.'), all.indexOf('After the table.') + 1);
      };
      // Our DOCX through LibreOffice's DOCX filter: the paragraph marks and rows keep their revisions
      // (a cell's last paragraph mark, the end of the cell, goes with its row).
      expect(body(await part(await sofficeConvert(docx, 'docx'), 'word/document.xml'))).toEqual(expected);
      // Our DOCX as LibreOffice's ODT: with the deletions left in their regions the text reads accepted.
      const fromDocx = await part(await sofficeConvert(docx, 'odt'), 'content.xml');
      const regions =
        /<text:tracked-changes[^>]*>([\s\S]*?)<\/text:tracked-changes>/.exec(fromDocx)?.[1] ?? '';
      expect(regions).toMatch(
        /<text:deletion>.*<text:list-item><text:p[^>]*>Old item<\/text:p><\/text:list-item>/,
      );
      const accepted = fromDocx
        .replace(/<text:tracked-changes[\s\S]*?<\/text:tracked-changes>/, '')
        .replace(/<\/text:p>/g, '\n')
        .replace(/<[^>]+>/g, '');
      expect(accepted).toContain('Kept item\nNew item\nLast item\n');
      expect(accepted).not.toMatch(/Old item|^E$|^F$/m);
      // Our ODT as LibreOffice reads it (to DOCX): the same list; its rows as LibreOffice 7's ODT
      // keeps suggested rows, their text tracked.
      const fromOdt = body(await part(await sofficeConvert(odt, 'docx'), 'word/document.xml'));
      expect(fromOdt.slice(0, 5)).toEqual(expected.slice(0, 5));
      expect(fromOdt).toEqual(expect.arrayContaining(['C', 'D', '[E]', '[F]']));
    },
  );

  /** The paragraphs LibreOffice reads out of our DOCX and our ODT of `doc`, from `first` on (as DOCX). */
  async function readByLibreOffice(doc: PMNode, first: string, format: 'docx' | 'odt'): Promise<string[]> {
    const input = { content: doc.toJSON(), threads: [], images: {}, csl: null };
    const target = path.join(dir(), `${first}.${format}`);
    await writeFile(target, (await exportDocument(format, input)).data);
    const xml = strFromU8(
      unzipSync(await readFile(await sofficeConvert(target, 'docx')))['word/document.xml'],
    );
    const all = wordParagraphs(xml);
    return all.slice(all.indexOf(first));
  }

  withTools(
    ['soffice'],
    'Suggested joins: LibreOffice reads the deleted paragraph marks of our ODT as those of our DOCX',
    async () => {
      const expected = ['First -¶', 'second', 'One -¶', 'two', 'Three', 'Lead -¶', 'heading'];
      // The join above the text ("Five" goes on the item "Four"): a change of the paragraph's
      // numbering in DOCX. ODF has no record for that (LibreOffice writes text:UnknownChange), so
      // the ODT keeps both items as they are.
      expect(await readByLibreOffice(joinSuggestionsDocument(), expected[0], 'docx')).toEqual([
        ...expected,
        'Four',
        'Five numbering was on',
      ]);
      expect(await readByLibreOffice(joinSuggestionsDocument(), expected[0], 'odt')).toEqual([
        ...expected,
        'Four',
        'Five',
      ]);
    },
  );

  withTools(
    ['soffice'],
    'Pasted blocks: LibreOffice reads the inserted paragraph marks of our DOCX and ODT as Word records them',
    async () => {
      const expected = ['leftone +¶', 'A +¶', 'B +¶', 'fiveright', 'xC +¶', 'Dy'];
      expect(await readByLibreOffice(pasteSuggestionsDocument(), expected[0], 'docx')).toEqual(expected);
      expect(await readByLibreOffice(pasteSuggestionsDocument(), expected[0], 'odt')).toEqual(expected);
    },
  );

  withTools(['pandoc'], 'DOCX and ODT: pandoc reads every operator of the equations', async () => {
    const latex = ['E = mc^2', 'a + b - c \\cdot d', 'x \\le y', '\\sum_{i=1}^n i = \\frac{n(n+1)}{2}'];
    const s = schema.nodes;
    const base = createDocument(schema, standardArticle, { title: 'Equations', language: 'en-US' });
    const parts: PMNode[] = [];
    base.forEach((part) => {
      const body = [
        s.paragraph.create(
          null,
          latex.flatMap((equation) => [schema.text(' and '), s.equation.create({ equation })]),
        ),
        ...latex.map((equation, index) =>
          s.figure.create({ id: `E${index}`, category: 'equation', equation }),
        ),
      ];
      parts.push(part.attrs.id === 'body' ? part.type.create(part.attrs, body) : part);
    });
    const input = {
      content: base.type.create(base.attrs, parts).toJSON(),
      threads: [],
      images: {},
      csl: null,
    };
    const expected = [
      'E = mc^{2}',
      'a + b - c \\cdot d',
      'x \\leq y',
      // The sum's body is the summand, the "=" follows it.
      /^\\sum(\\limits)?_\{i = 1\}\^\{n\}i = \\frac\{n\{?\(n \+ 1\)\}?\}\{2\}$/,
    ];
    for (const format of ['docx', 'odt'] as const) {
      const file = path.join(dir(), `equations.${format}`);
      await writeFile(file, (await exportDocument(format, input)).data);
      const { stdout } = await run('pandoc', ['-f', format, '-t', 'latex', file]);
      const maths = [...stdout.matchAll(/\\[[(]([\s\S]*?)\\[\])]/g)].map((match) =>
        match[1].replace(/\s+/g, ' '),
      );
      // Each equation inline, then as a display equation.
      expect(maths, format).toHaveLength(latex.length * 2);
      maths.forEach((math, index) => {
        const want = expected[index % latex.length];
        if (typeof want === 'string') expect(math, format).toBe(want);
        else expect(math, format).toMatch(want);
      });
    }
  });

  withTools(['epubcheck'], 'EPUB: epubcheck finds 0 errors', async () => {
    expect(await epubcheckReport(await exported('epub'))).toContain('0 fatals / 0 errors');
  });

  withTools(['pandoc'], 'JATS: well-formed, pandoc reads the sections, math and references', async () => {
    const article = path.join(await unzipped('jats'), 'article.xml');
    const ast = await pandocJson(article, 'jats');
    for (const heading of paper.headings) expect(ast).toContain(JSON.stringify(heading.split(' ')[0]));
    expect((ast.match(/"t":"Math"/g) ?? []).length).toBeGreaterThanOrEqual(paper.equations.length);
    const xml = await readFile(article, 'utf8');
    expect((xml.match(/<element-citation /g) ?? []).length).toBe(paper.entries);
    expect((xml.match(/<graphic /g) ?? []).length).toBe(3);
  });

  withTools(
    ['pandoc'],
    'Markdown: pandoc --citeproc resolves every citation; math and notes are read',
    async () => {
      const file = await exported('markdown');
      const ast = await pandocJson(file, 'markdown');
      expect((ast.match(/"t":"Math"/g) ?? []).length).toBe(paper.equations.length);
      expect((ast.match(/"t":"Note"/g) ?? []).length).toBe(paper.footnotes.length);
      for (const heading of paper.headings) expect(ast).toContain(JSON.stringify(heading.split(' ')[0]));
      const { stdout } = await run('pandoc', ['--citeproc', '-f', 'markdown', '-t', 'plain', file]);
      expect(stdout).toContain('(Lovelace 1990, 5)');
      expect(stdout).not.toMatch(/\?\?\?|@source/);
    },
  );

  /** xmllint validates the file against the DTD its DOCTYPE names, found by its public identifier. */
  async function validJats(article: string): Promise<void> {
    const { stderr } = await run('xmllint', ['--valid', '--noout', '--nonet', article], {
      env: { ...process.env, XML_CATALOG_FILES: jatsCatalog },
    });
    expect(stderr).toBe('');
  }

  withTools(
    ['jats'],
    'JATS: valid against the JATS 1.2 Archiving DTD with MathML3 that its DOCTYPE names',
    async () => {
      await validJats(path.join(await unzipped('jats'), 'article.xml'));
      // Authors with ORCID iD, e-mail and affiliations; titles with markup.
      const folder = path.join(dir(), 'jats-journal');
      await unzipTo(
        (await exportDocument('jats', journalPaper('apa', await loadCsl('apa', 'en-US')))).data,
        folder,
      );
      await validJats(path.join(folder, 'article.xml'));
    },
  );

  withTools(['pandoc'], 'HTML: pandoc reads headings, MathML equations and notes', async () => {
    const folder = await unzipped('html');
    const ast = await pandocJson(path.join(folder, 'index.html'), 'html');
    // The notes are pandoc's own markup, which pandoc 2.17's HTML reader keeps as the list it is.
    expectPaperContent(ast, { comments: false, notes: false });
    expect(ast).toContain('"t":"OrderedList"');
    expect(ast).toContain(JSON.stringify(paper.footnotes[0].split(' ').at(-1)));
    const html = await readFile(path.join(folder, 'index.html'), 'utf8');
    expect(html).toContain(
      '<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a>',
    );
    expect(html).toContain(
      `<section id="footnotes" class="footnotes footnotes-end-of-document" role="doc-endnotes"><hr/><ol><li id="fn1"><p>${paper.footnotes[0]}<a href="#fnref1" class="footnote-back" role="doc-backlink">\u21a9\ufe0e</a></p></li>`,
    );
    expect(html).toContain('class="csl-entry"');
  });

  withTools(
    ['lualatex'],
    'LaTeX: the zip compiles with LuaLaTeX and biber',
    async () => {
      const log = await compileLatex(await unzipped('latex'));
      expect(log).not.toMatch(/^! /m);
      expect(log).not.toContain('Citation ');
      expect(log).not.toContain('There were undefined references');
    },
    400_000,
  );

  withTools(
    ['lualatex', 'pdftotext'],
    'LaTeX for journals: APA, IEEE, Chicago notes (biblatex styles) and a style without one (citeproc) compile with 0 errors and 0 undefined references, citing as the other formats',
    async () => {
      const styles: [string, string[]][] = [
        [
          'apa',
          [
            'with (Lovelace, 1990, p. 5) and Noether (1991) and',
            // Case kept as the DOCX shows it: biblatex-apa sentence-cases what is not braced.
            'Lovelace, A. (1990). The DNA of NASA missions and E. coli in 50% & more of iPhone users. Journal of Examples, 10(3), 1–9.',
          ],
        ],
        [
          'ieee',
          ['with [1, p. 5] and Noether [2] and', '[1] A. Lovelace, “The DNA of NASA missions and E. coli'],
        ],
        [
          'chicago-note-bibliography',
          [
            'with1 and Noether2 and',
            '1. Lovelace, “The DNA of NASA Missions and E. coli in 50% & More of iPhone Users,” 5.',
            '2. Noether, “On the Structure of Problem 1.”',
          ],
        ],
        [
          'harvard-cite-them-right',
          [
            'with (Lovelace, 1990, p. 5) and Noether (1991) and',
            'Lovelace, A. (1990) “The DNA of NASA missions and E. coli in 50% & more of iPhone users,” Journal of Examples, 10(3), pp. 1–9.',
          ],
        ],
      ];
      for (const [style, expected] of styles) {
        const folder = path.join(dir(), `latex-${style}`);
        await unzipTo(
          (await exportDocument('latex', journalPaper(style, await loadCsl(style, 'en-US')))).data,
          folder,
        );
        const log = await compileLatex(folder);
        expect(log, style).not.toMatch(/^! /m);
        expect(log, style).not.toContain('Citation ');
        expect(log, style).not.toContain('There were undefined references');
        const text = (await run('pdftotext', [path.join(folder, 'document.pdf'), '-'])).stdout.replace(
          /\s+/g,
          ' ',
        );
        for (const line of expected) expect(text, style).toContain(line);
      }
    },
    900_000,
  );

  withTools(
    ['lualatex', 'pdftotext'],
    'Journal templates: each built-in template (IEEEtran, acmart, elsarticle, llncs, apa7, report) compiles with 0 errors and 0 undefined references, numbered as its documents are',
    async () => {
      // What the compiled paper shows: its headings' numbers and the cross-reference to section 2.
      const expected: Record<string, string[]> = {
        'apa7-student': [
          'Section 2 on structures',
          'Section “Section 2 on structures”',
          'Keywords: structures',
        ],
        'apa7-professional': ['Section 2 on structures', 'Section “Section 2 on structures”'],
        'ieee-conference': [
          'II. Section 2 on structures',
          'and Section II.',
          'Index Terms—structures, examples',
        ],
        'acm-sigconf': ['2 SECTION 2 ON STRUCTURES', 'and Section 2.', 'KEYWORDS structures, examples'],
        elsevier: ['2. Section 2 on structures', 'and Section 2.', 'Keywords: structures, examples'],
        lncs: ['2 Section 2 on structures', 'and Section 2.', 'Keywords: structures · examples'],
        thesis: ['Chapter 2 Section 2 on structures', 'and Chapter 2.', 'List of Figures', 'List of Tables'],
      };
      await inPairs(BUILTIN_TEMPLATES, async (template) => {
        const { definition } = template;
        const style = definition.citation_styles[0];
        // In two columns a figure and a table wider than a column: figure* and table* (fixture-wide-floats.ts).
        const twoColumns = ['ieee-conference', 'acm-sigconf'].includes(definition.latex_class);
        const paper = journalPaper(style, await loadCsl(style, 'en-US'));
        const input = twoColumns ? withWideFloats(paper) : paper;
        const content = input.content as { attrs: Record<string, unknown>; content: { type: string }[] };
        Object.assign(content.attrs, {
          latex_class: definition.latex_class,
          heading_numbering: definition.heading_numbering,
          paper_size: definition.paper_size,
        });
        // The thesis's contents part (the table of contents and the lists of figures and tables).
        const contents = definition.parts.find((part) => part.kind === 'toc_part');
        if (contents) {
          const { initial: _initial, kind, ...attrs } = contents;
          content.content.splice(content.content.length - 2, 0, { type: kind, attrs } as { type: string });
        }
        const folder = path.join(dir(), `template-${template.id}`);
        await unzipTo((await exportDocument('latex', input)).data, folder);
        const tex = await readFile(path.join(folder, 'document.tex'), 'utf8');
        for (const float of ['figure*', 'table*'])
          expect(tex.includes(`\\begin{${float}}[tp]`), `${template.id} ${float}`).toBe(twoColumns);
        const log = await compileLatex(folder);
        expect(log, template.id).not.toMatch(/^! /m);
        expect(log, template.id).not.toContain('Citation ');
        expect(log, template.id).not.toContain('There were undefined references');
        const text = (await run('pdftotext', [path.join(folder, 'document.pdf'), '-'])).stdout.replace(
          /\s+/g,
          ' ',
        );
        expect(text, template.id).toContain('Structures of Example Problems');
        for (const line of expected[template.id] ?? []) expect(text, template.id).toContain(line);
        if (twoColumns) expect(text, template.id).toContain(WIDE_TABLE_CAPTION);
      });
    },
    1_200_000,
  );

  withTools(
    ['chromium', 'pdftotext'],
    'PDF: paged in A4 with its text and the rendered citations',
    async () => {
      const printer = new Printer({ pdfPrints: 1, pdfTimeLimitMs: 300_000, pdfMaxPages: 1_000 });
      const pdf = await exportPdf(prepareDocument(paper.input), printer).finally(() => printer.close());
      const file = path.join(dir(), 'paper.pdf');
      await writeFile(file, pdf);
      const info = (await run('pdfinfo', [file])).stdout;
      expect(info).toMatch(/Page size:\s+59[56](\.\d+)? x 84[12](\.\d+)? pts \(A4\)/);
      const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
      expect(pages).toBeGreaterThanOrEqual(2);
      const text = (await run('pdftotext', ['-layout', file, '-'])).stdout;
      expect(text).toContain('Section 1 on structures');
      expect(text).toContain('(Lovelace, 1990, p. 5)');
      // The footer's page numbers: "n / total" on the last page.
      expect(text).toMatch(new RegExp(`${pages}\\s*/\\s*${pages}`));
    },
  );

  it('keeps every equation and the table merges in the DOCX itself', async () => {
    const entries = unzipSync(await readFile(await exported('docx')));
    const document = strFromU8(entries['word/document.xml']);
    expect((document.match(/<m:oMath>/g) ?? []).length).toBe(paper.equations.length);
    expect(document).toContain('<w:gridSpan w:val="2"/>');
    expect(document).toContain('<w:vMerge w:val="restart"/>');
    expect(strFromU8(entries['word/footnotes.xml'])).toContain(paper.footnotes[0]);
  });
});

/**
 * Issue 54: comment threads with answers, one resolved and one open, through LibreOffice (which
 * reads commentsExtended's done state and writes loext:resolved) and pandoc.
 */
describe('comment threads read by real tools', () => {
  const dir = useTemporaryFolder('export-threads-');
  const input = threadsDocument();
  /** Each comment as the tools should see it, by date: its author, text and resolved state. */
  const expected = THREAD_SHAPES.flatMap((shape, t) =>
    shape.comments.map((comment, n) => ({
      date: new Date(commentDate(t, n)).toISOString().slice(0, 19),
      name: comment.name,
      text: comment.text,
      resolved: shape.resolved,
    })),
  );

  async function written(format: 'docx' | 'odt'): Promise<string> {
    const file = await exportDocument(format, input);
    const target = path.join(dir(), `threads.${format}`);
    await writeFile(target, file.data);
    return target;
  }

  withTools(
    ['soffice'],
    'DOCX to ODT by LibreOffice: each answer stays a comment of its own, resolved as its thread',
    async () => {
      const out = path.join(dir(), 'from-docx');
      const odt = await libreOfficeConvert(await written('docx'), 'odt', out, dir());
      const content = parseXml(strFromU8(unzipSync(await readFile(odt))['content.xml']));
      const annotations = descendants(content, 'office:annotation').map((annotation) => ({
        date: (descendants(annotation, 'dc:date')[0]?.textContent ?? '').slice(0, 19),
        name: descendants(annotation, 'dc:creator')[0]?.textContent ?? '',
        text: descendants(annotation, 'text:p')
          .map((p) => p.textContent)
          .join('\n'),
        resolved: attr(annotation, 'loext:resolved') === 'true',
      }));
      expect(annotations.sort((a, b) => a.date.localeCompare(b.date))).toEqual(expected);
    },
  );

  withTools(
    ['soffice'],
    'ODT to DOCX by LibreOffice: each answer stays a comment of its own, done as its thread',
    async () => {
      const out = path.join(dir(), 'from-odt');
      const docx = await libreOfficeConvert(await written('odt'), 'docx', out, dir());
      const files = unzipSync(await readFile(docx));
      const done = new Map(
        descendants(parseXml(strFromU8(files['word/commentsExtended.xml'])), 'w15:commentEx').map((entry) => [
          attr(entry, 'w15:paraId'),
          attr(entry, 'w15:done') === '1',
        ]),
      );
      const comments = descendants(parseXml(strFromU8(files['word/comments.xml'])), 'w:comment').map(
        (comment) => {
          const paragraphs = descendants(comment, 'w:p');
          return {
            date: attr(comment, 'w:date').slice(0, 19),
            name: attr(comment, 'w:author'),
            text: paragraphs.map((p) => p.textContent).join('\n'),
            resolved: done.get(attr(paragraphs.at(-1) ?? null, 'w14:paraId')) ?? false,
          };
        },
      );
      expect(comments.sort((a, b) => a.date.localeCompare(b.date))).toEqual(expected);
    },
  );

  withTools(['pandoc'], 'DOCX read by pandoc: one comment per author and answer', async () => {
    const { stdout } = await run('pandoc', [
      '--track-changes=all',
      '-f',
      'docx',
      '-t',
      'json',
      await written('docx'),
    ]);
    const authors = [...stdout.matchAll(/"comment-start"\],\[\["id","\d+"\],\["author","([^"]*)"\]/g)].map(
      ([, author]) => author,
    );
    expect(authors).toEqual(expected.map((comment) => comment.name));
  });
});
