import { parentPort, workerData } from 'node:worker_threads';
import type { BrowserContext, Page } from 'playwright-core';
import { lowerThreadPriority } from '../../../util/worker-threads';
import { PdfTooLong, printHtmlPdf } from './pdf';
import {
  type FromPrinter,
  Printer,
  PrinterBusy,
  type PrinterConfig,
  type PrintFailure,
  type PrintJob,
  type PrintOptions,
  PrintTimeLimit,
  type ToPrinter,
} from './printer';
import { readyForTypesetting, typesetPdf } from './typeset';

/**
 * The server printer's thread (printer.ts, PrinterThread): holds the Printer, and with it
 * playwright-core and the browser, away from the event loop. Each job is one export's print: its
 * HTML in, its PDF (transferred) or refusal out; a book asks the event loop for the HTML of each
 * further print (its contents' page numbers). Below the event loop's priority, as the pools'
 * threads run; Chromium is started at HEAVY_WORK_NICENESS below the server, not twice that.
 */

lowerThreadPriority();

const port = parentPort;
if (!port) throw new Error('printer-worker.ts runs as a worker thread');
const post = (message: FromPrinter, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const printer = new Printer(workerData.config as PrinterConfig);
printer.changed = () =>
  post({ type: 'state', ...printer.load, contexts: printer.contexts } satisfies FromPrinter);

/** One job's view of the printer: its start budget and, in tests, its hold. */
class JobPrinter extends Printer {
  constructor(
    config: PrinterConfig,
    private readonly shared: Printer,
    private readonly jobOptions: PrintOptions,
  ) {
    super(config);
  }

  override print<T>(
    work: (context: BrowserContext, page: Page) => Promise<T>,
    options: PrintOptions = {},
  ): Promise<T> {
    return this.shared.print(work, { ...this.jobOptions, ...options });
  }
}

/** Answers of the event loop a job waits for: further HTML, or the test's go. */
const waitingHtml = new Map<number, { resolve: (html: string) => void; reject: (error: Error) => void }>();
const waitingGo = new Map<number, () => void>();

/** The refusal by name (printer.ts, failureOf, makes its class again). */
function failure(error: unknown): PrintFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof PdfTooLong) return { name: 'PdfTooLong', message, maxPages: error.maxPages };
  if (error instanceof PrinterBusy) return { name: 'PrinterBusy', message };
  if (error instanceof PrintTimeLimit) return { name: 'PrintTimeLimit', message };
  return { name: 'Error', message };
}

async function run(id: number, job: PrintJob, options: PrintOptions): Promise<void> {
  const view = new JobPrinter(workerData.config as PrinterConfig, printer, options);
  try {
    let pdf =
      job.kind === 'typeset'
        ? await typesetPdf(view, job.maxPages, job.html, job.metadata)
        : await printHtmlPdf(view, job.maxPages, job.paperSize, job.book, (contentsPages) =>
            contentsPages
              ? new Promise<string>((resolve, reject) => {
                  waitingHtml.set(id, { resolve, reject });
                  post({ type: 'need-html', id, contentsPages: [...contentsPages] });
                })
              : Promise.resolve(job.html),
          );
    // Its own buffer, to be moved, not copied.
    if (pdf.byteOffset !== 0 || pdf.byteLength !== pdf.buffer.byteLength) pdf = pdf.slice();
    post({ type: 'done', id, pdf }, [pdf.buffer as ArrayBuffer]);
  } catch (error) {
    post({ type: 'failed', id, error: failure(error) });
  } finally {
    waitingHtml.delete(id);
    waitingGo.delete(id);
  }
}

port.on('message', (message: ToPrinter) => {
  switch (message.type) {
    case 'job': {
      const { id, job, startBy, hold } = message;
      const beforeWork = hold
        ? () =>
            new Promise<void>((resolve) => {
              waitingGo.set(id, resolve);
              post({ type: 'holding', id });
            })
        : undefined;
      void run(id, job, { startBy, beforeWork });
      return;
    }
    case 'html':
      waitingHtml.get(message.id)?.resolve(message.html);
      waitingHtml.delete(message.id);
      return;
    case 'html-failed':
      waitingHtml.get(message.id)?.reject(new Error('the HTML of a further print failed'));
      waitingHtml.delete(message.id);
      return;
    case 'go':
      waitingGo.get(message.id)?.();
      waitingGo.delete(message.id);
      return;
    case 'warm':
      // Only the typeset PDF warms the printer (export-file.ts): its page is readied with Paged.js.
      void printer.warm(readyForTypesetting).then(() => post({ type: 'warmed' }));
      return;
    case 'close':
      void printer.close().then(() => post({ type: 'closed' }));
      return;
  }
});
