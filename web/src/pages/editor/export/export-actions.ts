import type { EditorActionSpec } from '../editor-actions';

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

export function exportActions(formats: readonly ExportMenuFormat[]): EditorActionSpec[] {
  return formats.map((format) => ({
    id: `editor.export.${format}`,
    title: `export:format.${format}`,
    menu: 'file',
    group: 'output',
    submenu: 'export',
    writes: false,
    special: 'export',
    exportFormat: format,
  }));
}
