import { exportCss, htmlPage, webImages } from '@scriptorium/common/export/html';
import type { PreparedDocument } from '@scriptorium/common/export/model';
import type { Browser, Page } from 'playwright-core';
import { destinationPages } from './pdf-destinations';

/** Debian's Chromium through playwright-core; CHROMIUM_PATH names another one. */
export async function launchPrinter(): Promise<Browser> {
  // Loaded with the first export that prints: the driver is about 40 MiB a server keeps otherwise.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

/** Pages in the document's paper size, with their numbers in the footer. */
export function pdfOptions(paperSize: PreparedDocument['paperSize']): Parameters<Page['pdf']>[0] {
  return {
    format: paperSize === 'US Letter' ? 'Letter' : 'A4',
    printBackground: true,
    displayHeaderFooter: true,
    headerTemplate: '<span></span>',
    footerTemplate:
      '<div style="font-size: 9px; width: 100%; text-align: center;"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
    margin: { top: '2.5cm', bottom: '2.5cm', left: '2.5cm', right: '2.5cm' },
  };
}

/**
 * PDF from the export HTML (the same markup as the HTML and EPUB exports, MathML laid out by the
 * browser): for books, whose chapters have no editor view, and for a server started without the
 * built web app (a document's PDF is otherwise the editor's rendering, print-page.ts).
 *
 * A book's contents show the page each chapter starts on. Chromium has no CSS for "the page of
 * that element", so the book is printed twice: the first print's link destinations tell where
 * each chapter and part landed, the second print writes those numbers into the contents (again
 * until they hold, should the numbers themselves move a page).
 */

function dataUrl(data: Uint8Array, type: string): string {
  return `data:${type};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

/** The most prints of a book while its contents' page numbers settle. */
const MAX_PRINTS = 4;

function sameEntries(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
}

export async function exportPdf(prepared: PreparedDocument): Promise<Uint8Array> {
  const images = webImages(prepared);
  const html = (contentsPages?: ReadonlyMap<string, number>) =>
    htmlPage(
      prepared,
      {
        imageUrl: (src) => {
          const file = images.get(src);
          return file ? dataUrl(file.image.data, file.image.type) : null;
        },
        trackChanges: 'accepted',
        epub: false,
        ...(contentsPages ? { contentsPages } : {}),
      },
      `<style>${exportCss(prepared.paperSize, Boolean(prepared.book))}</style>`,
    );
  const browser = await launchPrinter();
  try {
    const page = await browser.newPage();
    // Nothing may be fetched: the page is self-contained (images as data: URLs).
    await page.route('**/*', (route) =>
      route.request().url().startsWith('data:') ? route.continue() : route.abort(),
    );
    const print = async (contentsPages?: ReadonlyMap<string, number>) => {
      await page.setContent(html(contentsPages), { waitUntil: 'load' });
      return page.pdf(pdfOptions(prepared.paperSize));
    };
    let pdf = await print();
    let shown: ReadonlyMap<string, number> | undefined;
    for (let prints = 1; prepared.book && prints < MAX_PRINTS; prints++) {
      const found = destinationPages(pdf);
      if (shown && sameEntries(found, shown)) break;
      shown = found;
      pdf = await print(shown);
    }
    return new Uint8Array(pdf);
  } finally {
    await browser.close();
  }
}
