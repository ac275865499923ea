import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { EditorState } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import type { CslJson } from '../bibliography/citation-render';
import { type CompactNode, expandNode } from '../bibliography/csl-compact';
import { importBibtex } from '../bibliography/import-bibtex';
import { BIBLIOGRAPHY_LAYOUT_CSS, splitLabel } from '../bibliography/layout';
import type { EntryData } from '../bibliography/types';
import { addToBibliography } from '../editor/academic-commands';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { descendants, parseXml, type XmlElement } from '../import/xml';
import { exportDocx } from './docx';
import { exportCss, exportHtml } from './html';
import { type ExportInput, prepareDocument } from './model';
import { exportOdt } from './odt';

/**
 * Issue 53: every citation style laid out as it asks, in every export. One fixed document (text
 * and author-date citations, a citation inside a footnote, footnotes before and after citations)
 * rendered in the common styles; the tests compare structure, not whole strings.
 */

const asset = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../web/public/csl/${name}.json`, import.meta.url), 'utf8'));
const locales = { 'en-US': asset('locale-data/en-US') as CslJson };
const csl = (name: string): ExportInput['csl'] => ({
  name,
  style: expandNode(asset(`styles/${name}`) as CompactNode) as unknown as CslJson,
  locales,
  locale: 'en-US',
});

const bib = String.raw`
@article{lecun1998, author = {LeCun, Yann and Bottou, L{\'e}on}, title = {Gradient-Based Learning Applied to Document Recognition}, journal = {Proceedings of the IEEE}, year = {1998}, volume = {86}, pages = {2278--2324}}
@book{knuth1984, author = {Knuth, Donald E.}, title = {The {\TeX}book}, publisher = {Addison-Wesley}, address = {Reading, MA}, year = 1984}
@inproceedings{vaswani2017, author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki}, title = {Attention Is All You Need}, booktitle = {Advances in Neural Information Processing Systems}, year = {2017}, pages = {5998--6008}}
@article{hopper1952, author = {Hopper, Grace M.}, title = {The Education of a Computer}, journal = {Proceedings of the ACM National Meeting}, year = {1952}, pages = {243--249}}
`;

const s = schema.nodes;
const cite = (format: 'autocite' | 'textcite', id: string, locator = '') =>
  s.citation.create({ format, references: [{ id, prefix: '', locator }] });
const note = (...content: Parameters<typeof s.paragraph.create>[1][]) =>
  s.footnote.create(null, s.paragraph.create(null, content.flat() as never));

/**
 * The document: "Earlier work [autocite]. LeCun and Bottou [textcite] follows [footnote], and
 * [autocite inside a footnote] ... [autocite] [footnote]."
 */
function fixedDocument(): ExportInput {
  const base = createDocument(schema, standardArticle, { title: 'Citation styles', language: 'en-US' });
  const body = withBody(base, [
    s.paragraph.create(null, [
      schema.text('Earlier work '),
      cite('autocite', 'k1', '12'),
      schema.text(' set the frame. The account of '),
      cite('textcite', 'k0'),
      schema.text(' follows'),
      note(schema.text('A plain remark.')),
      schema.text(', and a note cites'),
      note(schema.text('See '), cite('autocite', 'k2'), schema.text(' for details.')),
      schema.text('.'),
    ]),
    s.paragraph.create(null, [
      schema.text('Finally '),
      cite('autocite', 'k3'),
      schema.text(' and again '),
      cite('autocite', 'k0'),
      schema.text(' close'),
      note(schema.text('A last remark.')),
      schema.text('.'),
    ]),
  ]);
  const parsed = importBibtex(bib).entries;
  const entries = new Map<string, EntryData>(parsed.map((entry, index) => [`k${index}`, entry]));
  const doc = addToBibliography(EditorState.create({ doc: body }).tr, entries).doc;
  return { content: doc.toJSON(), threads: [], images: {}, csl: null };
}

const STYLES = {
  apa: { numeric: false, hanging: true, note: false },
  'chicago-author-date': { numeric: false, hanging: true, note: false },
  'chicago-note-bibliography': { numeric: false, hanging: true, note: true },
  ieee: { numeric: true, hanging: false, note: false },
  vancouver: { numeric: true, hanging: false, note: false },
  'harvard-cite-them-right': { numeric: false, hanging: false, note: false },
  'modern-language-association': { numeric: false, hanging: true, note: false },
  nature: { numeric: true, hanging: false, note: false },
  'american-medical-association': { numeric: true, hanging: false, note: false },
  'american-chemical-society': { numeric: true, hanging: false, note: false },
  'elsevier-harvard': { numeric: false, hanging: true, note: false },
  'springer-basic-author-date': { numeric: false, hanging: true, note: false },
} as const;

const input = fixedDocument();
const html = (prepared: ReturnType<typeof prepareDocument>) =>
  parseXml(strFromU8(unzipSync(exportHtml(prepared))['index.html']).replace('<!DOCTYPE html>', ''));
const byClass = (root: XmlElement, name: string) =>
  descendants(root, '*').filter((element) => (element.getAttribute('class') ?? '').split(' ').includes(name));
const text = (element: XmlElement): string => element.textContent ?? '';

describe('every citation style in the exports', () => {
  for (const [style, expected] of Object.entries(STYLES)) {
    it(`${style}: no empty citation, notes numbered in one sequence, the style's bibliography layout`, () => {
      const prepared = prepareDocument({ ...input, csl: csl(style) });
      expect(prepared.noteStyle).toBe(expected.note);
      // Every citation renders to text, and no sentence loses a word.
      for (const rendered of prepared.citations.values()) expect(rendered.trim()).not.toBe('');
      const article = html(prepared);
      const paragraph = text(
        descendants(article, 'p').find((p) => text(p).startsWith('Earlier work')) as XmlElement,
      );
      expect(paragraph).not.toMatch(/ {2}|\s[,.]|\(\)|\[\]/);
      // The text citation names its authors in the sentence, whatever the style (numeric ones
      // too: "LeCun and Bottou [2]"; note styles: "LeCun and Bottou¹").
      expect(paragraph).toMatch(/The account of LeCun (and|&) Bottou(?![a-z])/);

      // Notes: footnotes and (note styles) citations numbered 1, 2, 3 ... in text order; a
      // citation inside a footnote stays in it.
      const refs = descendants(article, 'a').filter((a) => a.getAttribute('role') === 'doc-noteref');
      expect(refs.map((a) => text(a))).toEqual(refs.map((_, index) => String(index + 1)));
      const notes = descendants(byClass(article, 'footnotes')[0], 'li');
      expect(notes.map((li) => li.getAttribute('id'))).toEqual(notes.map((_, index) => `fn${index + 1}`));
      expect(notes).toHaveLength(expected.note ? 3 + 4 : 3);
      const noteTexts = notes.map(text);
      expect(noteTexts.find((t) => t.startsWith('See '))).toMatch(/^See \S.* for details\./);
      if (expected.note) {
        // "follows¹ , and": text, note 1 (LeCun), note 2 the plain remark, then note 3 the one citing.
        expect(noteTexts[0]).toMatch(/Knuth/);
        expect(noteTexts[1]).toMatch(/LeCun/);
        expect(noteTexts[2]).toMatch(/^A plain remark/);
        expect(noteTexts[3]).toMatch(/^See .*Vaswani/);
      }

      // The bibliography: one entry per cited work, laid out as the style says.
      const body = byClass(article, 'csl-bib-body')[0];
      const entries = byClass(body, 'csl-entry');
      expect(entries).toHaveLength(4);
      const classes = (body.getAttribute('class') ?? '').split(' ');
      if (expected.numeric) {
        expect(classes).toContain('csl-second-field-flush');
        for (const [index, entry] of entries.entries()) {
          // The label and the text are the two parts of the entry, side by side (CSS below).
          const label = byClass(entry, 'csl-left-margin');
          expect(label).toHaveLength(1);
          expect(text(label[0])).toMatch(new RegExp(`^\\W?${index + 1}\\W*$`));
          expect(byClass(entry, 'csl-right-inline')).toHaveLength(1);
        }
        expect(body.getAttribute('style')).toMatch(/--csl-label-width: [\d.]+em/);
      } else {
        expect(byClass(body, 'csl-left-margin')).toHaveLength(0);
      }
      expect(classes.includes('csl-hanging-indent')).toBe(expected.hanging);
    });
  }

  it('lays a label column out beside its text, and hangs the text of entries that ask for it', () => {
    const css = exportCss('A4');
    expect(css).toContain(BIBLIOGRAPHY_LAYOUT_CSS);
    expect(BIBLIOGRAPHY_LAYOUT_CSS).toMatch(
      /\.csl-left-margin \{ float: left; width: var\(--csl-label-width/,
    );
    expect(BIBLIOGRAPHY_LAYOUT_CSS).toMatch(/\.csl-right-inline \{ margin-left: var\(--csl-label-width/);
    expect(BIBLIOGRAPHY_LAYOUT_CSS).toMatch(
      /\.csl-hanging-indent \.csl-entry \{ padding-left: 2em; text-indent: -2em; \}/,
    );
    // APA: double spaced, no space between entries.
    const apa = byClass(html(prepareDocument({ ...input, csl: csl('apa') })), 'csl-bib-body')[0];
    expect(apa.getAttribute('style')).toContain('line-height: 2');
    expect(apa.getAttribute('style')).toContain('--csl-entry-spacing: 0em');
  });

  it('writes labels with a tab and a hanging indent at the label column in DOCX and ODT', async () => {
    const ieee = prepareDocument({ ...input, csl: csl('ieee') });
    expect(splitLabel(ieee.bibliography[0])).toMatchObject({ label: '[1]' });
    const document = strFromU8(unzipSync(await exportDocx(ieee))['word/document.xml']);
    const entries = [...document.matchAll(/<w:p><w:pPr><w:pStyle w:val="Bibliography"\/>(.*?)<\/w:p>/g)];
    expect(entries).toHaveLength(4);
    for (const [, entry] of entries) {
      expect(entry).toMatch(
        /^<w:tabs><w:tab w:val="left" w:pos="(\d+)"\/><\/w:tabs><w:spacing w:after="0" w:line="240" w:lineRule="auto"\/><w:ind w:left="\1" w:hanging="\1"\/><\/w:pPr>/,
      );
      expect(entry).toMatch(/<w:t xml:space="preserve">\[\d\]<\/w:t><\/w:r><w:r><w:tab\/><\/w:r>/);
    }
    const apa = strFromU8(
      unzipSync(await exportDocx(prepareDocument({ ...input, csl: csl('apa') })))['word/document.xml'],
    );
    expect(apa).toContain(
      '<w:pStyle w:val="Bibliography"/><w:spacing w:after="0" w:line="480" w:lineRule="auto"/><w:ind w:left="480" w:hanging="480"/>',
    );

    const content = strFromU8(unzipSync(await exportOdt(ieee))['content.xml']);
    expect(content.match(/<text:p text:style-name="BibLabelled">\[\d\]<text:tab\/>/g)).toHaveLength(4);
    expect(content).toMatch(
      /<style:style style:name="BibLabelled" style:family="paragraph" style:parent-style-name="Bibliography"><style:paragraph-properties fo:margin-left="([\d.]+)cm" fo:text-indent="-\1cm"/,
    );
  });

  it('numbers note-style citations with the footnotes in DOCX and ODT, a citation in a footnote staying in it', async () => {
    const chicago = prepareDocument({ ...input, csl: csl('chicago-note-bibliography') });
    const docx = unzipSync(await exportDocx(chicago));
    const footnotes = strFromU8(docx['word/footnotes.xml']);
    expect(footnotes.match(/<w:footnote w:id="\d+">/g)).toHaveLength(7);
    // No footnote holds another.
    for (const note of footnotes.split('<w:footnote ').slice(3))
      expect(note).not.toContain('w:footnoteReference');
    const document = strFromU8(docx['word/document.xml']);
    expect(document).toMatch(
      /The account of <\/w:t><\/w:r><w:r><w:t xml:space="preserve">LeCun and Bottou<\/w:t><\/w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"\/>/,
    );
    const odt = strFromU8(unzipSync(await exportOdt(chicago))['content.xml']);
    expect(odt.match(/<text:note /g)).toHaveLength(7);
    expect(odt).toMatch(/LeCun and Bottou(<\/text:span>)?<text:note /);
  });
});
