import { describe, expect, it } from 'vitest';
import { safeEntryKey, TakenEntryKeys } from './entry-key';
import type { RichText } from './types';
import { checkFieldValue, missingRequired, validateEntry } from './validate';

const text = (t: string): RichText => [{ type: 'text', text: t }];

describe('validateEntry against the converter model', () => {
  it('accepts a well-formed entry of every field kind', () => {
    expect(
      validateEntry({
        entry_key: 'doe2020',
        bib_type: 'article-journal',
        cats: [1, 2],
        fields: {
          title: [
            { type: 'text', text: 'Über', marks: [{ type: 'nocase' }] },
            { type: 'text', text: ' alles' },
          ],
          author: [
            { family: text('Doe'), given: text('Jane'), prefix: text('van'), useprefix: true },
            { literal: text('CERN') },
          ],
          date: '2020-05/2021',
          pages: [[text('1'), text('5')], [text('9')]],
          url: 'https://example.org/x?y=1',
          doi: '10.1000/x',
          langid: 'german',
          keywords: ['a', 'b'],
          language: ['english', text('Klingon')],
          publisher: [text('ACM')],
          edition: text('3'),
          type: text('custom thesis'),
        },
      }),
    ).toEqual([]);
  });

  it('names each field at fault', () => {
    const problems = validateEntry({
      entry_key: '',
      bib_type: 'nonsense',
      cats: [-1],
      fields: {
        date: 'soon',
        url: 'not a url',
        langid: 'klingon',
        title: 'plain string',
        author: [{ literal: text('X'), family: text('Y') }],
        colour: text('red'),
        pages: [[text('1'), text('2'), text('3')]],
        note: [{ type: 'text', text: 'x', marks: [{ type: 'blink' }] }],
      },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        { field: null, code: 'entry_key' },
        { field: null, code: 'bib_type' },
        { field: null, code: 'invalid_category' },
        { field: 'date', code: 'invalid_date' },
        { field: 'url', code: 'invalid_uri' },
        { field: 'langid', code: 'invalid_option' },
        { field: 'title', code: 'invalid_value' },
        { field: 'author', code: 'invalid_value' },
        { field: 'colour', code: 'unknown_field' },
        { field: 'pages', code: 'invalid_value' },
        { field: 'note', code: 'invalid_value' },
      ]),
    );
    expect(problems).toHaveLength(11);
  });

  it('limits sizes', () => {
    expect(checkFieldValue('abstract', text('x'.repeat(100_001)))).toBe('too_long');
  });

  it('explains missing required and either-or fields', () => {
    expect(missingRequired({ bib_type: 'article-journal', fields: { title: text('T') } }).required).toEqual([
      'journaltitle',
      'author',
      'date',
      'langid',
    ]);
  });
});

describe('entry keys', () => {
  it('are made safe for BibTeX and \\cite', () => {
    expect(safeEntryKey('Smith 2000, {x}')).toBe('Smith2000x');
    expect(safeEntryKey('   ')).toBe('entry');
    expect(safeEntryKey('Müller:2020-a')).toBe('Müller:2020-a');
  });

  it('are made unique, ignoring case', () => {
    const taken = new TakenEntryKeys(['doe2020']);
    expect(taken.claim('Doe2020')).toBe('Doe2020_2');
    expect(taken.claim('doe2020')).toBe('doe2020_3');
    expect(taken.claim('roe')).toBe('roe');
  });

  it('skip suffixes taken before, also after the search went on past them', () => {
    const taken = new TakenEntryKeys(['Doe2020', 'doe2020_2', 'DOE2020_4']);
    expect(taken.claim('Doe2020')).toBe('Doe2020_3');
    expect(taken.claim('Doe2020')).toBe('Doe2020_5');
    // A key that itself looks like a suffixed one is taken as it is, and later searches skip it.
    expect(taken.claim('Doe2020_6')).toBe('Doe2020_6');
    expect(taken.claim('Doe2020')).toBe('Doe2020_7');
    expect(taken.claim('Doe2020_6')).toBe('Doe2020_6_2');
  });

  it('give 20,000 works of one author in one year 20,000 different keys', () => {
    const taken = new TakenEntryKeys();
    const keys = Array.from({ length: 20_000 }, () => taken.claim('Doe2020'));
    expect(new Set(keys).size).toBe(20_000);
    expect(keys[0]).toBe('Doe2020');
    expect(keys[1]).toBe('Doe2020_2');
    expect(keys[19_999]).toBe('Doe2020_20000');
  });

  it('find each suffix in a few lookups, not by searching again from _2 (issue 50: 10,000 works stalled the server for 50 s)', () => {
    const taken = new TakenEntryKeys();
    const set = (taken as unknown as { taken: Set<string> }).taken;
    let lookups = 0;
    const has = set.has.bind(set);
    set.has = (key: string) => {
      lookups++;
      return has(key);
    };
    for (let index = 0; index < 20_000; index++) taken.claim('Doe2020');
    // Two lookups a claim (the key, then its next suffix); a search from _2 made 200 million.
    expect(lookups).toBeLessThanOrEqual(3 * 20_000);
  });
});
