import { BibLatexExporter, CSLExporter } from 'biblatex-csl-converter';
import type { EntryData } from './types';

type BibDb = ConstructorParameters<typeof BibLatexExporter>[0];

function toBibDb(entries: readonly EntryData[]): BibDb {
  const db: Record<number, { entry_key: string; bib_type: string; fields: Record<string, unknown> }> = {};
  entries.forEach((entry, index) => {
    db[index + 1] = { entry_key: entry.entry_key, bib_type: entry.bib_type, fields: entry.fields };
  });
  return db;
}

/** BibLaTeX text (.bib) of the entries, in the given order: everything the model holds. */
export function exportBiblatex(entries: readonly EntryData[]): string {
  if (entries.length === 0) return '';
  return new BibLatexExporter(toBibDb(entries), false, { traditionalNames: false }).parse();
}

/** BibLaTeX entry types without a BibTeX counterpart, and what classic styles know them as. */
const CLASSIC_TYPES: Record<string, string> = {
  mvbook: 'book',
  collection: 'book',
  mvcollection: 'book',
  reference: 'book',
  mvreference: 'book',
  bookinbook: 'inbook',
  suppbook: 'inbook',
  inreference: 'incollection',
  suppcollection: 'incollection',
  mvproceedings: 'proceedings',
  report: 'techreport',
};
const CLASSIC_KEEP = new Set([
  'article',
  'book',
  'booklet',
  'inbook',
  'incollection',
  'inproceedings',
  'manual',
  'misc',
  'proceedings',
  'techreport',
  'unpublished',
]);
/** BibLaTeX field names that BibTeX knows under another name. */
const CLASSIC_FIELDS: Record<string, string> = { journaltitle: 'journal', location: 'address' };
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Replaces \command{...} (with nested braces) by open + content + close. */
function replaceCommand(text: string, command: string, open: string, close: string): string {
  const start = `\\${command}{`;
  let out = '';
  let from = 0;
  for (let at = text.indexOf(start); at !== -1; at = text.indexOf(start, from)) {
    let depth = 1;
    let i = at + start.length;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
    }
    out += text.slice(from, at) + open + text.slice(at + start.length, i - 1) + close;
    from = i;
  }
  return out + text.slice(from);
}

/** BibLaTeX-only markup as plain LaTeX that any BibTeX style passes through. */
function classicMarkup(value: string): string {
  let text = value.replaceAll('\\mkbibitalic{', '\\emph{').replaceAll('\\mkbibbold{', '\\textbf{');
  text = replaceCommand(text, 'enquote', '``', "''");
  return text;
}

type ExportedEntry = { type: string; key: string; values?: Record<string, unknown> };

function toClassic(entry: ExportedEntry): void {
  const values = entry.values ?? {};
  const out: Record<string, unknown> = {};
  let type = entry.type;
  if (type === 'thesis') {
    // biblatex keeps the kind of thesis in `type`; BibTeX has one entry type per kind.
    type = values.type === 'mathesis' ? 'mastersthesis' : 'phdthesis';
    if (values.type === 'mathesis' || values.type === 'phdthesis') delete values.type;
  } else {
    type = CLASSIC_TYPES[type] ?? (CLASSIC_KEEP.has(type) ? type : 'misc');
  }
  for (const [field, value] of Object.entries(values)) {
    if (field === 'entrysubtype') continue;
    if (field === 'date' && typeof value === 'string') {
      // EDTF: 1928, 1928-01, 1928-01-15, ranges 1945/1946; BibTeX has year and month.
      const [from, to] = value.split('/');
      const year = /^-?\d{1,4}/.exec(from)?.[0];
      if (year)
        out.year = to && /^\d{4}/.test(to) && to.slice(0, 4) !== year ? `${year}--${to.slice(0, 4)}` : year;
      const month = Number(/^\d{4}-(\d{2})/.exec(from)?.[1]);
      if (month >= 1 && month <= 12 && !to) out.month = MONTHS[month - 1];
      continue;
    }
    const name =
      type.endsWith('thesis') && field === 'institution' ? 'school' : (CLASSIC_FIELDS[field] ?? field);
    out[name] = typeof value === 'string' ? classicMarkup(value) : value;
  }
  entry.type = type;
  entry.values = out;
}

/**
 * Classic BibTeX text (.bib) for natbib and the journals' .bst styles: BibTeX entry types,
 * year/month instead of an EDTF date, journal and address, "Family, Given" names, and LaTeX
 * markup without biblatex's commands. Months are written as BibTeX's month macros.
 */
export function exportBibtex(entries: readonly EntryData[]): string {
  if (entries.length === 0) return '';
  const exporter = new BibLatexExporter(toBibDb(entries), false, { traditionalNames: true });
  exporter.parse();
  for (const entry of exporter.bibtexArray) toClassic(entry);
  return exporter
    ._getBibtexString(exporter.bibtexArray)
    .replace(/^month = \{([a-z]{3})\}/gm, (line, month: string) =>
      MONTHS.includes(month) ? `month = ${month}` : line,
    );
}

export type CslItem = Record<string, unknown> & { id: string; type: string };

/**
 * CSL-JSON items keyed by the entry keys. Two corrections to the converter's output (see
 * FIELD-NOTES): a journal article is CSL `article-journal` (styles format `article` as a
 * generic item), and the biblatex `number` of an article is its issue.
 */
export function exportCslItems(entries: readonly EntryData[]): CslItem[] {
  const db = toBibDb(entries);
  const exporter = new CSLExporter(db, false, { useEntryKeys: true });
  return entries.map((entry, index) => {
    // The exporter keeps the last entry's langid for all later ones; each entry starts afresh.
    exporter.config.language = undefined;
    const item = exporter.getCSLEntry(String(index + 1)) as Record<string, unknown>;
    item.id = entry.entry_key;
    if (entry.bib_type === 'article' && 'journaltitle' in entry.fields) item.type = 'article-journal';
    // Journal names keep their capitals: styles print them as given (APA) or title-case them.
    if (Array.isArray(entry.fields.journaltitle)) {
      item['container-title'] = exporter._reformText(entry.fields.journaltitle);
    }
    if (
      (item.type === 'article-journal' ||
        item.type === 'article-magazine' ||
        item.type === 'article-newspaper') &&
      item['collection-number'] !== undefined &&
      item.issue === undefined
    ) {
      item.issue = item['collection-number'];
      delete item['collection-number'];
    }
    return item as CslItem;
  });
}

/** CSL-JSON text (an array of items), as Zotero and pandoc read it. */
export function exportCslJson(entries: readonly EntryData[]): string {
  return `${JSON.stringify(exportCslItems(entries), null, 2)}\n`;
}
