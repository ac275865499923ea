import { TakenEntryKeys } from '../bibliography/entry-key';
import { plainText } from '../bibliography/rich-text';
import type { EntryData, NameValue, RichText } from '../bibliography/types';

/**
 * The citation keys a LaTeX (and JATS) export writes for a document's entries (issue 53): the
 * user's own BibTeX key, and for an entry without one a readable key made of the first author's
 * family name, the year and the first word of the title ("lovelace1990structure"). Keys are unique
 * in the document (BibTeX ignores case): the user's keys are claimed first, in the bibliography's
 * order, so a made-up key never takes a key the user chose; a clash gets _2, _3, ...
 */

/** Words a made-up key skips in a title, as reference managers do. */
const STOP_WORDS = new Set(
  'a an the on of in at to for and or but with from by as is are into about over under der die das ein eine le la les un une el los las il lo gli'.split(
    ' ',
  ),
);

/** Letters without accents, lower-cased, nothing but a-z and 0-9. */
function asciiWord(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(
      /[æßøœłđþ]/g,
      (char) => ({ æ: 'ae', ß: 'ss', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', þ: 'th' })[char] ?? '',
    )
    .replace(/[^a-z0-9]/g, '');
}

function firstName(fields: EntryData['fields']): string {
  for (const field of ['author', 'editor', 'translator']) {
    const names = fields[field] as NameValue[] | undefined;
    const name = Array.isArray(names) ? names[0] : undefined;
    if (name && typeof name === 'object') {
      const family = asciiWord(plainText(name.family ?? name.literal));
      if (family) return family;
    }
  }
  return '';
}

function year(fields: EntryData['fields']): string {
  const date = fields.date;
  return typeof date === 'string' ? (/^-?\d{1,4}/.exec(date)?.[0] ?? '') : '';
}

function titleWord(fields: EntryData['fields']): string {
  const title = fields.title;
  if (!Array.isArray(title)) return '';
  for (const word of plainText(title as RichText).split(/[\s\-–—:;,.!?/]+/)) {
    const ascii = asciiWord(word);
    if (ascii && !STOP_WORDS.has(ascii)) return ascii;
  }
  return '';
}

/** A readable key for an entry that has none: author, year, title word ("entry" when it has none). */
export function madeUpKey(entry: EntryData): string {
  return `${firstName(entry.fields)}${year(entry.fields)}${titleWord(entry.fields)}` || 'entry';
}

/** The citation key of each entry, by its id in the document. */
export function citationKeys(entries: ReadonlyMap<string, EntryData>): Map<string, string> {
  const taken = new TakenEntryKeys();
  const keys = new Map<string, string>();
  const withoutKey: string[] = [];
  for (const [id, entry] of entries) {
    // Signs a \cite command or biber could stumble on (& $ ^ ...) become '-'; letters of any script stay.
    const own = (entry.entry_key ?? '').trim().replace(/[^\p{L}\p{N}:.\-_+/]/gu, '-');
    if (/[\p{L}\p{N}]/u.test(own)) keys.set(id, taken.claim(own));
    else withoutKey.push(id);
  }
  for (const id of withoutKey) keys.set(id, taken.claim(madeUpKey(entries.get(id) as EntryData)));
  // In the document's order, as the bibliography lists them.
  return new Map([...entries.keys()].map((id) => [id, keys.get(id) as string]));
}
