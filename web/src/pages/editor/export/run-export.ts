import { endpointPath } from '@scriptorium/common/api/endpoint';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import type { ExportImage, ExportInput } from '@scriptorium/common/export/model';
import type { CommentThread } from '@scriptorium/common/ws/review-messages';
import type { Node as PMNode } from 'prosemirror-model';
import { attachmentFileName, downloadBlob } from '../../../api/download';
import { cslLocaleFor } from '../../bibliography/csl/csl-assets';
import { loadStyleAndLocales } from '../../bibliography/csl/load-csl';
import type { ExportMenuFormat } from './export-actions';

/**
 * Runs an export in the browser (also offline): the same exporters as the server's route, on the
 * editor's own document, threads and images. PDF needs Chromium's page layout: online it comes
 * from the server's route, offline the print dialog (with the editor's print stylesheet) stands in.
 * DOCX and ODT of a document made from a stored template come from the server's route too while
 * online: the template's reference documents are there.
 */

async function figureImages(doc: PMNode): Promise<Record<string, ExportImage>> {
  const srcs = new Set<string>();
  doc.descendants((node) => {
    if (node.type.name === 'figure' && node.attrs.src) srcs.add(String(node.attrs.src));
    return true;
  });
  const images: Record<string, ExportImage> = {};
  await Promise.all(
    [...srcs].map(async (src) => {
      try {
        const response = await fetch(src, { credentials: 'same-origin' });
        if (!response.ok) return;
        const type = (response.headers.get('content-type') ?? '').split(';')[0];
        images[src] = { data: new Uint8Array(await response.arrayBuffer()), type };
      } catch {
        // Offline without a cached copy: the figure keeps its caption.
      }
    }),
  );
  return images;
}

function cslLocaleOfDocument(language: string): string {
  const lower = language.toLowerCase();
  return lower === 'pt-br' ? cslLocaleFor(lower) : cslLocaleFor(lower.split('-')[0]);
}

export interface ExportRequest {
  format: ExportMenuFormat;
  documentId: number;
  doc: PMNode;
  threads: Iterable<CommentThread>;
}

/**
 * The server refused the export with a message in the user's language (busy, or past a time,
 * memory or page budget): shown as it is.
 */
export class ExportRefused extends Error {}

/** The server's export route makes the file; rejects when it answers an error. */
async function serverExport(documentId: number, format: string): Promise<void> {
  const response = await fetch(endpointPath(documentsApi.export, { id: documentId, format }), {
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    if (response.status !== 500 && typeof body?.message === 'string') throw new ExportRefused(body.message);
    throw new Error(`export answered ${response.status}`);
  }
  downloadBlob(
    await response.blob(),
    attachmentFileName(response.headers.get('content-disposition'), `document.${format}`),
  );
}

/** A document made from a stored template (Templates plugin), whose export files only the server holds. */
const STORED_TEMPLATE = /^template-\d+$/;

export async function runExport({ format, documentId, doc, threads }: ExportRequest): Promise<void> {
  if (format === 'pdf') {
    if (!navigator.onLine) {
      window.print();
      return;
    }
    await serverExport(documentId, format);
    return;
  }
  // DOCX and ODT of a stored template's document take its reference document's styles: online the
  // server makes them; offline, or when the server cannot, our own styles do.
  if (
    (format === 'docx' || format === 'odt') &&
    navigator.onLine &&
    STORED_TEMPLATE.test(String(doc.attrs.template))
  ) {
    try {
      await serverExport(documentId, format);
      return;
    } catch {
      // Made here below, in our own styles.
    }
  }
  // The exporters (fflate, the OMML converter, citeproc) load only when someone exports.
  const { exportDocument, isExportFormat } = await import('@scriptorium/common/export/registry');
  if (!isExportFormat(format)) throw new Error(`no exporter for ${format}`);
  const language = String(doc.attrs.language || 'en-US');
  const locale = cslLocaleOfDocument(language);
  const [images, csl] = await Promise.all([
    figureImages(doc),
    loadStyleAndLocales(String(doc.attrs.citationstyle || 'apa'), locale).then(
      (loaded) => ({ name: String(doc.attrs.citationstyle || 'apa'), locale, ...loaded }),
      () => null,
    ),
  ]);
  const input: ExportInput = { content: doc.toJSON(), threads: [...threads], images, csl };
  // A frame for the progress indication to show before the main thread is busy.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const file = await exportDocument(format, input);
  downloadBlob(new Blob([new Uint8Array(file.data)], { type: file.mime }), file.name);
}
