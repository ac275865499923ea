import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { prepareDocument } from '@scriptorium/common/export/model';
import { type ExportFormatName, exportDocument } from '@scriptorium/common/export/registry';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCsl } from '../src/modules/documents/export/csl-files';
import { exportPdf } from '../src/modules/documents/export/pdf';

/**
 * Issue 19: the exports of the fixture paper (headings, lists, a table with merged cells,
 * footnotes, 10 equations, 20 citations, 3 figures, comments, tracked changes, cross-references)
 * checked by the real tools. A test whose tool is missing is skipped, and fails with
 * REQUIRE_SERVICES=1 (CI installs the tools: .ci/run).
 */

const run = promisify(execFile);
const REQUIRED = process.env.REQUIRE_SERVICES === '1';

async function has(command: string): Promise<boolean> {
  try {
    await run('sh', ['-c', `command -v ${command}`]);
    return true;
  } catch {
    return false;
  }
}

async function hasTexFile(name: string): Promise<boolean> {
  try {
    const { stdout } = await run('kpsewhich', [name]);
    return stdout.trim() !== '';
  } catch {
    return false;
  }
}

const tools = {
  pandoc: await has('pandoc'),
  soffice: await has('soffice'),
  epubcheck: (await has('epubcheck')) && (await has('java')),
  pdftotext: (await has('pdftotext')) && (await has('pdfinfo')),
  lualatex: (await has('lualatex')) && (await has('biber')) && (await hasTexFile('biblatex.sty')),
  chromium: (await has(process.env.CHROMIUM_PATH || '/usr/bin/chromium')) || (await has('chromium')),
};

/** it() when the tools are there; a failing test naming them with REQUIRE_SERVICES=1; else skipped. */
function withTools(
  names: (keyof typeof tools)[],
  title: string,
  test: () => Promise<void>,
  timeout = 180_000,
) {
  const missing = names.filter((name) => !tools[name]);
  if (!missing.length) it(title, test, timeout);
  else if (REQUIRED)
    it(title, () => {
      throw new Error(`missing tools: ${missing.join(', ')}`);
    });
  else it.skip(`${title} (missing: ${missing.join(', ')})`, test);
}

describe('exports checked by real tools', () => {
  const paper = fixturePaper();
  let dir = '';
  const files = new Map<string, string>();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'export-validation-'));
    paper.input.csl = await loadCsl('apa', 'en-US');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function exported(format: ExportFormatName): Promise<string> {
    const known = files.get(format);
    if (known) return known;
    const file = await exportDocument(format, paper.input);
    const target = path.join(dir, file.name.replace(/\.zip$/, `.${format}.zip`));
    await writeFile(target, file.data);
    files.set(format, target);
    return target;
  }

  async function unzipped(format: ExportFormatName): Promise<string> {
    const target = path.join(dir, format);
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

  withTools(
    ['soffice', 'pandoc'],
    'DOCX: LibreOffice converts it to PDF, pandoc reads headings, math, footnotes, comments',
    async () => {
      const docx = await exported('docx');
      const ast = await pandocJson(docx, 'docx');
      expectPaperContent(ast, { comments: true });
      expect(ast).toContain('"insertion"');
      expect(ast).toContain('"deletion"');
      const out = path.join(dir, 'docx-pdf');
      await run(
        'soffice',
        [
          '--headless',
          `-env:UserInstallation=file://${dir}/lo-profile`,
          '--convert-to',
          'pdf',
          '--outdir',
          out,
          docx,
        ],
        { timeout: 170_000 },
      );
      const pdf = path.join(out, path.basename(docx).replace(/\.docx$/, '.pdf'));
      const { stdout } = await run('pdftotext', [pdf, '-']);
      expect(stdout).toContain('Section 1 on structures');
      expect(stdout).toContain('Lovelace');
    },
  );

  withTools(['epubcheck'], 'EPUB: epubcheck finds 0 errors', async () => {
    const epub = await exported('epub');
    const binary = (await run('sh', ['-c', 'readlink -f "$(command -v epubcheck)"'])).stdout.trim();
    // Debian's epubcheck is an executable jar: run it with java so no binfmt handler is needed.
    const { stdout, stderr } = await run('java', ['-jar', binary, epub], { timeout: 170_000 }).catch(
      (error) => error,
    );
    expect(`${stdout}${stderr}`).toContain('0 fatals / 0 errors');
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

  withTools(['pandoc'], 'HTML: pandoc reads headings, MathML equations and notes', async () => {
    const folder = await unzipped('html');
    const ast = await pandocJson(path.join(folder, 'index.html'), 'html');
    // pandoc's HTML reader knows only its own footnote markup: ours is checked in the file.
    expectPaperContent(ast, { comments: false, notes: false });
    const html = await readFile(path.join(folder, 'index.html'), 'utf8');
    expect(html).toContain(
      `<aside class="footnote" id="fn1"><p><a class="footnote-back" href="#fnref1">1</a> ${paper.footnotes[0]}</p></aside>`,
    );
    expect(html).toContain('class="csl-entry"');
  });

  withTools(
    ['lualatex'],
    'LaTeX: the zip compiles with LuaLaTeX and biber',
    async () => {
      const folder = await unzipped('latex');
      const latex = (args: string[]) =>
        run('lualatex', ['-interaction=nonstopmode', '-halt-on-error', ...args], {
          cwd: folder,
          timeout: 170_000,
          maxBuffer: 64 << 20,
        });
      await latex(['document.tex']);
      await run('biber', ['document'], { cwd: folder });
      await latex(['document.tex']);
      const log = await readFile(path.join(folder, 'document.log'), 'utf8');
      expect(log).not.toMatch(/^! /m);
      expect(log).not.toContain('Citation ');
    },
    400_000,
  );

  withTools(
    ['chromium', 'pdftotext'],
    'PDF: paged in A4 with its text and the rendered citations',
    async () => {
      const pdf = await exportPdf(prepareDocument(paper.input));
      const file = path.join(dir, 'paper.pdf');
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
