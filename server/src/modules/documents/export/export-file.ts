import { withoutUnsafeLinks } from '@scriptorium/common/editor/safe-links';
import { schema } from '@scriptorium/common/editor/schema';
import { acceptedDocument } from '@scriptorium/common/editor/track-changes';
import { prepareDocument } from '@scriptorium/common/export/model';
import { type ExportedFile, exportDocument, isExportFormat } from '@scriptorium/common/export/registry';
import { fileBaseName } from '@scriptorium/common/export/text';
import type { AppContext } from '../../../context';
import { HttpError } from '../../../http/errors';
import type { VisibleDocument } from '../queries';
import { exportEngines, gatherExportInput } from './gather-input';
import { exportPdf } from './pdf';
import { hasPrintPage, printDocumentPdf } from './print-page';

/** One document in one format for one user; 404 for a format we do not make. */
export async function exportFile(
  ctx: AppContext,
  userId: number,
  document: VisibleDocument,
  format: string,
): Promise<ExportedFile> {
  if (format === 'pdf') {
    const input = await gatherExportInput(ctx, userId, document);
    if (hasPrintPage(ctx.config.webDist)) {
      // The editor's rendering, printed (print-page.ts).
      const doc = acceptedDocument(schema.nodeFromJSON(withoutUnsafeLinks(input.content)));
      doc.check();
      return {
        name: `${fileBaseName(doc.firstChild?.textContent ?? '')}.pdf`,
        mime: 'application/pdf',
        data: await printDocumentPdf(
          ctx.config.webDist,
          { doc: doc.toJSON() },
          input.images,
          doc.attrs.paper_size === 'US Letter' ? 'US Letter' : 'A4',
        ),
      };
    }
    const prepared = prepareDocument(input, exportEngines, { accepted: true });
    return {
      name: `${fileBaseName(prepared.title)}.pdf`,
      mime: 'application/pdf',
      data: await exportPdf(prepared),
    };
  }
  if (!isExportFormat(format)) throw new HttpError(404);
  const input = await gatherExportInput(ctx, userId, document);
  return exportDocument(format, input, exportEngines);
}
