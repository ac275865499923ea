import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ExportInput } from '@scriptorium/common/export/model';
import { PRINT_DATA_PATH } from '@scriptorium/common/export/print-page';
import { printWithinPages } from './pdf';
import type { Printer } from './printer';

/**
 * A document's PDF as the editor draws it (issue 19): Chromium opens the web app's print page
 * (web/print.html, web/src/print/print-main.ts), which lays the document out with the editor's own
 * views, numbering, citeproc worker and styles, and prints it.
 *
 * The page reaches nothing but this function: every request is answered here, from the document
 * (PRINT_DATA_PATH: the PrintPayload as JSON, made in an export worker), the figures' images of the export's input (the ones this reader may see), or
 * the files of the build. The origin is under .invalid, so a request that escaped the routing could
 * not reach any host.
 */

const ORIGIN = 'http://print.scriptorium.invalid';
const PRINT_PAGE = '/print.html';
/**
 * Citations wait up to 15 s in the page; beyond this the page is stuck and the export fails (the
 * printer's time budget may end it before).
 */
const READY_TIMEOUT_MS = 60_000;

export type PrintAnswer =
  | { kind: 'json'; body: string }
  | { kind: 'bytes'; body: Uint8Array; type: string }
  | { kind: 'file'; path: string }
  | { kind: 'refused' };

/** Whether the build holds the print page (a server may run without the built web app). */
export function hasPrintPage(webDist: string): boolean {
  return existsSync(path.join(webDist, PRINT_PAGE));
}

/** What the print page gets for one address: its data, an image, a file of the build, or nothing. */
export function printAnswer(
  url: string,
  webDist: string,
  payload: string,
  images: ExportInput['images'],
): PrintAnswer {
  const parsed = new URL(url);
  if (parsed.origin !== ORIGIN) return { kind: 'refused' };
  const pathname = decodeURIComponent(parsed.pathname);
  if (pathname === PRINT_DATA_PATH) return { kind: 'json', body: payload };
  const image = images[pathname];
  if (image) return { kind: 'bytes', body: image.data, type: image.type };
  const file = path.join(webDist, pathname);
  // Only the build's own files: no way out of it, no source maps.
  if (!file.startsWith(webDist + path.sep) || file.endsWith('.map') || !existsSync(file)) {
    return { kind: 'refused' };
  }
  return { kind: 'file', path: file };
}

export async function printDocumentPdf(
  printer: Printer,
  maxPages: number,
  webDist: string,
  payload: string,
  images: ExportInput['images'],
  paperSize: 'A4' | 'US Letter',
): Promise<Uint8Array> {
  const root = path.resolve(webDist);
  return printer.print(async (context) => {
    await context.route('**/*', (route) => {
      const answer = printAnswer(route.request().url(), root, payload, images);
      switch (answer.kind) {
        case 'json':
          return route.fulfill({ contentType: 'application/json', body: answer.body });
        case 'bytes':
          return route.fulfill({ contentType: answer.type, body: Buffer.from(answer.body) });
        case 'file':
          return route.fulfill({ path: answer.path });
        default:
          return route.abort();
      }
    });
    const page = await context.newPage();
    await page.goto(`${ORIGIN}${PRINT_PAGE}`);
    await page.waitForFunction(
      () => document.documentElement.dataset.printReady || document.documentElement.dataset.printError,
      undefined,
      { timeout: READY_TIMEOUT_MS },
    );
    const error = await page.evaluate(() => document.documentElement.dataset.printError);
    if (error) throw new Error(`the print page failed: ${error}`);
    return printWithinPages(page, paperSize, maxPages);
  });
}
