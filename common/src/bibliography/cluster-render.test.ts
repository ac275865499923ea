import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CslJson } from './citation-render';
import { renderDocumentCitations } from './cluster-render';
import { type CompactNode, expandNode } from './csl-compact';
import { importBibtex } from './import-bibtex';
import type { EntryData } from './types';

// The static assets the browser fetches (web/public/csl), read straight from disk here.
const asset = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../web/public/csl/${name}.json`, import.meta.url), 'utf8'),
  ) as CslJson;
const locales = { 'en-US': asset('locale-data/en-US'), 'de-DE': asset('locale-data/de-DE') };
const styleOf = (style: string) => expandNode(asset(`styles/${style}`) as unknown as CompactNode) as CslJson;

/** The document's citations in a CSL style and language, with the test locales, as text. */
function render(
  style: string,
  language: string,
  library: Map<string, EntryData>,
  clusters: Parameters<typeof renderDocumentCitations>[4],
  cache?: Parameters<typeof renderDocumentCitations>[6],
) {
  return renderDocumentCitations(styleOf(style), locales, language, library, clusters, 'text', cache);
}

const bib = String.raw`
@article{lecun1998,
  author = {LeCun, Yann and Bottou, L{\'e}on},
  title = {Gradient-Based Learning Applied to Document Recognition},
  journal = {Proceedings of the IEEE}, year = {1998}, volume = {86}, pages = {2278--2324}
}
@book{knuth1984, author = {Donald E. Knuth}, title = {The {\TeX}book}, publisher = {Addison-Wesley}, year = 1984}
`;
const parsed = importBibtex(bib).entries;
// Document keys are <owner>-<entry>, not the BibTeX keys.
const entries = new Map<string, EntryData>([
  ['7-1', parsed[0]],
  ['7-2', parsed[1]],
]);
const both = { format: 'autocite' as const, references: [{ id: '7-1' }, { id: '7-2' }] };

describe('document citations', () => {
  it('renders author-date clusters, text citations, locators and the bibliography in English', () => {
    const result = render('apa', 'en-US', entries, [
      both,
      { format: 'textcite', references: [{ id: '7-2', prefix: 'see', locator: '12' }] },
    ]);
    expect(result.styleClass).toBe('in-text');
    expect(result.citations[0]).toBe('(Knuth, 1984; LeCun & Bottou, 1998)');
    expect(result.citations[1]).toBe('see Knuth (1984, p. 12)');
    expect(result.bibliography).toHaveLength(2);
    expect(result.bibliography[0]).toMatch(/^Knuth, D\. E\. \(1984\)\. The TeXbook/);
  });

  it('renders in German and a numeric style, and leaves a citation of an unknown entry empty', () => {
    const german = render('apa', 'de-DE', entries, [
      both,
      { format: 'autocite', references: [{ id: '7-2', locator: '12' }] },
    ]);
    expect(german.citations).toEqual(['(Knuth, 1984; LeCun & Bottou, 1998)', '(Knuth, 1984, S. 12)']);
    const ieee = render('ieee', 'en-US', entries, [
      { format: 'autocite', references: [{ id: '7-2' }] },
      both,
      { format: 'autocite', references: [{ id: 'gone' }] },
    ]);
    expect(ieee.citations).toEqual(['[1]', '[1], [2]', '']);
  });

  it('renders a text citation in a numeric style as the authors and the number, never as a form citeproc cannot print', () => {
    // IEEE's citations name no author: a text citation names them from the entry, as pandoc
    // does ("LeCun and Bottou [1] show"), so that the sentence keeps its subject.
    const ieee = renderDocumentCitations(
      styleOf('ieee'),
      locales,
      'en-US',
      entries,
      [
        { format: 'autocite', references: [{ id: '7-1' }] },
        { format: 'textcite', references: [{ id: '7-2', locator: '12' }] },
        { format: 'textcite', references: [{ id: '7-1', prefix: 'see' }] },
      ],
      'text',
    );
    expect(ieee.citations).toEqual(['[1]', 'Knuth [2, p. 12]', 'see LeCun and Bottou [1]']);
    expect(ieee.authors).toEqual(['', '', '']);
    expect(ieee.layout).toEqual({
      hangingIndent: false,
      secondFieldAlign: 'flush',
      lineSpacing: 1,
      entrySpacing: 0,
      maxOffset: 3,
    });
  });

  it("numbers note-style citations with the footnotes, and names a text citation's authors in the text", () => {
    const result = render('chicago-note-bibliography', 'en-US', entries, [
      // Note 1, then a footnote (2) citing inside it, then a footnote (3), then note 4.
      { format: 'textcite', references: [{ id: '7-1', prefix: 'see' }] },
      { format: 'autocite', references: [{ id: '7-2' }], footnotes: 1, inFootnote: true },
      { format: 'autocite', references: [{ id: '7-1' }], footnotes: 2 },
    ]);
    // The note keeps the whole citation; the prefix and the authors stand in the text.
    expect(result.citations).toEqual([
      'LeCun and Bottou, “Gradient-Based Learning Applied to Document Recognition.”',
      'Knuth, The TeXBook.',
      'LeCun and Bottou, “Gradient-Based Learning Applied to Document Recognition.”',
    ]);
    expect(result.authors).toEqual(['see LeCun and Bottou', '', '']);
    expect(result.layout.hangingIndent).toBe(true);
  });

  it('renders note-style citations as notes in two languages', () => {
    const one = { format: 'autocite' as const, references: [{ id: '7-2', locator: '3' }] };
    const english = render('chicago-note-bibliography', 'en-US', entries, [one, one]);
    expect(english.styleClass).toBe('note');
    expect(english.citations[0]).toBe('Knuth, The TeXBook, 3.');
    // Chicago 17 shortens a repeated note instead of "Ibid.".
    expect(english.citations[1]).toBe('Knuth, 3.');
    const german = render('chicago-note-bibliography', 'de-DE', entries, [one, both]);
    expect(german.styleClass).toBe('note');
    expect(german.bibliography[0]).toContain('Knuth, Donald E. The TeXbook. Addison-Wesley, 1984.');
    expect(german.bibliography[1]).toContain('LeCun, Yann, und Léon Bottou. „Gradient-based learning');
  });
});

describe('an engine kept between renders', () => {
  it('takes in new entries and citations, and starts afresh when an entry or the style changes', () => {
    const cache: Parameters<typeof renderDocumentCitations>[6] & object = { key: 'apa' };
    const first = render(
      'apa',
      'en-US',
      new Map([['7-2', parsed[1]]]),
      [{ format: 'autocite', references: [{ id: '7-2' }] }],
      cache,
    );
    expect(first.citations).toEqual(['(Knuth, 1984)']);
    const engine = cache.current?.engine;
    const second = render('apa', 'en-US', entries, [both], cache);
    expect(cache.current?.engine).toBe(engine);
    expect(second.citations).toEqual(['(Knuth, 1984; LeCun & Bottou, 1998)']);
    expect(second.bibliography).toHaveLength(2);
    // Each entry is converted to CSL once while it stays the same.
    const knuth = cache.items?.get('7-2')?.item;
    expect(knuth?.id).toBe('7-2');
    render('apa', 'en-US', entries, [both], cache);
    expect(cache.items?.get('7-2')?.item).toBe(knuth);
    // An entry dropped from the document is no longer cited.
    const third = render('apa', 'en-US', new Map([['7-1', parsed[0]]]), [both], cache);
    expect(third.citations).toEqual(['(LeCun & Bottou, 1998)']);
    expect(third.bibliography).toHaveLength(1);
    // The owner's edit of an entry (update from library) makes a new engine.
    const edited = { ...parsed[1], fields: { ...parsed[1].fields, date: '1986' } };
    const fourth = render(
      'apa',
      'en-US',
      new Map([['7-2', edited]]),
      [{ format: 'autocite', references: [{ id: '7-2' }] }],
      cache,
    );
    expect(cache.current?.engine).not.toBe(engine);
    expect(fourth.citations).toEqual(['(Knuth, 1986)']);
    expect(cache.items?.get('7-2')?.item).not.toBe(knuth);
    expect([...(cache.items?.keys() ?? [])]).toEqual(['7-2']);
    cache.key = 'ieee';
    const numeric = render('ieee', 'en-US', entries, [both], cache);
    expect(numeric.citations).toEqual(['[1], [2]']);
  });
});

describe('renders again only what changed', () => {
  const smith = (title: string, year: string): EntryData => ({
    entry_key: title,
    bib_type: 'book',
    fields: {
      author: [{ family: [{ type: 'text', text: 'Smith' }], given: [{ type: 'text', text: 'Anna' }] }],
      title: [{ type: 'text', text: title }],
      date: year,
    } as unknown as EntryData['fields'],
    cats: [],
  });
  const cite = (id: string) => ({ format: 'autocite' as const, references: [{ id }] });

  it('shows a newly cited entry in the bibliography, and re-formats texts the new entry disambiguates', () => {
    const cache: { current?: import('./cluster-render').EngineCache; key: string } = { key: 'apa' };
    const library = new Map([
      ['9-1', smith('Alpha', '2020')],
      ['9-2', parsed[1]],
    ]);
    const first = render('apa', 'en-US', library, [cite('9-1'), cite('9-2'), cite('9-1')], cache);
    expect(first.citations).toEqual(['(Smith, 2020)', '(Knuth, 1984)', '(Smith, 2020)']);
    expect(first.bibliography).toHaveLength(2);
    // A second Smith 2020 is cited: both become 2020a/2020b, the new one is listed, Knuth stays.
    library.set('9-3', smith('Beta', '2020'));
    const second = render(
      'apa',
      'en-US',
      library,
      [cite('9-1'), cite('9-2'), cite('9-3'), cite('9-1')],
      cache,
    );
    expect(second.citations).toEqual(['(Smith, 2020a)', '(Knuth, 1984)', '(Smith, 2020b)', '(Smith, 2020a)']);
    expect(second.bibliography).toHaveLength(3);
    expect(second.bibliography[1]).toMatch(/^Smith, A\. \(2020a\)\. Alpha/);
    expect(second.bibliography[2]).toMatch(/^Smith, A\. \(2020b\)\. Beta/);
    // Citing it no more takes it out and undoes the suffixes.
    const third = render('apa', 'en-US', library, [cite('9-1'), cite('9-2')], cache);
    expect(third.citations).toEqual(['(Smith, 2020)', '(Knuth, 1984)']);
    expect(third.bibliography).toHaveLength(2);
    expect(third.bibliography[1]).toMatch(/^Smith, A\. \(2020\)\. Alpha/);
  });

  it('renumbers citations and entries of a numeric style when an earlier citation is added', () => {
    const cache: { current?: import('./cluster-render').EngineCache; key: string } = { key: 'ieee' };
    const first = render('ieee', 'en-US', entries, [cite('7-1')], cache);
    expect(first.citations).toEqual(['[1]']);
    const second = render('ieee', 'en-US', entries, [cite('7-2'), cite('7-1')], cache);
    expect(second.citations).toEqual(['[1]', '[2]']);
    expect(second.bibliography[0]).toMatch(/^\[1\]\s*D\. E\. Knuth/);
    expect(second.bibliography[1]).toMatch(/^\[2\]\s*Y\. LeCun/);
  });
});
