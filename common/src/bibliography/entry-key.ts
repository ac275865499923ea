/**
 * The longest entry key (validate.ts checks it). Here, not in validate.ts, so that the server's
 * key handling does not load biblatex-csl-converter, which the validator needs.
 */
export const MAX_ENTRY_KEY_LENGTH = 255;

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
 * The entry keys taken in one library (lower-cased: BibTeX ignores case), and for each key that
 * clashed, the suffix its search reached: a file that cites 10,000 works of one author in one
 * year gives 10,000 keys Doe2020, and searching _2, _3, ... from the start each time was
 * quadratic (a minute of one request's work for 20,000). Keys are only ever added, so a suffix
 * once found taken stays taken and the next search for that key goes on from there.
 */
export class TakenEntryKeys {
  private readonly taken = new Set<string>();
  private readonly nextSuffix = new Map<string, number>();

  constructor(lowerCaseKeys: Iterable<string> = []) {
    for (const key of lowerCaseKeys) this.taken.add(key.toLowerCase());
  }

  has(key: string): boolean {
    return this.taken.has(key.toLowerCase());
  }

  /**
   * Makes `key` safe and unique among the taken keys (which it then joins): a clash gets the
   * suffix _2, _3, ... as reference managers do, so that \cite keys stay readable.
   */
  claim(key: string): string {
    const base = safeEntryKey(key);
    const lower = base.toLowerCase();
    let candidate = base;
    if (this.taken.has(lower)) {
      let suffix = this.nextSuffix.get(lower) ?? 2;
      while (this.taken.has(`${lower}_${suffix}`)) suffix++;
      this.nextSuffix.set(lower, suffix + 1);
      candidate = `${base}_${suffix}`;
    }
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
