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
