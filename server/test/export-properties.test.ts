import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { acceptedDocument } from '@scriptorium/common/editor/track-changes';
import { buildDocument, docSpec, randomInput } from '@scriptorium/common/export/random-document';
import { type ExportFormatName, exportDocument } from '@scriptorium/common/export/registry';
import fc from 'fast-check';
import type { Node as PMNode } from 'prosemirror-model';
import { beforeAll, describe, expect } from 'vitest';
import { loadCsl } from '../src/modules/documents/export/csl-files';
import {
  compileLatex,
  epubcheckBatch,
  inPairs,
  jatsCatalog,
  libreOfficeConvertAll,
  run,
  unzipTo,
  useTemporaryFolder,
  withTools,
} from './export-tools';

/**
 * Issue 53, item 7: the random documents of the exporters' property test
 * (common/src/export/export-properties.test.ts) checked by the real validators. Seeded
 * (EXPORT_PROPERTY_SEED): a few hundred through the fast ones (the JATS DTD with xmllint in one
 * run, epubcheck in one Java process, pandoc), a sample of about ten through LibreOffice and
 * LuaLaTeX. The HTML checker vnu is not in Debian, so the HTML is checked as XML by the unit
 * test and by pandoc here.
 */

const SEED = Number(process.env.EXPORT_PROPERTY_SEED ?? 53);
const MANY = Number(process.env.EXPORT_PROPERTY_MANY ?? 200);
const FEW = Number(process.env.EXPORT_PROPERTY_FEW ?? 10);
const STYLES = ['', 'apa', 'ieee', 'chicago-note-bibliography'] as const;

/** The ids of a document's bibliography entries. */
function present(doc: PMNode): Set<string> {
  const ids = new Set<string>();
  doc.descendants((node) => {
    if (node.type.name === 'bib_entry') ids.add(String(node.attrs.id));
  });
  return ids;
}

/** The documents, the same for every run of a seed; each with its citation style. */
const samples = fc.sample(fc.tuple(docSpec, fc.constantFrom(...STYLES)), { seed: SEED, numRuns: MANY });

describe(`random documents (seed ${SEED}) checked by the real tools`, () => {
  const dir = useTemporaryFolder('export-properties-');
  const csls = new Map<string, Awaited<ReturnType<typeof loadCsl>> | null>();
  const docs: PMNode[] = samples.map(([spec]) => buildDocument(spec));

  beforeAll(async () => {
    csls.set('', null);
    for (const style of STYLES) if (style) csls.set(style, await loadCsl(style, 'en-US'));
  });

  /** Exports document n in `format` into the folder; the file's path. */
  async function written(format: ExportFormatName, n: number, extension: string): Promise<string> {
    const input = randomInput(docs[n], csls.get(samples[n][1]) ?? null);
    const file = path.join(dir(), `doc-${n}.${extension}`);
    await writeFile(file, (await exportDocument(format, input)).data);
    return file;
  }

  /** The n-th documents of a seeded sample of `count` (spread over the whole list). */
  const sample = (count: number) =>
    Array.from({ length: Math.min(count, docs.length) }, (_, i) => Math.floor((i * docs.length) / count));

  withTools(
    ['jats'],
    `JATS: all ${MANY} valid against the JATS 1.2 Archiving DTD with MathML3`,
    async () => {
      const articles: string[] = [];
      for (let n = 0; n < docs.length; n++) {
        const folder = path.join(dir(), `jats-${n}`);
        const input = randomInput(docs[n], csls.get(samples[n][1]) ?? null);
        await unzipTo((await exportDocument('jats', input)).data, folder);
        articles.push(path.join(folder, 'article.xml'));
      }
      // One xmllint for all: it names each invalid file and line.
      const { stderr } = await run('xmllint', ['--valid', '--noout', '--nonet', ...articles], {
        env: { ...process.env, XML_CATALOG_FILES: jatsCatalog },
        maxBuffer: 64 << 20,
      }).catch((error: { stderr: string }) => ({ stderr: error.stderr }));
      expect(stderr.slice(0, 4000)).toBe('');
    },
    600_000,
  );

  withTools(
    ['epubcheck'],
    `EPUB: epubcheck finds no error in all ${MANY}`,
    async () => {
      const files: string[] = [];
      for (let n = 0; n < docs.length; n++) files.push(await written('epub', n, 'epub'));
      const reports = await epubcheckBatch(files, dir());
      const failed = [...reports].filter(([, report]) => /^(ERROR|FATAL)/m.test(report));
      expect(failed.map(([file, report]) => `${path.basename(file)}: ${report}`).slice(0, 5)).toEqual([]);
    },
    600_000,
  );

  withTools(
    ['pandoc'],
    'pandoc reads the Markdown (with --citeproc), the DOCX and the HTML of a sample of 60 with their notes and math',
    async () => {
      await inPairs(sample(60), async (n) => {
        const doc = acceptedDocument(docs[n]);
        let notes = 0;
        doc.forEach((part) => {
          if (part.attrs.hidden) return;
          part.descendants((node) => {
            if (node.type.name === 'footnote') notes++;
            return node.type.name !== 'footnote';
          });
        });
        const markdown = await written('markdown', n, 'md');
        const { stdout, stderr } = await run(
          'pandoc',
          ['--citeproc', '-f', 'markdown', '-t', 'json', markdown],
          {
            maxBuffer: 64 << 20,
          },
        );
        // Every note is a pandoc note (a note style's citations add their own).
        expect((stdout.match(/"t":"Note"/g) ?? []).length, `doc-${n}.md`).toBeGreaterThanOrEqual(notes);
        // Only the entry deleted on purpose (1-9) may be missing: pandoc marks it "???".
        expect(
          // Only entries the document no longer has may be missing.
          stderr.replace(/\[WARNING\] Citeproc: citation (\S+) not found/g, (line, key: string) =>
            present(docs[n]).has(key) ? line : '',
          ),
          `doc-${n}.md`,
        ).not.toMatch(/\[WARNING\] Citeproc: citation .* not found/);
        await run('pandoc', ['-f', 'docx', '-t', 'json', await written('docx', n, 'docx')], {
          maxBuffer: 64 << 20,
        });
        const folder = path.join(dir(), `html-${n}`);
        await unzipTo(await readFile(await written('html', n, 'zip')), folder);
        await run('pandoc', ['-f', 'html', '-t', 'json', path.join(folder, 'index.html')], {
          maxBuffer: 64 << 20,
        });
      });
    },
    600_000,
  );

  withTools(
    ['soffice', 'pdftotext'],
    `LibreOffice opens the DOCX and ODT of a sample of ${FEW} and prints their text`,
    async () => {
      const files: string[] = [];
      for (const n of sample(FEW))
        files.push(await written('docx', n, 'docx'), await written('odt', n, 'odt'));
      const out = path.join(dir(), 'lo-pdf');
      await mkdir(out, { recursive: true });
      const pdfs = await libreOfficeConvertAll(files, 'pdf', out, dir());
      for (const [index, pdf] of pdfs.entries()) {
        const n = sample(FEW)[Math.floor(index / 2)];
        // Lower case: ACM's headings are set in capitals.
        const stdout = (await run('pdftotext', [pdf, '-'])).stdout.toLowerCase();
        // The first word token of the body is on a page.
        const token = /[a-z]{4,}\d+/.exec(docs[n].textContent)?.[0];
        if (token) expect(stdout, path.basename(pdf)).toContain(token);
      }
    },
    900_000,
  );

  withTools(
    ['lualatex'],
    `LaTeX: a sample of ${FEW} compiles with LuaLaTeX, 0 errors and 0 undefined references`,
    async () => {
      await inPairs(sample(FEW), async (n) => {
        const folder = path.join(dir(), `latex-${n}`);
        const input = randomInput(docs[n], csls.get(samples[n][1]) ?? null);
        await unzipTo((await exportDocument('latex', input)).data, folder);
        const log = await compileLatex(folder).catch(async (error: Error) => {
          const written = await readFile(path.join(folder, 'document.log'), 'utf8').catch(() => '');
          throw new Error(
            `doc-${n} (${docs[n].attrs.latex_class}): ${error.message.slice(0, 300)}\n${/^! .*$/m.exec(written)?.[0] ?? ''}`,
          );
        });
        expect(log, `doc-${n}`).not.toMatch(/^! /m);
        expect(log, `doc-${n}`).not.toContain('There were undefined references');
        expect(log, `doc-${n}`).not.toMatch(/Citation '.*' undefined/);
      });
    },
    1_800_000,
  );
});
