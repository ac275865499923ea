import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PreparedDocument } from '@scriptorium/common/export/model';
import type { BrowserContext, Page } from 'playwright-core';
import { PdfTooLong } from './pdf';
import { pageCount } from './pdf-destinations';
import type { Printer } from './printer';
import { type PdfMetadata, typesetHtml } from './typeset-html';

/**
 * The typeset PDF of a document (issue 53): the export HTML with its paged-media style sheet
 * (typeset-html.ts) laid out into pages by Paged.js inside the pooled Chromium, then printed with
 * Chromium's tagged PDF and its outline of the headings; the document information (title,
 * authors, keywords) is added to it (withMetadata).
 *
 * Paged.js (MIT) rather than Vivliostyle: the project ships no AGPL code (docs/export-import.md).
 * Its script comes from node_modules and runs through the DevTools protocol; the page itself may
 * run no script and load nothing (its CSP, and every request but data: aborted here).
 */

const require = createRequire(import.meta.url);
let pagedSource: string | null = null;

/** Paged.js's browser build (UMD: defines window.Paged), read once. */
function paged(): string {
  // The package exports only its modules: the browser build lies beside them, in dist/.
  const entry = require.resolve('pagedjs');
  pagedSource ??= readFileSync(path.join(path.dirname(entry), '..', 'dist', 'paged.js'), 'utf8');
  return pagedSource;
}

/**
 * Runs in the page: the notes go where they are called (Paged.js moves an element with
 * `float: footnote` to the foot of the page that calls it), and Paged.js lays the pages out.
 * Paged.js flows each page's content in CSS columns, so Chromium's own fragmentation keeps the
 * style sheet's `widows` and `orphans` (and `break-inside: avoid`). Answers the number of pages.
 */
async function layOut(): Promise<number> {
  for (const call of Array.from(document.querySelectorAll('a.footnote-ref'))) {
    const item = document.getElementById((call.getAttribute('href') ?? '').slice(1));
    if (!item) continue;
    const note = document.createElement('span');
    note.className = 'footnote';
    for (const back of Array.from(item.querySelectorAll('.footnote-back'))) back.remove();
    Array.from(item.children).forEach((paragraph, index) => {
      if (index) note.append(document.createElement('br'));
      note.append(...Array.from(paragraph.childNodes));
    });
    call.replaceWith(note);
  }
  document.querySelector('section.footnotes')?.remove();

  interface PagedApi {
    Previewer: new () => { preview: () => Promise<{ total: number }> };
  }
  const Paged = (window as unknown as { Paged: PagedApi }).Paged;
  const flow = await new Paged.Previewer().preview();
  return flow.total;
}

/** A PDF text string: UTF-16BE with its byte order mark, in hex. */
function pdfText(text: string): string {
  let hex = 'FEFF';
  for (let index = 0; index < text.length; index++)
    hex += text.charCodeAt(index).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

/**
 * Title, authors and keywords in the document information (the catalog's language Chromium
 * writes from the page's lang). An incremental update, as PDF allows: a new information
 * dictionary, a cross-reference section for it and a trailer pointing back at Chromium's
 * (`/Prev`); the rest of the file stays byte for byte. Chromium's producer and dates are kept.
 */
export function withMetadata(pdf: Uint8Array, metadata: PdfMetadata): Uint8Array {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const trailerAt = text.lastIndexOf('trailer');
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text);
  const trailer = trailerAt === -1 ? '' : text.slice(trailerAt);
  const size = Number(/\/Size\s+(\d+)/.exec(trailer)?.[1]);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(trailer)?.[1];
  if (!startxref || !root || !Number.isSafeInteger(size)) throw new Error('not a PDF as Chromium writes one');
  const infoId = /\/Info\s+(\d+)\s+\d+\s+R/.exec(trailer)?.[1];
  const oldInfo = infoId
    ? (new RegExp(`(?:^|\\s)${infoId} 0 obj\\s*<<([\\s\\S]*?)>>\\s*endobj`).exec(text)?.[1] ?? '')
    : '';
  const kept = ['Producer', 'CreationDate', 'ModDate']
    .map((key) => new RegExp(`/${key}\\s*(\\([^)]*\\)|<[^>]*>)`).exec(oldInfo))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => match[0]);
  const entries = [`/Title ${pdfText(metadata.title)}`, '/Creator (Scriptorium)', ...kept];
  if (metadata.authors.length) entries.push(`/Author ${pdfText(metadata.authors.join('; '))}`);
  if (metadata.keywords.length) entries.push(`/Keywords ${pdfText(metadata.keywords.join(', '))}`);
  const head = text.endsWith('\n') ? '' : '\n';
  const objectAt = pdf.byteLength + head.length;
  const object = `${size} 0 obj\n<<${entries.join('\n')}>>\nendobj\n`;
  const update = `${head}${object}xref\n${size} 1\n${String(objectAt).padStart(10, '0')} 00000 n \ntrailer\n<</Size ${size + 1}\n/Root ${root}\n/Info ${size} 0 R\n/Prev ${startxref[1]}>>\nstartxref\n${objectAt + object.length}\n%%EOF\n`;
  const out = new Uint8Array(pdf.byteLength + update.length);
  out.set(pdf);
  out.set(Buffer.from(update, 'latin1'), pdf.byteLength);
  return out;
}

/** Loads the typeset page into `page` and lays it out in pages with Paged.js: their number. */
export async function layOutPage(page: Page, html: string): Promise<number> {
  await page.setContent(html, { waitUntil: 'load' });
  await page.evaluate(paged());
  // esbuild (tsx) names the functions and classes of layOut with a helper of its module scope.
  await page.evaluate('globalThis.__name = (target) => target');
  return page.evaluate(layOut);
}

/** Lays the page out and prints it: a tagged PDF with an outline of its headings. */
export async function typesetPdf(
  printer: Printer,
  maxPages: number,
  html: string,
  metadata: PdfMetadata,
): Promise<Uint8Array> {
  const printed = await printer.print(async (context: BrowserContext) => {
    const page = await context.newPage();
    // Nothing may be fetched: the page is self-contained (images as data: URLs).
    await page.route('**/*', (route) =>
      route.request().url().startsWith('data:') ? route.continue() : route.abort(),
    );
    const pages = await layOutPage(page, html);
    if (pages > maxPages) throw new PdfTooLong(maxPages);
    return new Uint8Array(
      await page.pdf({ preferCSSPageSize: true, printBackground: true, outline: true, tagged: true }),
    );
  });
  const pdf = withMetadata(printed, metadata);
  if (pageCount(pdf) > maxPages) throw new PdfTooLong(maxPages);
  return pdf;
}

/** A prepared document typeset from this thread (tests and benches; the server makes the HTML in a worker). */
export function exportTypesetPdf(
  prepared: PreparedDocument,
  printer: Printer,
  maxPages = 1_000,
): Promise<Uint8Array> {
  const { html, metadata } = typesetHtml(prepared);
  return typesetPdf(printer, maxPages, html, metadata);
}
