import { describe, expect, it } from 'vitest';
import { exportBibtex } from './export';
import { importBibtex } from './import-bibtex';
import type { EntryData, RichText } from './types';

const plain = (text: unknown) => (text as RichText).map((n) => (n.type === 'text' ? n.text : '')).join('');
const withIds = (entries: EntryData[]) => entries.map((entry, index) => ({ ...entry, id: index + 1 }));

const SOURCE = String.raw`
@article{vonneumann1928,
  author = {von Neumann, John and {Institute for Advanced Study}},
  title = {Zur Theorie der \emph{Gesellschaftsspiele} and \enquote{Strategies}},
  journaltitle = {Mathematische Annalen}, date = {1928-12}, volume = {100}, pages = {295--320}
}
@thesis{shannon1940, author = {Shannon, Claude E.}, title = {An Algebra for Theoretical Genetics},
  institution = {Massachusetts Institute of Technology}, type = {phdthesis}, date = {1940}, location = {Cambridge, MA}}
@report{who2020, author = {{World Health Organization}}, title = {Situation report 51}, institution = {WHO}, date = {2020-03-11}}
@online{web2021, author = {Doe, Jane}, title = {A web page}, url = {https://example.org/page}, date = {2021/2022}}
`;

describe('classic BibTeX export (natbib, .bst styles)', () => {
  const { entries } = importBibtex(SOURCE);
  const bib = exportBibtex(withIds(entries));

  it('writes BibTeX types, year and month, journal, address and school', () => {
    expect(bib).toContain('@article{vonneumann1928,');
    expect(bib).toContain('journal = {Mathematische Annalen}');
    expect(bib).toContain('year = {1928}');
    expect(bib).toMatch(/^month = dec,$/m);
    expect(bib).not.toMatch(/^(date|journaltitle|location|entrysubtype) = /m);
    expect(bib).toContain('@phdthesis{shannon1940,');
    expect(bib).toContain('school = {Massachusetts Institute of Technology}');
    expect(bib).toContain('address = {Cambridge, MA}');
    expect(bib).not.toMatch(/^type = \{phdthesis\}/m);
    expect(bib).toContain('@techreport{who2020,');
    expect(bib).toContain('@misc{web2021,');
    expect(bib).toContain('year = {2021--2022}');
  });

  it('writes names as "Family, Given" and markup that plain LaTeX knows', () => {
    expect(bib).toContain('author = {{von Neumann}, {John} and {Institute for Advanced Study}}');
    expect(bib).toContain('\\emph{Gesellschaftsspiele}');
    expect(bib).toContain("``Strategies''");
    expect(bib).not.toContain('\\mkbib');
    expect(bib).not.toContain('\\enquote');
  });

  it('reads back as the same references', () => {
    const again = importBibtex(bib).entries;
    expect(again.map((e) => e.entry_key)).toEqual(entries.map((e) => e.entry_key));
    const article = again[0];
    expect(plain(article.fields.journaltitle)).toBe('Mathematische Annalen');
    expect(article.fields.date).toBe('1928-12');
    expect(article.fields.title).toEqual(entries[0].fields.title);
    expect(article.fields.author).toEqual(entries[0].fields.author);
  });
});
