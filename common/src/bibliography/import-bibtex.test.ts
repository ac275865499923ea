import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportBiblatex, exportCslItems, exportCslJson } from './export';
import { importBibtex, importCslJson } from './import-bibtex';
import { importBibliography } from './import-entries';
import type { EntryData, NameValue, RichText } from './types';
import { validateEntry } from './validate';

const hard = readFileSync(new URL('./fixtures/hard-cases.bib', import.meta.url), 'utf8');
const plain = (text: unknown) => (text as RichText).map((n) => (n.type === 'text' ? n.text : '')).join('');
const byKey = (entries: EntryData[], key: string) => {
  const entry = entries.find((e) => e.entry_key === key);
  if (!entry) throw new Error(`no entry ${key}`);
  return entry;
};

describe('importBibtex on a real-world library', () => {
  const { entries, messages } = importBibtex(hard);

  it('imports every good entry, also those after a broken one', () => {
    expect(entries.map((e) => e.entry_key).sort()).toEqual(
      [
        'after_broken',
        'brokenfield',
        'goedel1931',
        'knuth1984',
        'lecun1998',
        'mooreschool',
        'unicode2021',
        'unknownfield',
        'vonneumann1945',
        'who2020',
      ].sort(),
    );
    for (const entry of entries) expect(validateEntry(entry)).toEqual([]);
  });

  it('reports the unclosed entry with its key and line', () => {
    const error = messages.find((m) => m.code === 'unclosed_entry');
    expect(error).toMatchObject({ level: 'error', entry: 'unclosed2019' });
    expect(hard.split('\n')[(error?.line ?? 0) - 1]).toContain('@thesis{unclosed2019');
  });

  it('reports a bad date and an unknown field with their entries, keeping the rest', () => {
    expect(messages).toContainEqual(
      expect.objectContaining({ level: 'error', code: 'invalid_date', entry: 'brokenfield', field: 'date' }),
    );
    expect(byKey(entries, 'brokenfield').fields.date).toBeUndefined();
    expect(plain(byKey(entries, 'brokenfield').fields.title)).toBe('An entry with a bad date');
    expect(messages).toContainEqual(
      expect.objectContaining({ code: 'field_not_imported', entry: 'unknownfield', field: 'mendeley-tags' }),
    );
  });

  it('resolves @string macros and concatenation', () => {
    expect(plain(byKey(entries, 'lecun1998').fields.journaltitle)).toBe(
      'IEEE Transactions on Pattern Analysis and Machine Intelligence (special issue)',
    );
    // The file redefines `jan` as "January", which is no month number: reported, the year kept.
    expect(messages).toContainEqual(expect.objectContaining({ code: 'invalid_month', entry: 'goedel1931' }));
    expect(byKey(entries, 'goedel1931').fields.date).toBe('1931');
  });

  it('converts LaTeX accents and commands, keeps case protection and formatting', () => {
    const lecun = byKey(entries, 'lecun1998');
    expect(plain((lecun.fields.author as NameValue[])[1].given)).toBe('Léon');
    const title = lecun.fields.title as RichText;
    expect(title.find((n) => n.type === 'text' && n.text === 'Document Recognition')).toMatchObject({
      marks: [{ type: 'nocase' }],
    });
    const goedel = byKey(entries, 'goedel1931');
    expect(plain(goedel.fields.title)).toBe(
      'Über formal unentscheidbare Sätze der Principia Mathematica und verwandter Systeme I',
    );
    expect(goedel.fields.langid).toBe('german');
    const vn = byKey(entries, 'vonneumann1945').fields.title as RichText;
    expect(vn).toContainEqual({ type: 'text', text: 'emphasis', marks: [{ type: 'em' }] });
    expect(vn).toContainEqual({ type: 'text', text: 'bold', marks: [{ type: 'strong' }] });
  });

  it('turns math in titles into text', () => {
    expect(plain(byKey(entries, 'vonneumann1945').fields.title)).toContain('E=mc');
  });

  it('reads name particles, suffixes and corporate authors', () => {
    const names = byKey(entries, 'vonneumann1945').fields.author as NameValue[];
    expect(plain(names[0].prefix)).toBe('von');
    expect(plain(names[0].family)).toBe('Neumann');
    expect(plain(names[1].prefix)).toBe('van');
    expect(plain(names[3].family)).toBe('Smith');
    expect(plain(names[3].suffix)).toBe('Jr.');
    expect(plain(names[3].given)).toBe('John');
    const who = byKey(entries, 'who2020').fields.author as NameValue[];
    expect(who).toHaveLength(1);
    expect(plain(who[0].literal)).toBe('World Health Organization');
  });

  it('reads date ranges, page ranges and crossref inheritance', () => {
    const vn = byKey(entries, 'vonneumann1945');
    expect(vn.fields.date).toBe('1945-06-30/1945-07-02');
    expect(plain((vn.fields.publisher as RichText[])[0])).toBe('MIT Press');
    expect(plain((vn.fields.editor as NameValue[])[0].family)).toBe('Stern');
    const pages = byKey(entries, 'lecun1998').fields.pages as RichText[][];
    expect(pages[0].map(plain)).toEqual(['2278', '2324']);
  });

  it('keeps Unicode and nested braces', () => {
    const entry = byKey(entries, 'unicode2021');
    expect(plain(entry.fields.title)).toBe('Ünïcödé «quotes» and 日本語 — dashes');
    const names = entry.fields.author as NameValue[];
    expect(names.map((n) => plain(n.family ?? n.literal))).toEqual(['Martínez-Núñez', '王小明', 'Ørsted']);
    expect(plain(entry.fields.note)).toBe('Nested braces within braces stay');
    expect(entry.fields.keywords).toEqual(['unicode', 'names', 'scripts']);
  });
});

describe('round trip', () => {
  it('import -> export BibTeX -> import gives the same entries', () => {
    const first = importBibtex(hard).entries;
    const second = importBibtex(exportBiblatex(first));
    expect(second.messages.filter((m) => m.level === 'error')).toEqual([]);
    expect(second.entries).toEqual(first);
  });

  it('import -> export CSL-JSON -> import keeps key, type, names and title', () => {
    const first = importBibtex(hard).entries;
    const again = importCslJson(exportCslJson(first)).entries;
    expect(again.map((e) => e.entry_key)).toEqual(first.map((e) => e.entry_key));
    const lecun = byKey(again, 'lecun1998');
    expect((lecun.fields.author as NameValue[]).map((n) => plain(n.family))).toEqual([
      'LeCun',
      'Bottou',
      'Bengio',
      'Haffner',
    ]);
  });

  it('a CSL-JSON nocase or small-caps span ends where its </span> stands', () => {
    const [entry] = importCslJson(
      JSON.stringify([
        {
          id: 'a',
          type: 'article-journal',
          title:
            'On <span class="nocase">DNA</span> in <span style="font-variant:small-caps;">Escherichia <span class="nocase">coli</span> K</span>-12 <i>in vivo</i>',
        },
      ]),
    ).entries;
    expect(entry.fields.title).toEqual([
      { type: 'text', text: 'On ' },
      { type: 'text', text: 'DNA', marks: [{ type: 'nocase' }] },
      { type: 'text', text: ' in ' },
      { type: 'text', text: 'Escherichia ', marks: [{ type: 'smallcaps' }] },
      { type: 'text', text: 'coli', marks: [{ type: 'smallcaps' }, { type: 'nocase' }] },
      { type: 'text', text: ' K', marks: [{ type: 'smallcaps' }] },
      { type: 'text', text: '-12 ' },
      { type: 'text', text: 'in vivo', marks: [{ type: 'em' }] },
    ]);
  });

  it('picks the reader by content', () => {
    expect(importBibliography('[{"id":"a","type":"book","title":"T"}]').entries[0]).toMatchObject({
      entry_key: 'a',
      bib_type: 'book',
    });
    expect(importBibliography('@book{b, title={T}}').entries[0].entry_key).toBe('b');
    expect(importBibliography('{not json').messages.map((m) => m.code)).toEqual([
      'nothing_found',
      'invalid_json',
    ]);
  });
});

describe('CSL export', () => {
  it('makes journal articles article-journal and their number the issue', () => {
    const items = exportCslItems(importBibtex(hard).entries);
    const lecun = items.find((i) => i.id === 'lecun1998');
    expect(lecun).toMatchObject({
      type: 'article-journal',
      issue: '11',
      volume: '86',
      DOI: '10.1109/5.726791',
    });
    expect(lecun?.['container-title']).toContain('IEEE Transactions');
  });
});

describe('parallel parse of large files', () => {
  it('splits at entries, repeats @string macros, and merges to the same result', async () => {
    const { splitForParallelParse, mergeParts } = await import('./import-bibtex');
    const body = Array.from(
      { length: 3000 },
      (_, i) =>
        `@article{k${i},\n  author = {Doe, Jane},\n  title = {Title ${i} with \\emph{x}},\n  journal = jn,\n  year = {2000}\n}\n`,
    ).join('\n');
    const text = `@string{jn = {Journal of Nothing}}\n${body}@book{broken, title = {never closes\n`;
    const parts = splitForParallelParse(text, 3);
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part.text.startsWith('@string{jn = {Journal of Nothing}}')).toBe(true);
    const whole = importBibtex(text);
    const merged = mergeParts(
      parts.map((p) => importBibtex(p.text)),
      parts,
    );
    expect(merged.entries).toEqual(whole.entries);
    expect(merged.messages).toEqual(whole.messages);
    expect(whole.messages[0]).toMatchObject({ code: 'unclosed_entry', entry: 'broken' });
  });

  it('keeps files with crossref whole', async () => {
    const { splitForParallelParse } = await import('./import-bibtex');
    const text = `${'@misc{a, title={x}}\n'.repeat(20000)}@inbook{b, crossref={a}}\n`;
    expect(splitForParallelParse(text, 4)).toHaveLength(1);
  });
});
