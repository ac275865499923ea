import { exportCss, htmlPage, webImages } from '@scriptorium/common/export/html';
import type { PreparedDocument } from '@scriptorium/common/export/model';

function dataUrl(data: Uint8Array, type: string): string {
  return `data:${type};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

/**
 * The export HTML the printer lays out for a PDF (the same markup as the HTML and EPUB exports):
 * self-contained, images as data: URLs, nothing to fetch. `contentsPages`: a book's chapters'
 * pages from the print before, for its contents.
 */
export function printableHtml(
  prepared: PreparedDocument,
  contentsPages?: ReadonlyMap<string, number>,
): string {
  const images = webImages(prepared);
  return htmlPage(
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
}
