import { describe, expect, it } from 'vitest';
import { CiteIndex, foldText, queryWords } from './cite-search';
import type { BibEntry } from './types';

const text = (value: string) => [{ type: 'text' as const, text: value }];
function entry(id: number, key: string, family: string, title: string, date: string): BibEntry {
  return {
    id,
    entry_key: key,
    bib_type: 'article',
    fields: { author: [{ family: text(family), given: text('A.') }], title: text(title), date },
    cats: [],
  } as unknown as BibEntry;
}

const library = [
  entry(1, 'vasmith1999', 'Vasmith', 'Rivers of ink', '1999'),
  entry(2, 'smith2020', 'Smith', 'Ink on paper', '2020'),
  entry(3, 'doe2019', 'Doe', 'Quills', '2019-05'),
  entry(4, 'mueller2001', 'Müller-Lüdenscheidt', 'Über Tinte', '2001'),
  {
    id: 5,
    entry_key: 'anon',
    bib_type: 'book',
    fields: { editor: [{ literal: text('World Health Organization') }], title: text('Report') },
    cats: [],
  } as unknown as BibEntry,
];

const keys = (found: { entry: BibEntry }[]) => found.map((candidate) => candidate.entry.entry_key);

describe('CiteIndex', () => {
  const index = new CiteIndex(library);

  it('shows author, year and title of each entry', () => {
    expect(index.search('doe')).toEqual([
      { entry: library[2], authors: 'Doe', year: '2019', title: 'Quills' },
    ]);
    expect(index.search('world')[0]).toMatchObject({ authors: 'World Health Organization', year: '' });
  });

  it('matches author names, years, title words and keys; every word must match', () => {
    expect(keys(index.search('2019'))).toEqual(['doe2019']);
    expect(keys(index.search('quil'))).toEqual(['doe2019']);
    expect(keys(index.search('anon'))).toEqual(['anon']);
    expect(keys(index.search('ink 2020'))).toEqual(['smith2020']);
    expect(keys(index.search('ink 2021'))).toEqual([]);
  });

  it('puts matches at the start of a word before matches inside one', () => {
    expect(keys(index.search('smi'))).toEqual(['smith2020', 'vasmith1999']);
  });

  it('ignores case, accents and punctuation', () => {
    expect(keys(index.search('MULLER'))).toEqual(['mueller2001']);
    expect(keys(index.search('lüdensch'))).toEqual(['mueller2001']);
    expect(keys(index.search('uber tinte'))).toEqual(['mueller2001']);
  });

  it('gives the first entries for an empty query, and at most `limit`', () => {
    expect(keys(index.search(''))).toHaveLength(5);
    expect(keys(index.search('', 2))).toEqual(['vasmith1999', 'smith2020']);
    const many = new CiteIndex(
      Array.from({ length: 50 }, (_, i) => entry(i, `k${i}`, 'Smith', `T${i}`, '2000')),
    );
    expect(many.search('smith')).toHaveLength(10);
    expect(many.size).toBe(50);
  });

  it('a new copy of the library reuses the texts of the entries that did not change', () => {
    const changed = [...library.slice(0, 4), entry(5, 'anon', 'Nobody', 'Report', '2003')];
    const next = new CiteIndex(changed, index);
    expect(keys(next.search('nobody 2003'))).toEqual(['anon']);
    expect(keys(next.search('world'))).toEqual([]);
    expect(keys(next.search('smi'))).toEqual(['smith2020', 'vasmith1999']);
  });

  it('folds queries as it folds the entries', () => {
    expect(foldText('Müller-Lüdenscheidt, É.')).toBe('muller ludenscheidt e ');
    expect(queryWords('  Smith;2020 ')).toEqual(['smith', '2020']);
  });
});
