import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type BiberEntry, biberReading } from '../testing/biber';
import { toolAvailable } from '../testing/office-tools';
import { importBibtex } from './import-bibtex';
import { plainText } from './rich-text';
import type { EntryData, NameValue, RichText } from './types';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const cases = fixture('biber-cases.bib');
const xampl = fixture('xampl.bib');

const byKey = (entries: EntryData[], key: string) => {
  const entry = entries.find((e) => e.entry_key === key);
  if (!entry) throw new Error(`no entry ${key}`);
  return entry;
};
const text = (value: unknown) => plainText(value as RichText);
const list = (value: unknown) => (value as RichText[]).map(text);
const families = (value: unknown) => (value as NameValue[]).map((name) => text(name.family ?? name.literal));

describe('the BibTeX reader on hand-made cases biber reads', () => {
  const { entries, messages } = importBibtex(cases);

  it('imports every entry, skipping comments in parentheses, @set and @xdata', () => {
    expect(entries.map((e) => e.entry_key)).toEqual([
      'dashes',
      'accents',
      'empty',
      'numbers',
      'aas',
      'unknownmacro',
      'phd',
      'masters',
      'report',
      'withxdata',
      'chapter',
      'collection',
    ]);
    expect(messages.filter((m) => m.level === 'error')).toEqual([]);
  });

  it('typesets -- and --- as dashes outside verbatim fields', () => {
    const entry = byKey(entries, 'dashes');
    expect(text(entry.fields.title)).toBe('Pages 1–2, a—dash and the TeXbook');
    expect(entry.fields.url).toBe('http://example.org/a--b');
    expect(entry.fields.doi).toBe('10.1000/a--b');
    expect((entry.fields.pages as RichText[][])[0].map(text)).toEqual(['10', '20']);
  });

  it('reads {\\TeX book} as TeXbook, case-protected', () => {
    const title = byKey(entries, 'dashes').fields.title as RichText;
    expect(title).toContainEqual({ type: 'text', text: 'TeXbook', marks: [{ type: 'nocase' }] });
  });

  it('expands @string macros, nested and concatenated with or without spaces, and month macros', () => {
    const dashes = byKey(entries, 'dashes');
    expect(list(dashes.fields.publisher)).toEqual(['Addison-Wesley Publishing 1990']);
    expect(dashes.fields.date).toBe('1984-03');
    expect(list(byKey(entries, 'accents').fields.publisher)).toEqual([
      'Association for Computing Machinery, Inc.',
    ]);
  });

  it('turns TeX accents and commands into Unicode', () => {
    const entry = byKey(entries, 'accents');
    expect(text(entry.fields.title)).toBe('Über Sätze, café, naïve, ça, Škoda and TeX for LaTeX users');
    expect(families(entry.fields.author)).toEqual(['Gödel', 'Erdős', 'Straße', 'Ørsted']);
  });

  it('ignores empty fields without an error', () => {
    const entry = byKey(entries, 'empty');
    expect(entry.fields.url).toBeUndefined();
    expect(entry.fields.doi).toBeUndefined();
    expect(messages.filter((m) => m.entry === 'empty')).toEqual([]);
  });

  it('keeps both number and issue', () => {
    const entry = byKey(entries, 'numbers');
    expect(text(entry.fields.number)).toBe('3');
    expect(text(entry.fields.issue)).toBe('Spring');
    expect(text(entry.fields.volume)).toBe('12');
  });

  it('shows an AAS journal macro as its abbreviation and keeps an unknown one, reported', () => {
    expect(text(byKey(entries, 'aas').fields.journaltitle)).toBe('ApJ');
    expect(text(byKey(entries, 'unknownmacro').fields.journaltitle)).toBe('\\jphysA');
    expect(messages).toContainEqual({
      level: 'warning',
      code: 'unknown_command',
      entry: 'unknownmacro',
      field: 'journaltitle',
      value: '\\jphysA',
    });
  });

  it('keeps the kind of @phdthesis, @mastersthesis and @techreport in the type field', () => {
    expect(byKey(entries, 'phd')).toMatchObject({ bib_type: 'thesis', fields: { type: 'phdthesis' } });
    expect(byKey(entries, 'masters')).toMatchObject({ bib_type: 'thesis', fields: { type: 'mathesis' } });
    expect(byKey(entries, 'report')).toMatchObject({ bib_type: 'report', fields: { type: 'techreport' } });
  });

  it('resolves @xdata and crossref, and reports a @set instead of importing it', () => {
    const book = byKey(entries, 'withxdata');
    expect(list(book.fields.publisher)).toEqual(['Springer']);
    expect(list(book.fields.location)).toEqual(['Berlin']);
    const chapter = byKey(entries, 'chapter');
    expect(text(chapter.fields.booktitle)).toBe('The Collection');
    expect(text(chapter.fields.title)).toBe('A Chapter');
    expect(chapter.fields.date).toBe('2006');
    expect(messages).toContainEqual({ level: 'warning', code: 'entry_set_skipped', entry: 'boththeses' });
  });
});

describe('the BibTeX reader on cases biber skips or reads alone', () => {
  it('gives entries without a key a stable author+year+word key, unique in the file', () => {
    const input =
      '@article{,\n  author = {Smith, John},\n  title = {The Keyless Entry},\n  year = 2001,\n}\n' +
      '@book{\n  author = {Smith, John},\n  title = {The Keyless Entry},\n  year = 2001,\n}\n' +
      '@misc{ , title = {Über alles \\jphysA}}\n@misc{smith2001keylessb, title = {Taken}}\n';
    const first = importBibtex(input);
    expect(first.entries.map((e) => e.entry_key)).toEqual([
      'smith2001keyless',
      'smith2001keylessa',
      'uber',
      'smith2001keylessb',
    ]);
    expect(first.messages.map((m) => [m.code, m.entry])).toEqual([
      ['unknown_command', 'uber'],
      ['key_generated', 'smith2001keyless'],
      ['key_generated', 'smith2001keylessa'],
      ['key_generated', 'uber'],
    ]);
    expect(importBibtex(input).entries).toEqual(first.entries);
  });

  it('reads @COMMENT(...) with parentheses and keeps the entries after it', () => {
    const { entries, messages } = importBibtex(
      '@COMMENT(This file (a test) has a comment)\n@book{after, title = {After the comment}, year = 1990}\n',
    );
    expect(entries.map((e) => e.entry_key)).toEqual(['after']);
    expect(messages).toEqual([]);
  });

  it('resolves a cross reference after a missing one, and keys without regard to case', () => {
    const { entries, messages } = importBibtex(
      '@inbook{lost, title = {Lost}, crossref = {nowhere}}\n' +
        '@inbook{found, title = {Found}, crossref = {WHOLE}}\n' +
        '@book{whole, title = {The Whole}, publisher = {P}, year = 1999}\n',
    );
    expect(messages).toContainEqual(
      expect.objectContaining({ level: 'error', code: 'unknown_crossref', entry: 'lost', value: 'nowhere' }),
    );
    expect(text(byKey(entries, 'found').fields.booktitle)).toBe('The Whole');
    expect(byKey(entries, 'found').fields.date).toBe('1999');
  });

  it('reports a URL that is no address as a warning: the entry is imported', () => {
    const { entries, messages } = importBibtex('@misc{dash, title = {T}, url = {-}}');
    expect(entries.map((e) => e.entry_key)).toEqual(['dash']);
    expect(messages).toEqual([
      { level: 'warning', code: 'unknown_uri', entry: 'dash', field: 'url', line: 1, value: '-' },
    ]);
  });

  it('reports an undefined @string macro with its entry and field', () => {
    const { messages } = importBibtex(
      '@book{first, title = {First}}\n@article{second, title = {Second}, journal = jgr # " Letters"}\n',
    );
    expect(messages).toContainEqual(
      expect.objectContaining({ code: 'undefined_variable', entry: 'second', field: 'journaltitle' }),
    );
  });

  it('drops the spaces after a command word as TeX does, unless {} ends it', () => {
    const { entries } = importBibtex(
      '@book{a, title = {The \\TeX book, \\TeX{} users, \\S 3 and $O(n \\log n)$ in \\mbox{one box}}}',
    );
    expect(text(entries[0].fields.title)).toBe('The TeXbook, TeX users, §3 and O(n log n) in one box');
  });
});

/** Biber's text of a field as we show it: braces gone, TeX's dashes and ties typeset. */
function biberText(value: string): string {
  return value
    .replace(/---/g, '—')
    .replace(/--/g, '–')
    .replace(/~/g, '\u00a0')
    .replace(/\\([&%$_#])/g, '$1')
    .replace(/[{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const COMPARED_FIELDS = [
  'title',
  'subtitle',
  'journaltitle',
  'booktitle',
  'publisher',
  'location',
  'institution',
  'series',
  'edition',
  'volume',
  'number',
  'issue',
  'type',
  'date',
];

/** Where our reading of a field differs from biber's (commands biber leaves to TeX are not compared). */
function differencesFromBiber(bib: string): string[] {
  const ours = new Map(importBibtex(bib).entries.map((entry) => [entry.entry_key, entry]));
  const differences: string[] = [];
  const theirs = biberReading(bib).filter((entry: BiberEntry) => !['set', 'xdata'].includes(entry.type));
  for (const entry of theirs) {
    const mine = ours.get(entry.key);
    if (!mine) {
      differences.push(`${entry.key}: missing`);
      continue;
    }
    if (mine.bib_type !== entry.type)
      differences.push(`${entry.key}: type ${mine.bib_type}, biber ${entry.type}`);
    for (const field of COMPARED_FIELDS) {
      const value = entry.fields[field];
      const mineValue = mine.fields[field];
      const shown =
        typeof mineValue === 'string'
          ? mineValue
          : Array.isArray(mineValue) && Array.isArray(mineValue[0])
            ? (mineValue as RichText[]).map(text).join(' and ')
            : text(mineValue ?? []);
      if (value === undefined) {
        if (shown !== '') differences.push(`${entry.key}.${field}: ${JSON.stringify(shown)}, not in biber`);
        continue;
      }
      if (value.startsWith('@') || /[\\$]/.test(value)) continue;
      if (biberText(value) !== shown.replace(/\s+/g, ' ').trim())
        differences.push(`${entry.key}.${field}: ${JSON.stringify(shown)}, biber ${JSON.stringify(value)}`);
    }
  }
  return differences;
}

describe.runIf(toolAvailable('biber'))('compared with biber', () => {
  it('reads the hand-made cases as biber does', () => {
    expect(differencesFromBiber(cases)).toEqual([]);
  }, 60_000);

  it("reads BibTeX's own example file (xampl.bib) as biber does, but for one cross reference", () => {
    // BibTeX compares keys without case and so do we; biber does not find "WHOLE-JOURNAL".
    expect(importBibtex(xampl).entries).toHaveLength(36);
    expect(differencesFromBiber(xampl)).toEqual([
      'article-crossref.journaltitle: "G-Animal\'s Journal", not in biber',
      'article-crossref.volume: "41", not in biber',
      'article-crossref.number: "7", not in biber',
      'article-crossref.date: "1986-07", not in biber',
    ]);
  }, 60_000);
});
