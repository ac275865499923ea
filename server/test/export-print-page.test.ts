import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PRINT_DATA_PATH } from '@scriptorium/common/export/print-page';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printAnswer, printDocumentPdf } from '../src/modules/documents/export/print-page';
import { Printer } from '../src/modules/documents/export/printer';
import { run, withTools } from './export-tools';

/**
 * The server's half of the PDF export from the editor's rendering (print-page.ts): what the print
 * page may load, and the wait for its marks. The page itself (web/src/print) is the build's; the
 * browser spec export.spec.ts prints a real paper through it. Here a small stand-in page plays it.
 */

const ORIGIN = 'http://print.scriptorium.invalid';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
const images = { '/media/images/abc.png': { data: PNG, type: 'image/png' } };
const payload = JSON.stringify({ doc: { type: 'doc', text: 'Hello from the payload' } });

let dist = '';
const printer = new Printer({ pdfPrints: 2, pdfTimeLimitMs: 60_000, pdfMaxPages: 100 });
beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'print-page-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'assets', 'print.js'), '');
  await writeFile(path.join(dist, 'assets', 'print.js.map'), '{}');
});
afterAll(async () => {
  await printer.close();
  await rm(dist, { recursive: true, force: true });
});

describe('printAnswer: what the print page can load', () => {
  it('answers the document, the images of the export, and the files of the build', () => {
    expect(printAnswer(`${ORIGIN}${PRINT_DATA_PATH}`, dist, payload, images)).toEqual({
      kind: 'json',
      body: payload,
    });
    expect(printAnswer(`${ORIGIN}/media/images/abc.png`, dist, payload, images)).toEqual({
      kind: 'bytes',
      body: PNG,
      type: 'image/png',
    });
    expect(printAnswer(`${ORIGIN}/assets/print.js`, dist, payload, images)).toEqual({
      kind: 'file',
      path: path.join(dist, 'assets', 'print.js'),
    });
  });

  it('refuses everything else: other hosts, other images, source maps, paths out of the build', () => {
    for (const url of [
      'http://127.0.0.1:8000/api/base/configuration/',
      'https://example.org/assets/print.js',
      `${ORIGIN}/media/images/other.png`,
      `${ORIGIN}/assets/print.js.map`,
      `${ORIGIN}/assets/missing.js`,
      `${ORIGIN}/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd`,
      `${ORIGIN}/assets/..%2f..%2fetc%2fpasswd`,
    ]) {
      expect(printAnswer(url, dist, payload, images), url).toEqual({ kind: 'refused' });
    }
  });
});

describe('printDocumentPdf', () => {
  /** A stand-in print page: shows the payload's text and the image, then sets `mark`. */
  async function standInPage(script: string) {
    await writeFile(
      path.join(dist, 'print.html'),
      `<!doctype html><html><body><p id="text"></p><img src="/media/images/abc.png" alt=""><script type="module" src="/assets/stand-in.js"></script></body></html>`,
    );
    await writeFile(path.join(dist, 'assets', 'stand-in.js'), script);
  }

  withTools(
    ['chromium', 'pdftotext'],
    'prints once the page says it is ready, in the paper size',
    async () => {
      await standInPage(`
      const data = await (await fetch('${PRINT_DATA_PATH}')).json();
      document.getElementById('text').textContent = data.doc.text;
      // Nothing outside the routing is reachable.
      const outside = await fetch('http://127.0.0.1:9/').then(() => 'reached', () => 'refused');
      document.body.append(' outside: ' + outside);
      document.documentElement.dataset.printReady = 'true';
    `);
      const pdf = await printDocumentPdf(printer, 100, dist, payload, images, 'US Letter');
      const file = path.join(dist, 'out.pdf');
      await writeFile(file, pdf);
      expect((await run('pdfinfo', [file])).stdout).toMatch(/Page size:.* pts \(letter\)/);
      const text = (await run('pdftotext', [file, '-'])).stdout;
      expect(text).toContain('Hello from the payload');
      expect(text).toContain('outside: refused');
      expect(text).toMatch(/1 ?\/ ?1/);
    },
  );

  withTools(['chromium'], 'fails with the reason the page gives', async () => {
    await standInPage(`document.documentElement.dataset.printError = 'no document';`);
    await expect(printDocumentPdf(printer, 100, dist, payload, images, 'A4')).rejects.toThrow(
      'the print page failed: no document',
    );
  });
});
