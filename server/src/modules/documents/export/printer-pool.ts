import { workerFile } from '../../../util/worker-threads';

/**
 * The body of the server printer's thread (printer.ts, PrinterThread). A module of its own, named
 * as the pools are: the server's bundle keeps `import.meta.dirname` of `*-pool.ts` as the folder
 * of the bundle's worker files (scripts/build-server.mjs).
 */
export const PRINTER_WORKER_FILE = workerFile(import.meta.dirname, 'printer-worker');
