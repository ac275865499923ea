// Export of a 10-chapter book (issue 21) against the sum of its chapters' exports, made in the
// same run: the book reads every chapter once, renders all citations in one batch and writes one
// package, so it should cost about the sum of its parts (ratio near 1; the goal is no worse than
// 1.5). PDF: the pooled browser prints the book and each chapter. Prints figures; asserts nothing.
import { type BookExportInput, exportBook } from '@scriptorium/common/export/book';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { prepareDocument } from '@scriptorium/common/export/model';
import { type ExportFormatName, exportDocument } from '@scriptorium/common/export/registry';
import { BOOK_EXPORT_FORMATS } from '@scriptorium/common/plugins/books-api';
import { loadCsl } from '../server/src/modules/documents/export/csl-files';
import { exportPdf } from '../server/src/modules/documents/export/pdf';
import { Printer } from '../server/src/modules/documents/export/printer';
import { medianTime } from './lib/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const printer = new Printer({ pdfPrints: 1, pdfTimeLimitMs: 600_000, pdfMaxPages: 10_000 });
const printPdf = (prepared: Parameters<typeof exportPdf>[0]) => exportPdf(prepared, printer, 10_000);
const CHAPTERS = 10;
const csl = await loadCsl('apa', 'en-US');
const papers = Array.from({ length: CHAPTERS }, (_, index) => {
  const paper = fixturePaper(
    { sections: 4, equations: 10, citations: 20, figures: 2, paragraphs: 5 },
    `Chapter ${index + 1} on structures`,
  );
  paper.input.csl = csl;
  return paper;
});
const book: BookExportInput = {
  title: 'Collected structures',
  authors: 'Ann Editor; Bob Editor',
  publisher: 'Quill Press',
  isbn: '978-3-16-148410-0',
  copyright: '© 2026 Quill Press',
  language: 'en-US',
  paperSize: 'A4',
  citationStyle: 'apa',
  csl,
  cover: null,
  chapters: papers.map((paper, index) => ({
    content: paper.input.content,
    images: paper.input.images,
    part: index < CHAPTERS / 2 ? 'First half' : 'Second half',
  })),
};
// Warm citeproc's engine once for both sides (building it costs seconds and is cached in use).
const engines = new Map();
await exportDocument('html', papers[0].input, engines);

console.log(
  `book: ${CHAPTERS} chapters, each ${papers[0].equations.length} equations, 20 citations, 2 figures`,
);
console.log('format  book(ms)  chapters summed(ms)  ratio  book size(KB)');
for (const format of BOOK_EXPORT_FORMATS) {
  let size = 0;
  const runs = format === 'pdf' ? 1 : RUNS;
  const whole = await medianTime(async () => {
    size = (await exportBook(format, book, engines, printPdf)).data.length;
  }, runs);
  const parts = await medianTime(async () => {
    for (const paper of papers) {
      if (format === 'pdf') await printPdf(prepareDocument(paper.input, engines));
      else await exportDocument(format as ExportFormatName, paper.input, engines);
    }
  }, runs);
  console.log(
    `${format.padEnd(7)} ${whole.toFixed(0).padStart(8)}  ${parts.toFixed(0).padStart(19)}  ${(whole / parts).toFixed(2).padStart(5)}  ${(size / 1024).toFixed(0).padStart(13)}`,
  );
}
await printer.close();
