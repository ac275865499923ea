import { HttpError } from '../../../http/errors';
import { ExportBudgetExceeded } from './export-pool';
import { PdfTooLong } from './pdf';
import { PrinterBusy, PrintTimeLimit } from './printer';

/** Seconds to wait before asking again when the printer's queue is full. */
const PRINTER_RETRY_AFTER_SECONDS = 30;

/** The budgets' refusals of an export as translated answers (namespace `server`), never a 500. */
export async function answeringBudgetRefusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ExportBudgetExceeded)
      throw new HttpError(422, { error: 'export_limit', message: { key: 'errors.exportLimit' } });
    if (error instanceof PdfTooLong)
      throw new HttpError(422, {
        error: 'pdf_too_long',
        message: { key: 'errors.pdfTooLong', values: { max: error.maxPages } },
      });
    if (error instanceof PrintTimeLimit)
      throw new HttpError(422, { error: 'pdf_time_limit', message: { key: 'errors.pdfTimeLimit' } });
    if (error instanceof PrinterBusy)
      throw new HttpError(503, {
        error: 'printer_busy',
        message: { key: 'errors.printerBusy' },
        headers: { 'retry-after': String(PRINTER_RETRY_AFTER_SECONDS) },
      });
    throw error;
  }
}
