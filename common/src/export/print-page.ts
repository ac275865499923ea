/**
 * The print page of the PDF export (issue 19): the web build's print.html, opened by the server
 * (server/src/modules/documents/export/print-page.ts), fetches its document from this address.
 */
export const PRINT_DATA_PATH = '/print/document.json';

/** What the print page is handed. */
export interface PrintPayload {
  /** ProseMirror JSON of the document as it reads with every suggestion accepted. */
  doc: unknown;
}
