import { plainText } from './plain-text';
import type { EntryData, NameValue, RichText } from './types';

/** The title as plain text. */
export function entryTitle(entry: EntryData): string {
  return plainText(entry.fields.title as RichText | undefined);
}

function nameText(name: NameValue): string {
  if (name.literal) return plainText(name.literal);
  return [plainText(name.prefix), plainText(name.family)].filter(Boolean).join(' ') || plainText(name.given);
}

/** Family names of the authors (else the editors), as a reference manager's column shows them. */
export function entryAuthors(entry: EntryData): string {
  const names = (entry.fields.author ?? entry.fields.editor) as NameValue[] | undefined;
  if (!Array.isArray(names) || names.length === 0) return '';
  return names.map(nameText).join(', ');
}

/** The first year of the EDTF date, or ''. */
export function entryYear(entry: EntryData): string {
  const date = entry.fields.date;
  if (typeof date !== 'string') return '';
  return /-?\d{4}/.exec(date)?.[0] ?? '';
}

/** What search-as-you-type matches: key, title, authors, year. */
export function entrySearchText(entry: EntryData): string {
  return `${entry.entry_key} ${entryTitle(entry)} ${entryAuthors(entry)} ${entryYear(entry)}`;
}
