import type { PreparedDocument } from '@scriptorium/common/export/model';
import type { Page } from 'playwright-core';
import { destinationPages, pageCount } from './pdf-destinations';
import type { Printer, PrinterThread } from './printer';

/** The document has more pages than PDF_MAX_PAGES: refused with a translated message. */
export class PdfTooLong extends Error {
  constructor(readonly maxPages: number) {
    super(`more than ${maxPages} pages`);
  }
}

/**
 * Pages in the document's paper size, with their numbers in the footer; at most one page past the
 * budget is laid out, so that a longer document is known without printing all of it.
 */
export function pdfOptions(
  paperSize: PreparedDocument['paperSize'],
  maxPages: number,
): Parameters<Page['pdf']>[0] {
  return {
    format: paperSize === 'US Letter' ? 'Letter' : 'A4',
    printBackground: true,
    displayHeaderFooter: true,
    headerTemplate: '<span></span>',
    footerTemplate:
      '<div style="font-size: 9px; width: 100%; text-align: center;"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
    margin: { top: '2.5cm', bottom: '2.5cm', left: '2.5cm', right: '2.5cm' },
    pageRanges: `1-${maxPages + 1}`,
  };
}

/** Prints the page as it is now; a PDF past the page budget throws PdfTooLong. */
export async function printWithinPages(
  page: Page,
  paperSize: PreparedDocument['paperSize'],
  maxPages: number,
): Promise<Uint8Array> {
  const pdf = new Uint8Array(await page.pdf(pdfOptions(paperSize, maxPages)));
  if (pageCount(pdf) > maxPages) throw new PdfTooLong(maxPages);
  return pdf;
}

/**
 * PDF from the export HTML (the same markup as the HTML and EPUB exports, MathML laid out by the
 * browser): for books, whose chapters have no editor view, and for a server started without the
 * built web app (a document's PDF is typeset from the same HTML, typeset.ts). The HTML is
 * made in an export worker (`html`); the pooled browser (exports/printer.ts) prints it: the
 * server's from its own thread (PrinterThread, which runs this function there), tests' and
 * benches' from theirs.
 *
 * A book's contents show the page each chapter starts on. Chromium has no CSS for "the page of
 * that element", so the book is printed twice: the first print's link destinations tell where
 * each chapter and part landed, the second print writes those numbers into the contents (again
 * until they hold, should the numbers themselves move a page).
 */

/** The most prints of a book while its contents' page numbers settle. */
const MAX_PRINTS = 4;

function sameEntries(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
}

export async function printHtmlPdf(
  printer: Printer | PrinterThread,
  maxPages: number,
  paperSize: PreparedDocument['paperSize'],
  book: boolean,
  html: (contentsPages?: ReadonlyMap<string, number>) => Promise<string>,
): Promise<Uint8Array> {
  if ('printHtml' in printer) return printer.printHtml(maxPages, paperSize, book, html);
  const first = await html();
  // The printer's page fetches nothing: the page is self-contained (images as data: URLs).
  return printer.print(async (_context, page) => {
    const print = async (markup: string) => {
      await page.setContent(markup, { waitUntil: 'load' });
      return printWithinPages(page, paperSize, maxPages);
    };
    let pdf = await print(first);
    let shown: ReadonlyMap<string, number> | undefined;
    for (let prints = 1; book && prints < MAX_PRINTS; prints++) {
      const found = destinationPages(pdf);
      if (shown && sameEntries(found, shown)) break;
      shown = found;
      pdf = await print(await html(shown));
    }
    return pdf;
  });
}

/**
 * A prepared document or book printed from this thread (benches and tests of the writers; the
 * server makes the HTML in an export worker). The HTML writer is imported when called: the
 * server's main thread does not load the export writers (citeproc, temml) at boot.
 */
export function exportPdf(
  prepared: PreparedDocument,
  printer: Printer,
  maxPages = 1_000,
): Promise<Uint8Array> {
  return printHtmlPdf(printer, maxPages, prepared.paperSize, Boolean(prepared.book), async (contentsPages) =>
    (await import('./printable-html')).printableHtml(prepared, contentsPages),
  );
}
