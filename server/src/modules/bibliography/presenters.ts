import type { BibCategory } from '@scriptorium/common/bibliography/types';
import type { Selectable } from 'kysely';
import type { BibCategoriesTable, BibEntriesTable } from '../../db/schema';

export type EntryRow = Pick<Selectable<BibEntriesTable>, 'id' | 'entry_key' | 'bib_type' | 'fields' | 'cats'>;

export function presentCategory(
  row: Pick<Selectable<BibCategoriesTable>, 'id' | 'category_title'>,
): BibCategory {
  return { id: row.id, category_title: row.category_title };
}

/**
 * The same entry as JSON text, spliced from the stored JSON without parsing it again: the full
 * list of a 10,000-entry library is built in a few milliseconds this way.
 */
export function entryJson(row: EntryRow): string {
  return `{"id":${row.id},"entry_key":${JSON.stringify(row.entry_key)},"bib_type":${JSON.stringify(row.bib_type)},"fields":${row.fields},"cats":${row.cats}}`;
}
