import { entryAuthors, entryTitle, entryYear } from './display';
import type { BibEntry } from './types';

/**
 * The search behind inline citing (`@` in the editor, issue 55): the library is read once into a
 * list of lowercase texts without accents (key, authors, title, year), so a keystroke only runs
 * `indexOf` over short strings and stops as soon as it has enough results that match at the start
 * of words. 10,000 entries take well under a millisecond per keystroke (bench/inline-cite.ts).
 */

export interface CiteCandidate {
  entry: BibEntry;
  authors: string;
  year: string;
  title: string;
}

/** Lowercase, accents removed, punctuation as spaces: "Müller-Lüdenscheidt" -> "muller ludenscheidt". */
export function foldText(text: string): string {
  // Most entries are plain ASCII: no decomposition needed.
  const lower = NON_ASCII.test(text)
    ? text.normalize('NFD').replace(MARKS, '').toLowerCase()
    : text.toLowerCase();
  return lower.replace(NOT_WORD, ' ');
}
const NON_ASCII = /[^ -~\s]/;
const MARKS = /\p{M}+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** The words of a query, folded as the index is (empty words dropped). */
export function queryWords(query: string): string[] {
  return foldText(query).split(' ').filter(Boolean);
}

export class CiteIndex {
  readonly candidates: readonly CiteCandidate[];
  /** Per candidate: ' ' + folded authors, year, title and key (so ' ' + word finds a word start). */
  private readonly texts: string[];
  /** The texts joined by newlines, and where each starts: one `indexOf` finds the next entry. */
  private readonly all: string;
  private readonly starts: Int32Array;

  /** Folded text by unfolded text: a new copy of the library folds only what changed. */
  private readonly folds = new Map<string, string>();

  /** `previous`: the index of an earlier copy of the library, whose folded texts are reused. */
  constructor(entries: readonly BibEntry[], previous?: CiteIndex) {
    const candidates: CiteCandidate[] = [];
    const texts: string[] = [];
    const starts = new Int32Array(entries.length + 1);
    let offset = 0;
    for (const entry of entries) {
      const candidate = {
        entry,
        authors: entryAuthors(entry),
        year: entryYear(entry),
        title: entryTitle(entry),
      };
      const raw = `${candidate.authors} ${candidate.year} ${candidate.title} ${entry.entry_key}`;
      let text = previous?.folds.get(raw);
      if (text === undefined) text = ` ${foldText(raw)}`;
      this.folds.set(raw, text);
      starts[candidates.length] = offset;
      offset += text.length + 1;
      candidates.push(candidate);
      texts.push(text);
    }
    starts[candidates.length] = offset;
    this.candidates = candidates;
    this.texts = texts;
    this.all = texts.join('\n');
    this.starts = starts;
  }

  get size(): number {
    return this.candidates.length;
  }

  /**
   * Entries containing every word of the query. Those where every word starts a word come first
   * ("smi" finds Smith before Vasmith), each group in library order; at most `limit`.
   */
  search(query: string, limit = 10): CiteCandidate[] {
    const words = queryWords(query);
    if (!words.length) return this.candidates.slice(0, limit);
    // The longest word leads (the fewest entries contain it); the others are checked per entry.
    words.sort((a, b) => b.length - a.length);
    const lead = words[0];
    const wordStarts = words.map((word) => ` ${word}`);
    const best: CiteCandidate[] = [];
    const other: CiteCandidate[] = [];
    const { all, starts, texts, candidates } = this;
    let entry = 0;
    let from = 0;
    while (best.length < limit) {
      const hit = all.indexOf(lead, from);
      if (hit < 0) break;
      while (starts[entry + 1] <= hit) entry++;
      from = starts[entry + 1];
      const text = texts[entry];
      let every = true;
      let atStart = true;
      for (let w = 0; w < words.length; w++) {
        if (atStart && text.includes(wordStarts[w])) continue;
        atStart = false;
        if (!text.includes(words[w])) {
          every = false;
          break;
        }
      }
      if (!every) continue;
      if (atStart) best.push(candidates[entry]);
      else if (other.length < limit) other.push(candidates[entry]);
    }
    return best.concat(other).slice(0, limit);
  }
}
