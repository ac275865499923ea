import { exportCss, htmlPage, webImages } from '@scriptorium/common/export/html';
import type { PreparedDocument } from '@scriptorium/common/export/model';
import { chromium } from 'playwright-core';

/**
 * PDF export (issue 19): the export HTML (the same markup as the HTML and EPUB exports, MathML
 * laid out by the browser) printed by Debian's Chromium through playwright-core, in the document's
 * paper size, with page numbers in the footer. CHROMIUM_PATH names another Chromium.
 */

function dataUrl(data: Uint8Array, type: string): string {
  return `data:${type};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

export async function exportPdf(prepared: PreparedDocument): Promise<Uint8Array> {
  const images = webImages(prepared);
  const html = htmlPage(
    prepared,
    {
      imageUrl: (src) => {
        const file = images.get(src);
        return file ? dataUrl(file.image.data, file.image.type) : null;
      },
      trackChanges: 'accepted',
      epub: false,
    },
    `<style>${exportCss(prepared.paperSize, Boolean(prepared.book))}</style>`,
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    // Nothing may be fetched: the page is self-contained (images as data: URLs).
    await page.route('**/*', (route) =>
      route.request().url().startsWith('data:') ? route.continue() : route.abort(),
    );
    await page.setContent(html, { waitUntil: 'load' });
    const pdf = await page.pdf({
      format: prepared.paperSize === 'US Letter' ? 'Letter' : 'A4',
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate:
        '<div style="font-size: 9px; width: 100%; text-align: center;"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
      margin: { top: '2.5cm', bottom: '2.5cm', left: '2.5cm', right: '2.5cm' },
    });
    return new Uint8Array(pdf);
  } finally {
    await browser.close();
  }
}
