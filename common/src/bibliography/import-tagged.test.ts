import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportBiblatex } from './export';
import { importBibliography } from './import-entries';
import type { EntryData, NameValue, RichText } from './types';
import { validateEntry } from './validate';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const plain = (text: unknown) => (text as RichText).map((n) => (n.type === 'text' ? n.text : '')).join('');
const names = (value: unknown) =>
  (value as NameValue[]).map((n) =>
    n.literal ? `{${plain(n.literal)}}` : [plain(n.given), plain(n.family)].join(' '),
  );
const byKey = (entries: EntryData[], key: string) => {
  const entry = entries.find((e) => e.entry_key === key);
  if (!entry) throw new Error(`no entry ${key} in ${entries.map((e) => e.entry_key)}`);
  return entry;
};
const pages = (entry: EntryData) =>
  (entry.fields.pages as RichText[][]).map((range) => range.map(plain).join('–')).join(', ');

describe('RIS import (Zotero, Web of Science, publishers)', () => {
  const report = importBibliography(fixture('real-world.ris'));

  it('is recognised by its content and every record is valid entry data', () => {
    expect(report.format).toBe('ris');
    expect(report.entries).toHaveLength(5);
    for (const entry of report.entries) expect(validateEntry(entry)).toEqual([]);
  });

  it('reads a journal article with its page range, RIS date, keywords and DOI', () => {
    const article = byKey(report.entries, 'Hochreiter1997');
    expect(article.bib_type).toBe('article-journal');
    expect(plain(article.fields.title)).toBe('Long Short-Term Memory');
    expect(names(article.fields.author)).toEqual(['Sepp Hochreiter', 'Jürgen Schmidhuber']);
    expect(article.fields.date).toBe('1997-11-15');
    expect(pages(article)).toBe('1735–1780');
    expect(article.fields.keywords).toEqual(['recurrent networks', 'memory']);
    expect(article.fields.doi).toBe('10.1162/neco.1997.9.8.1735');
  });

  it('keeps name particles with the family name and organisations whole', () => {
    expect(names(byKey(report.entries, 'vanderWaals1988').fields.author)).toEqual([
      'Johannes Diderik van der Waals',
    ]);
    expect(names(byKey(report.entries, 'WorldHealthOrganization2020').fields.author)).toEqual([
      '{World Health Organization}',
    ]);
  });

  it('reports what it could not take over, naming the entry', () => {
    expect(report.messages).toContainEqual(
      expect.objectContaining({ level: 'warning', code: 'unknown_tag', entry: 'Lovelace1843', field: 'ED' }),
    );
    const broken = report.entries.find((e) =>
      plain(e.fields.title).startsWith('A record with a broken date'),
    );
    expect(broken?.fields.date).toBeUndefined();
    expect(report.messages).toContainEqual(
      expect.objectContaining({ level: 'warning', code: 'invalid_date', entry: broken?.entry_key }),
    );
  });

  it('exports what it imported as BibTeX', () => {
    const bib = exportBiblatex(report.entries.map((entry, index) => ({ ...entry, id: index + 1 })));
    expect(bib).toContain('pages = {1735--1780}');
    expect(bib).toContain('author = {{World Health Organization}}');
  });
});

describe('EndNote (.enw) and PubMed (.nbib) import', () => {
  it('reads EndNote tagged records', () => {
    const report = importBibliography(fixture('real-world.enw'));
    expect(report.format).toBe('enw');
    expect(report.entries.map((e) => e.entry_key)).toEqual(['Shannon1948', 'Knuth1984', 'Vaswani2017']);
    const shannon = byKey(report.entries, 'Shannon1948');
    expect(pages(shannon)).toBe('379–423');
    expect(names(shannon.fields.author)).toEqual(['Claude E. Shannon']);
    expect((byKey(report.entries, 'Knuth1984').fields.publisher as RichText[]).map(plain)).toEqual([
      'Addison-Wesley',
    ]);
    for (const entry of report.entries) expect(validateEntry(entry)).toEqual([]);
  });

  it('reads PubMed records, expanding abbreviated end pages', () => {
    const report = importBibliography(fixture('real-world.nbib'));
    expect(report.format).toBe('nbib');
    const [covid, lstm] = report.entries;
    expect(covid.fields.date).toBe('2020-03');
    expect(covid.fields.doi).toBe('10.1056/NEJMoa2002032');
    expect(names(covid.fields.author)).toEqual(['Wei-Jie Guan', 'Zheng-Yi Ni']);
    expect(pages(lstm)).toBe('1735–1780');
    for (const entry of report.entries) expect(validateEntry(entry)).toEqual([]);
  });
});

describe('format detection', () => {
  it('names a known format it cannot read instead of misreading it', () => {
    const report = importBibliography('<?xml version="1.0"?><xml><records><record></record></records></xml>');
    expect(report.format).toBeNull();
    expect(report.entries).toEqual([]);
    expect(report.messages).toEqual([
      expect.objectContaining({ level: 'error', code: 'unsupported_format', value: 'endnote_xml' }),
    ]);
  });

  it('sends text it does not recognise to the BibTeX reader', () => {
    expect(importBibliography('no references here').format).toBe('biblatex');
    expect(importBibliography('{broken').format).toBe('csl_json');
  });
});
