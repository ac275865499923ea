import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PreparedDocument } from '@scriptorium/common/export/model';
import type { Page } from 'playwright-core';
import { PdfTooLong } from './pdf';
import { pageCount } from './pdf-destinations';
import type { PageReadiness, Printer } from './printer';
import type { PdfMetadata } from './typeset-html';

/**
 * The typeset PDF of a document (issue 53): the export HTML with its paged-media style sheet
 * (typeset-html.ts) laid out into pages by Paged.js inside the pooled Chromium, then printed with
 * Chromium's tagged PDF and its outline of the headings; the document information (title,
 * authors, keywords) is added to it (withMetadata).
 *
 * Paged.js (MIT) rather than Vivliostyle: the project ships no AGPL code (docs/export-import.md).
 * Its script comes from node_modules and runs through the DevTools protocol; the page itself may
 * run no script and load nothing (its CSP, and every request but data: aborted by the printer).
 * It is loaded into the page the printer keeps ready for the next export (readyForTypesetting),
 * before the export's HTML: the page's globals outlive the document written into it.
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
 * `float: footnote` to the foot of the page that calls it), figures and tables float (below), and
 * Paged.js lays the pages out. Paged.js flows each page's content in CSS columns, so Chromium's
 * own fragmentation keeps the style sheet's `widows` and `orphans` (and `break-inside: avoid`).
 * Answers the number of pages, and what went wrong if Paged.js failed (below).
 *
 * Floats, as LaTeX's `[tp]`: a figure or table (caption inside it) that does not fit in what is
 * left of its page, on a page that has text above it, leaves the flow; the text after it fills the
 * page, and it stands at the top of the next page (those waiting after it below it, as many as fit;
 * the rest on the pages after, in their order). One that would not fit even on an empty page stays
 * where it is (Paged.js moves it or splits it as before). Any still waiting when the text ends
 * follow it. Paged.js's walker must not meet a waiting float, so its children move to a copy kept
 * aside and the emptied original is dropped from every page it is met on.
 */
async function layOut(floats: boolean): Promise<Layout> {
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
  // A float is measured as soon as it is met: its images' boxes must not wait for their decoding.
  for (const image of Array.from(document.images))
    if (image.naturalWidth && !image.hasAttribute('height')) {
      image.setAttribute('width', String(image.naturalWidth));
      image.setAttribute('height', String(image.naturalHeight));
    }

  interface Bounds {
    top: number;
    bottom: number;
    right: number;
    height: number;
  }
  interface LayoutApi {
    bounds: Bounds;
    append(node: Node, dest: Element, breakToken: null, shallow: boolean, rebuild: boolean): Element;
  }
  interface PagedApi {
    Previewer: new () => { preview: () => Promise<{ total: number }> };
    Handler: new (chunker: unknown, polisher: unknown, caller: unknown) => object;
    registerHandlers(...handlers: unknown[]): void;
  }
  const Paged = (window as unknown as { Paged: PagedApi }).Paged;
  const FLOAT = 'figure.figure, table';
  /** Elements whose children Paged.js's walker visits one by one (the others are copied whole). */
  const CONTAINERS = new Set([
    'ARTICLE',
    'SECTION',
    'DIV',
    'HEADER',
    'MAIN',
    'ASIDE',
    'NAV',
    'UL',
    'OL',
    'DL',
    'TABLE',
    'TBODY',
    'THEAD',
    'TR',
    'FIGURE',
  ]);
  /** The node the walker meets after `node` and all it holds, past the floats flushed at the end. */
  const following = (node: Node, flushed: WeakSet<Node>): Node | null => {
    for (let at: Node | null = node; at; at = at.parentNode) {
      let next = at.nextSibling;
      while (next && flushed.has(next)) next = next.nextSibling;
      if (next) return next;
    }
    return null;
  };

  class Floats extends Paged.Handler {
    /** Floats taken out of the flow, waiting for the top of a page. */
    waiting: Element[] = [];
    /** The emptied originals, left for the walker (as the waiting copy's key). */
    husks = new WeakMap<Node, Element>();
    emptied = new WeakSet<Node>();
    /** Floats put back at the end of the text: they stay where they are met. */
    flushed = new WeakSet<Node>();
    placing = false;

    fits(box: DOMRect, bounds: Bounds): boolean {
      return box.left < bounds.right && box.bottom <= bounds.bottom + 0.5;
    }

    /** A page begins: the waiting floats go first, as many as fit. */
    onPageLayout(wrapper: Element, _breakToken: unknown, layout: LayoutApi) {
      this.placing = true;
      try {
        for (let first = true; this.waiting.length; first = false) {
          // In its section and article again (their columns, if the page style has two), for
          // which Paged.js rebuilds its ancestors from where it stood.
          const float = this.waiting[0];
          const husk = this.husks.get(float);
          husk?.before(float);
          const placed = layout.append(float, wrapper, null, false, true);
          float.remove();
          if (!first && !this.fits(placed.getBoundingClientRect(), layout.bounds)) {
            placed.remove();
            break;
          }
          this.waiting.shift();
        }
      } finally {
        this.placing = false;
      }
    }

    /** At the last node of the text, the floats still waiting go after it. */
    layoutNode(node: Node) {
      if (!this.waiting.length || following(node, this.flushed)) return;
      if (node.childNodes.length && CONTAINERS.has(node.nodeName)) return;
      let root: Node = node;
      while (root.parentNode) root = root.parentNode;
      // At the end of the article (in its columns, if it has two).
      const end = root.lastChild?.nodeName === 'ARTICLE' ? (root.lastChild as Element) : root;
      for (const float of this.waiting) {
        this.flushed.add(float);
        end.appendChild(float);
      }
      this.waiting = [];
    }

    renderNode(clone: Node, node: Node, layout: LayoutApi) {
      if (this.placing || !(node instanceof Element)) return;
      if (this.emptied.has(node)) {
        clone.parentNode?.removeChild(clone);
        return;
      }
      if (this.flushed.has(node) || !node.matches(FLOAT) || node.parentElement?.closest('table, li, figure'))
        return;
      if (!following(node, this.flushed)) return;
      // Measured whole, in its place (Paged.js has put in only its empty shell so far).
      const bounds = layout.bounds;
      const probe = node.cloneNode(true) as Element;
      (clone as Element).replaceWith(probe);
      const box = probe.getBoundingClientRect();
      probe.replaceWith(clone);
      // One across both columns (typeset-html.ts: markSpanning) heads a page, as LaTeX's figure*:
      // unless it is the first thing on its page, it waits for the next.
      const spanning = node.getAttribute('data-span') === 'all';
      const aside = !this.waiting.length
        ? // Pushed to the next page (its next column), or standing below the page's foot.
          (box.left >= bounds.right || box.top > bounds.top + 1) &&
          box.height <= bounds.height &&
          (spanning || !this.fits(box, bounds))
        : box.height <= bounds.height;
      if (!aside) return;
      const copy = node.cloneNode(false) as Element;
      // Its own reference: Paged.js finds a break's node in the text by it, not the husk.
      copy.setAttribute('data-ref', `${node.getAttribute('data-ref')}-float`);
      copy.append(...Array.from(node.childNodes));
      this.emptied.add(node);
      this.husks.set(copy, node);
      this.waiting.push(copy);
      clone.parentNode?.removeChild(clone);
    }
  }
  /**
   * A note longer than the room below its call goes on at the foot of the next page (Paged.js
   * splits it there), but Paged.js gives that page all the note's remaining height: a note taller
   * than a page left no room for any text, and its flow ended ("Layout repeated"). The rest of a
   * note takes at most three quarters of a page; what does not fit goes on to the page after.
   */
  class LongNotes extends Paged.Handler {
    beforePageLayout(page: { element: Element }) {
      const area = page.element.querySelector<HTMLElement>('.pagedjs_area');
      if (!area) return;
      const notes = Number.parseFloat(area.style.getPropertyValue('--pagedjs-footnotes-height'));
      const most = Math.floor(area.getBoundingClientRect().height * 0.75);
      if (notes > most) area.style.setProperty('--pagedjs-footnotes-height', `${most}px`);
    }
  }
  // Paged.js may give up without throwing: it reports "Layout repeated" on the console and ends
  // the flow there, the rest of the text never laid out. So its errors are listened for, and the
  // text on the pages is counted against the text it was given (spaces aside: its breaks may
  // move them; the notes are in the text by now, the margin boxes' text is not counted).
  const errors: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => {
    errors.push(args.map((arg) => (arg instanceof Node ? `<${arg.nodeName}>` : String(arg))).join(' '));
    consoleError.apply(console, args);
  };
  const letters = (text: string | null) => (text ?? '').replace(/\s+/g, '').length;
  const given = letters(document.body.textContent);
  // Laid out only now: its first layout is Paged.js's, page by page (typeset-html.ts). Invisible
  // until the print: Paged.js measures boxes, and Chromium paints the growing pages at each frame
  // (one page a frame) for nobody (renderer and compositor CPU of the bench paper's layout: about
  // 950 -> 690 ms).
  // (An inline style: Paged.js copies the page's style sheets into its own.)
  document.getElementById('unpaged')?.remove();
  document.documentElement.style.setProperty('visibility', 'hidden', 'important');
  Paged.registerHandlers(LongNotes);
  if (floats) Paged.registerHandlers(Floats);
  // Paged.js lays out one page per animation frame (its queue's tick): at least a frame's 16 ms a
  // page, for a page nobody watches. A task of its own (a message to itself, not clamped as
  // timers are) ticks instead while it runs (the same pages; the bench paper's layout in a warm
  // page at machine load 24: median about 1150 -> 730 ms).
  const frame = window.requestAnimationFrame;
  const ticks: FrameRequestCallback[] = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => ticks.shift()?.(performance.now());
  window.requestAnimationFrame = (callback) => {
    ticks.push(callback);
    channel.port2.postMessage(null);
    return 0;
  };
  let pages = 0;
  try {
    await new Paged.Previewer().preview();
    // Its total leaves out the pages added after the text for the rest of a long note.
    pages = document.querySelectorAll('.pagedjs_page').length;
  } catch (error) {
    errors.push(String(error instanceof Error ? (error.stack ?? error.message) : error));
  } finally {
    console.error = consoleError;
    window.requestAnimationFrame = frame;
    channel.port1.close();
    document.documentElement.style.removeProperty('visibility');
  }
  // Only the text on the pages counts: Paged.js lays a page out in CSS columns, and what it failed
  // to break off stands in a column to the right of the page, never printed.
  let laidOut = 0;
  const range = document.createRange();
  for (const area of Array.from(document.querySelectorAll('.pagedjs_area'))) {
    const right = area.getBoundingClientRect().right;
    const walker = document.createTreeWalker(area, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const count = letters(text.textContent);
      if (!count) continue;
      range.selectNodeContents(text);
      const box = range.getClientRects()[0];
      if (!box || box.left < right) laidOut += count;
    }
  }
  return { pages, given, laidOut, errors };
}

/** What Paged.js made of the page: its pages, the letters given and laid out, its errors. */
export interface Layout {
  pages: number;
  given: number;
  laidOut: number;
  errors: string[];
}

/** Paged.js failed: it reported an error, or text is missing from its pages. */
export function layoutFailure(layout: Layout): string | null {
  if (layout.errors.length) return layout.errors.join('; ').slice(0, 500);
  if (layout.laidOut < layout.given)
    return `${layout.given - layout.laidOut} of ${layout.given} letters missing from the pages`;
  return null;
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

/** The page ready for a typeset export: Paged.js loaded (the printer's spare page, printer.ts). */
export const readyForTypesetting: PageReadiness = async (page) => {
  await page.evaluate(paged());
  // esbuild (tsx) names the functions and classes of layOut with a helper of its module scope.
  await page.evaluate('globalThis.__name = (target) => target');
};

/**
 * Loads the typeset page into `page` and lays it out in pages with Paged.js: their number.
 * `floats: false` leaves every figure and table where it stands (the bench's comparison).
 */
export async function layOutPage(page: Page, html: string, { floats = true } = {}): Promise<number> {
  return (await layOutChecked(page, html, { floats })).pages;
}

/**
 * As layOutPage, with what Paged.js reported and how much text reached its pages. `before` runs
 * in the page once Paged.js is loaded, before the layout (tests: a handler that breaks it).
 * Paged.js is loaded unless the page was readied with it.
 */
export async function layOutChecked(
  page: Page,
  html: string,
  { floats = true, before = '' } = {},
): Promise<Layout> {
  await page.setContent(html, { waitUntil: 'load' });
  if (!(await page.evaluate('typeof window.Paged === "object"'))) await readyForTypesetting(page);
  if (before) await page.evaluate(before);
  return page.evaluate(layOut, floats);
}

/**
 * The page as Chromium alone lays it out, for when Paged.js failed: the same export HTML and
 * style sheet (page size, margins, running heads), the notes at the end, cross-references by
 * their number; nothing dropped.
 */
const UNPAGED_CSS = `a.cross-reference[data-form] .cross-reference-number { display: inline; }
a.cross-reference[data-form]::after { content: none; }`;

async function layOutUnpaged(page: Page, html: string): Promise<void> {
  await page.setContent(html, { waitUntil: 'load' });
  await page.evaluate(`document.getElementById('unpaged')?.remove()`);
  await page.addStyleTag({ content: UNPAGED_CSS });
}

/** Lays the page out and prints it: a tagged PDF with an outline of its headings. */
export async function typesetPdf(
  printer: Printer,
  maxPages: number,
  html: string,
  metadata: PdfMetadata,
  { before = '' } = {},
): Promise<Uint8Array> {
  const printed = await printer.print(
    async (_context, page) => {
      const layout = await layOutChecked(page, html, { before });
      const failure = layoutFailure(layout);
      if (failure) {
        // Never a PDF missing text (issue 53): printed without Paged.js instead.
        console.error(`typeset PDF: Paged.js failed, printed without it: ${failure}`);
        await layOutUnpaged(page, html);
      } else if (layout.pages > maxPages) throw new PdfTooLong(maxPages);
      return new Uint8Array(
        await page.pdf({ preferCSSPageSize: true, printBackground: true, outline: true, tagged: true }),
      );
    },
    { readiness: readyForTypesetting },
  );
  const pdf = withMetadata(printed, metadata);
  if (pageCount(pdf) > maxPages) throw new PdfTooLong(maxPages);
  return pdf;
}

/**
 * A prepared document typeset from this thread (tests and benches; the server makes the HTML in a
 * worker). The HTML writer is imported here, not at the top: the server's main thread does not
 * load the export writers (citeproc, temml) at boot.
 */
export async function exportTypesetPdf(
  prepared: PreparedDocument,
  printer: Printer,
  maxPages = 1_000,
): Promise<Uint8Array> {
  // The browser starts, and the page is readied, while the HTML is made (as the server does).
  void printer.warm(readyForTypesetting);
  const { typesetHtml } = await import('./typeset-html');
  const { html, metadata } = typesetHtml(prepared);
  return typesetPdf(printer, maxPages, html, metadata);
}
