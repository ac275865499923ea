// Export of a 50-page paper (issue 19): ~20,000 words, 100 equations, 200 citations, 20 figures,
// to every format, against pandoc converting the same content from its own JSON in the same run.
// Goal: each under 3 s and no worse than 2x pandoc. Prints figures; asserts nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { prepareDocument } from '@scriptorium/common/export/model';
import { EXPORT_FORMATS, type ExportFormatName, exportDocument } from '@scriptorium/common/export/registry';
import { strFromU8, unzipSync } from 'fflate';
import { loadCsl } from '../server/src/modules/documents/export/csl-files';
import { exportPdf } from '../server/src/modules/documents/export/pdf';
import { hasPrintPage, printDocumentPdf } from '../server/src/modules/documents/export/print-page';
import { Printer } from '../server/src/modules/documents/export/printer';
import { medianTime } from './lib/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const paper = fixturePaper({ sections: 40, equations: 100, citations: 200, figures: 20, paragraphs: 20 });
paper.input.csl = await loadCsl('apa', 'en-US');
const dir = mkdtempSync(path.join(tmpdir(), 'bench-export-'));
const engines = new Map();

// pandoc's own JSON of the same content: read once from our HTML export (not timed).
const html = unzipSync((await exportDocument('html', paper.input, engines)).data);
for (const [name, data] of Object.entries(html)) {
  execFileSync('mkdir', ['-p', path.dirname(path.join(dir, name))]);
  writeFileSync(path.join(dir, name), data);
}
execFileSync(
  'pandoc',
  ['-f', 'html', '-t', 'json', '-o', path.join(dir, 'paper.json'), path.join(dir, 'index.html')],
  { cwd: dir },
);
const words = strFromU8(html['index.html'])
  .replace(/<[^>]+>/g, ' ')
  .split(/\s+/)
  .filter(Boolean).length;
console.log(
  `paper: ${words} words, ${paper.equations.length} equations, ${paper.entries} cited entries, 20 figures`,
);

const PANDOC: Partial<Record<ExportFormatName, string>> = {
  docx: 'docx',
  odt: 'odt',
  latex: 'latex',
  jats: 'jats',
  epub: 'epub3',
  html: 'html',
};
console.log('format  ours(ms)  pandoc(ms)  ratio');
for (const format of Object.keys(EXPORT_FORMATS) as ExportFormatName[]) {
  const ours = await medianTime(() => exportDocument(format, paper.input, engines), RUNS);
  const to = PANDOC[format];
  const theirs = to
    ? await medianTime(
        () =>
          execFileSync(
            'pandoc',
            [
              '-f',
              'json',
              '-t',
              to,
              '--mathml',
              '-s',
              '-o',
              path.join(dir, `out.${to}`),
              path.join(dir, 'paper.json'),
            ],
            { cwd: dir },
          ),
        RUNS,
      )
    : Number.NaN;
  console.log(
    `${format.padEnd(7)} ${ours.toFixed(0).padStart(8)}  ${Number.isNaN(theirs) ? '       -' : theirs.toFixed(0).padStart(10)}  ${Number.isNaN(theirs) ? '-' : (ours / theirs).toFixed(2)}`,
  );
}
// A document's PDF is the editor's rendering printed (print-page.ts, needs the built web app);
// a book's, and a server without the build's, the export HTML printed.
const webDist = path.resolve(import.meta.dirname, '../web/dist');
const printer = new Printer({ pdfPrints: 1, pdfTimeLimitMs: 600_000, pdfMaxPages: 10_000 });
if (hasPrintPage(webDist)) {
  const printed = await medianTime(
    () =>
      printDocumentPdf(
        printer,
        10_000,
        webDist,
        JSON.stringify({ doc: paper.input.content }),
        paper.input.images,
        'A4',
      ),
    RUNS,
  );
  console.log(
    `pdf     ${printed.toFixed(0).padStart(8)}         -  - (the editor's rendering; pooled browser, started in the first run; pandoc's PDF needs LaTeX)`,
  );
} else console.log("pdf: the editor's rendering skipped (needs the built web app: npm run build)");
const pdf = await medianTime(() => exportPdf(prepareDocument(paper.input, engines), printer, 10_000), RUNS);
await printer.close();
console.log(`pdf     ${pdf.toFixed(0).padStart(8)}         -  - (the export HTML, as for books)`);
rmSync(dir, { recursive: true, force: true });
