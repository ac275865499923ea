/**
 * Text folded for searching: accents and other combining marks dropped, lower case by the rules
 * of the language ('İ' in Turkish). Collators do not do this reliably: the German search
 * collation of ICU tells 'u' from 'ü', while a user typing "ubersicht" means "Übersicht".
 */
export function foldForSearch(text: string, locale: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase(locale);
}

/** Whether every word of the query occurs in the text, accents and case ignored. */
export function matchesSearch(text: string, query: string, locale: string): boolean {
  const folded = foldForSearch(text, locale);
  return foldForSearch(query, locale)
    .split(/\s+/)
    .every((word) => folded.includes(word));
}
