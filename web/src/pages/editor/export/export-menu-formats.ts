/**
 * File > Export (issue 19): one menu item per format, in a submenu. The formats are those of the
 * common registry (made in the browser, also offline) plus PDF (the server lays out pages with
 * Chromium; offline the print dialog with the print stylesheet).
 */
export const EXPORT_MENU_FORMATS = [
  'docx',
  'odt',
  'latex',
  'jats',
  'epub',
  'html',
  'markdown',
  'pdf',
  'native',
] as const;
export type ExportMenuFormat = (typeof EXPORT_MENU_FORMATS)[number];
