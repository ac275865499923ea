import { MAX_ENTRY_KEY_LENGTH } from './validate';

// Characters that break a BibTeX key or a \cite command: whitespace, braces, quotes, comma and the
// TeX specials. Everything else (letters of any script, digits, :-_./+) is kept.
const UNSAFE = /[\s{}(),"'#%~\\=]/g;

/** A key that survives BibTeX export and \cite{...}; never empty. */
export function safeEntryKey(key: string): string {
  const cleaned = key
    .normalize('NFC')
    .replace(UNSAFE, '')
    .slice(0, MAX_ENTRY_KEY_LENGTH - 8);
  return cleaned === '' ? 'entry' : cleaned;
}

/**
 * Makes `key` safe and unique among `taken` (which it then joins): a clash gets the suffix _2,
 * _3, ... as reference managers do, so that \cite keys stay readable. Comparison ignores case,
 * because BibTeX does.
 */
export function uniqueEntryKey(key: string, taken: Set<string>): string {
  const base = safeEntryKey(key);
  let candidate = base;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base}_${n}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
