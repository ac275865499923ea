import type { ExportedFile } from '@scriptorium/common/export/registry';
import type { AppContext } from '../../../context';
import { HttpError } from '../../../http/errors';
import { currentContent } from '../collab/store';
import type { VisibleDocument } from '../queries';
import { UNREADABLE_SNAPSHOT } from './content-source';
import { runExportTask } from './export-pool';
import type { DocumentExportInput, ExportResult, ExportTask } from './export-worker';
import { isExportFormat } from './format-names';
import { gatherExportInput } from './gather-input';
import { asHeavyTask } from './heavy-work';
import { printerFor } from './printer';
import { answeringBudgetRefusals } from './refusals';

/**
 * One document in one format for one user; 404 for a format we do not make. The main thread only
 * reads (database, files); the file is made in the export worker pool and a PDF typeset by the
 * pooled browser, as one of the user's heavy tasks (heavy-work.ts), within their budgets.
 */
export async function exportFile(
  ctx: AppContext,
  userId: number,
  document: VisibleDocument,
  format: string,
): Promise<ExportedFile> {
  if (format !== 'pdf' && !isExportFormat(format)) throw new HttpError(404);
  return asHeavyTask(ctx.config, userId, () =>
    answeringBudgetRefusals(async () => {
      const input = await gatherExportInput(ctx, userId, document);
      if (format !== 'pdf')
        return fileOf(
          await inWorker(ctx, document.id, input, (ready) => ({ kind: 'document', format, input: ready })),
        );
      // The typeset PDF (typeset.ts): the export HTML laid out in pages by Paged.js. The browser
      // starts, and a page is readied with Paged.js (printer-worker.ts), while the worker makes the HTML.
      const printer = printerFor(ctx.config);
      void printer.warm();
      const made = await inWorker(ctx, document.id, input, (ready) => ({ kind: 'typeset', input: ready }));
      if (made.kind !== 'typeset') throw new Error(`unexpected export result ${made.kind}`);
      return {
        name: made.name,
        mime: 'application/pdf',
        // Typeset in the printer's thread (typeset.ts, typesetPdf), not on the event loop.
        data: await printer.typeset(ctx.config.pdfMaxPages, made.html, made.metadata),
      };
    }),
  );
}

/**
 * Runs the task in the export pool; a snapshot the worker cannot read as a document is read here as
 * the collaboration store reads it (currentContent), and the task runs again on that text.
 */
async function inWorker(
  ctx: AppContext,
  documentId: number,
  input: DocumentExportInput,
  task: (input: DocumentExportInput) => ExportTask,
): Promise<ExportResult> {
  try {
    return await runExportTask(ctx.config, task(input));
  } catch (error) {
    if (!(error instanceof Error) || error.message !== UNREADABLE_SNAPSHOT) throw error;
    const text = (await currentContent(ctx.db, documentId)) ?? 'null';
    return runExportTask(ctx.config, task({ ...input, source: { text } }));
  }
}

/** The file of a worker's answer. */
export function fileOf(result: ExportResult): ExportedFile {
  if (result.kind !== 'file') throw new Error(`unexpected export result ${result.kind}`);
  return result.file;
}
