import type { EditorActionSpec } from '../editor-action-spec';
import type { ExportMenuFormat } from './export-menu-formats';

export { EXPORT_MENU_FORMATS, type ExportMenuFormat } from './export-menu-formats';

/**
 * File > Export (issue 19): one menu item per format, in a submenu (export-menu-formats.ts).
 */
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
