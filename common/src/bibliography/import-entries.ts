import { sniffFormat } from 'biblatex-csl-converter';
import { type ImportResult, importBibtex, importCslJson } from './import-bibtex';
import { importTagged } from './import-tagged';

/** The formats we read; the report names the one a file was read as. */
export type ImportFormat = 'biblatex' | 'csl_json' | 'ris' | 'enw' | 'nbib';

export interface DetectedFormat {
  format: ImportFormat | null;
  /** A format the converter recognises but a worker cannot read (EndNote XML, Citavi, Word...). */
  unsupported?: string;
}

/** Picks the reader by content, not by file name: downloads are often named .txt. */
export function detectFormat(input: string): DetectedFormat {
  const start = input.replace(/^\uFEFF/, '').trimStart();
  const sniffed = sniffFormat(start);
  switch (sniffed) {
    case 'biblatex':
    case 'csl_json':
    case 'ris':
    case 'enw':
    case 'nbib':
      return { format: sniffed };
    case null:
      // EndNote records are recognised by their `%0` first line; a file whose first record starts
      // with another tag (%A, %T) is still EndNote.
      if (/^%[0-9A-Z@!] \S/.test(start)) return { format: 'enw' };
      // Broken JSON is still meant as CSL-JSON (its report says why it failed); anything else
      // goes to the BibTeX reader, which reports what it cannot read.
      return { format: start.startsWith('[') || start.startsWith('{') ? 'csl_json' : 'biblatex' };
    default:
      return { format: null, unsupported: sniffed };
  }
}

export interface ImportReport extends ImportResult {
  format: ImportFormat | null;
}

/** Reads a bibliography file of any supported format into entry data and a report. */
export function importBibliography(input: string): ImportReport {
  return explainEmptyImport(readBibliography(input));
}

function readBibliography(input: string): ImportReport {
  const { format, unsupported } = detectFormat(input);
  switch (format) {
    case 'csl_json':
      return { format, ...importCslJson(input) };
    case 'ris':
    case 'enw':
    case 'nbib':
      return { format, ...importTagged(input, format) };
    case 'biblatex':
      return { format, ...importBibtex(input) };
    default:
      return {
        format: null,
        entries: [],
        messages: [{ level: 'error', code: 'unsupported_format', entry: null, value: unsupported }],
      };
  }
}

/**
 * A file that gives no entry says so (first in its report), whatever else the report lists; a
 * report with entries never says so. Also for reports merged from parts of one file.
 */
export function explainEmptyImport(report: ImportReport): ImportReport {
  const messages = report.messages.filter((m) => m.code !== 'nothing_found');
  if (report.entries.length === 0 && report.format !== null)
    messages.unshift({ level: 'error', code: 'nothing_found', entry: null });
  return { ...report, messages };
}
