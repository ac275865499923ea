import type { ExportFormatName } from '@scriptorium/common/export/registry';

/**
 * The export registry's format names, without loading the registry: it brings every writer
 * (citeproc, temml, xmldom, ...), which the export workers load, and the main thread only when it
 * exports itself. An idle server does not hold them. The compiler keeps this list and the
 * registry's the same (format-names.test.ts also compares them at run time).
 */
export const EXPORT_FORMAT_NAMES = [
  'docx',
  'odt',
  'html',
  'latex',
  'jats',
  'epub',
  'markdown',
  'native',
] as const satisfies readonly ExportFormatName[];

/** A registry format missing above makes this type `false`, and the line below fail to compile. */
type Complete = [Exclude<ExportFormatName, (typeof EXPORT_FORMAT_NAMES)[number]>] extends [never]
  ? true
  : false;
export const EXPORT_FORMAT_NAMES_COMPLETE: Complete = true;

export function isExportFormat(name: string): name is ExportFormatName {
  return (EXPORT_FORMAT_NAMES as readonly string[]).includes(name);
}
