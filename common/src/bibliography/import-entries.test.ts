import { describe, expect, it } from 'vitest';
import { explainEmptyImport, importBibliography } from './import-entries';
import { plainText } from './rich-text';
import type { RichText } from './types';

const keysAndTypes = (input: string) =>
  importBibliography(input).entries.map((entry) => [entry.entry_key, entry.bib_type]);

describe('CSL-JSON import', () => {
  it('imports a file in which one item has empty date-parts', () => {
    const report = importBibliography(
      JSON.stringify([
        { id: 'nodate', type: 'book', title: 'No date', issued: { 'date-parts': [] } },
        { id: 'emptyparts', type: 'book', title: 'Empty parts', issued: { 'date-parts': [[]] } },
        { id: 'raw', type: 'book', title: 'Raw date', issued: { raw: 'Spring 2019' } },
        { id: 'dated', type: 'book', title: 'Dated', issued: { 'date-parts': [[2000, 5]] } },
      ]),
    );
    expect(report.entries.map((entry) => [entry.entry_key, entry.fields.date ?? null])).toEqual([
      ['nodate', null],
      ['emptyparts', null],
      ['raw', '2019'],
      ['dated', '2000-05'],
    ]);
    expect(report.messages).toEqual([]);
  });

  it('imports video, speech, broadcast and untyped items as the nearest type, and says so', () => {
    const report = importBibliography(
      JSON.stringify([
        { id: 'v', type: 'video', title: 'A video' },
        { id: 's', type: 'speech', title: 'A talk' },
        { id: 'b', type: 'broadcast', title: 'A broadcast' },
        { id: 'n', title: 'No type' },
      ]),
    );
    expect(report.entries.map((entry) => [entry.entry_key, entry.bib_type])).toEqual([
      ['v', 'video'],
      ['s', 'unpublished'],
      ['b', 'video'],
      ['n', 'misc'],
    ]);
    expect(plainText(report.entries[3].fields.title as RichText)).toBe('No type');
    expect(report.messages).toEqual([
      { level: 'warning', code: 'csl_type_mapped', entry: 'v', value: 'video' },
      { level: 'warning', code: 'csl_type_mapped', entry: 's', value: 'speech' },
      { level: 'warning', code: 'csl_type_mapped', entry: 'b', value: 'broadcast' },
      { level: 'warning', code: 'csl_type_missing', entry: 'n' },
    ]);
  });

  it('skips an unreadable item with an error and keeps the others', () => {
    const report = importBibliography(
      JSON.stringify([
        { id: 'bad', type: 'book', author: 'not a list of names' },
        { id: 'good', type: 'book', title: 'Fine' },
      ]),
    );
    expect(report.entries.map((entry) => entry.entry_key)).toEqual(['good']);
    expect(report.messages).toEqual([{ level: 'error', code: 'invalid_csl_item', entry: 'bad' }]);
  });
});

describe('EndNote import', () => {
  it('reads a file whose first record does not start with %0', () => {
    expect(
      keysAndTypes(
        '%A Doe, Jane\n%T A title\n%0 Journal Article\n%D 2000\n\n%0 Book\n%A Roe, R.\n%T B\n%D 2001\n',
      ),
    ).toEqual([
      ['Doe2000', 'article-journal'],
      ['Roe2001', 'book'],
    ]);
  });

  it('imports a record without a %0 line as misc, reported with its line', () => {
    const report = importBibliography(
      '%T Typed\n%0 Book\n%A Roe, R.\n%D 1999\n\n%T Untyped\n%A Doe, Jane\n%D 2000\n',
    );
    expect(report.format).toBe('enw');
    expect(
      report.entries.map((entry) => [plainText(entry.fields.title as RichText), entry.bib_type]),
    ).toEqual([
      ['Typed', 'book'],
      ['Untyped', 'misc'],
    ]);
    expect(report.messages).toEqual([{ level: 'warning', code: 'enw_type_missing', entry: null, line: 6 }]);
  });
});

describe('a file that gives nothing', () => {
  it('says so first, whatever the format', () => {
    for (const input of ['', '% only a comment\n', 'hello world', '@string{a = "b"}', '[]']) {
      expect(importBibliography(input).messages[0], input).toEqual({
        level: 'error',
        code: 'nothing_found',
        entry: null,
      });
    }
  });

  it('is not said of a file with entries, nor of a merged file whose parts had none', () => {
    expect(importBibliography('@misc{a, title = {T}}').messages).toEqual([]);
    const merged = explainEmptyImport({
      format: 'biblatex',
      entries: [{ entry_key: 'a', bib_type: 'misc', fields: {}, cats: [] }],
      messages: [{ level: 'error', code: 'nothing_found', entry: null }],
    });
    expect(merged.messages).toEqual([]);
  });
});
