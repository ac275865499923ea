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

/** BibLaTeX text (.bib) of the entries, in the given order. */
export function exportBibtex(entries: readonly EntryData[]): string {
  if (entries.length === 0) return '';
  return new BibLatexExporter(toBibDb(entries), false, { traditionalNames: false }).parse();
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
