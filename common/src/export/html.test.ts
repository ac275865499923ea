import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import type { CslJson } from '../bibliography/citation-render';
import { type CompactNode, expandNode } from '../bibliography/csl-compact';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { descendants, elements, parseXml, type XmlElement } from '../import/xml';
import {
  blockSuggestionsDocument,
  FIXTURE_PAPER,
  fixturePaper,
  joinSuggestionsDocument,
} from './fixture-paper';
import { exportHtml, HtmlWriter } from './html';
import { exportJats } from './jats';
import { exportLatex } from './latex';
import { prepareDocument } from './model';
import { exportDocument } from './registry';

/** HTML export: footnotes as pandoc writes them (doc-noteref links, a doc-endnotes list). */

const s = schema.nodes;

/** A paragraph with a one-paragraph note, then one with a two-paragraph note. */
function documentWithNotes(): PMNode {
  const base = createDocument(schema, standardArticle, { title: 'Notes', language: 'en-US' });
  const body = [
    s.paragraph.create(null, [
      schema.text('First claim'),
      s.footnote.create(null, s.paragraph.create(null, schema.text('A short note.'))),
      schema.text(' holds.'),
    ]),
    s.paragraph.create(null, [
      schema.text('Second claim'),
      s.footnote.create(null, [
        s.paragraph.create(null, schema.text('A long note,')),
        s.paragraph.create(null, [
          schema.text('in '),
          schema.text('two', [schema.marks.em.create()]),
          schema.text(' paragraphs.'),
        ]),
      ]),
    ]),
  ];
  return withBody(base, body);
}

const prepared = prepareDocument({
  content: documentWithNotes().toJSON(),
  threads: [],
  images: {},
  csl: null,
});

/** The article as the EPUB writes it, in an element that declares the epub prefix. */
function epubArticle(): XmlElement {
  const writer = new HtmlWriter(prepared, { imageUrl: () => null, trackChanges: 'accepted', epub: true });
  return parseXml(
    `<article xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">${writer.article()}</article>`,
  );
}

const attrs = (el: XmlElement, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, el.getAttribute(name)]));

describe('HTML footnotes', () => {
  const html = strFromU8(unzipSync(exportHtml(prepared))['index.html']);
  const root = parseXml(html.replace('<!DOCTYPE html>', ''));

  it('links each reference to its note with role doc-noteref around a superscript number', () => {
    const refs = descendants(root, 'a').filter((a) => a.getAttribute('class') === 'footnote-ref');
    expect(refs.map((a) => attrs(a, ['href', 'id', 'role']))).toEqual([
      { href: '#fn1', id: 'fnref1', role: 'doc-noteref' },
      { href: '#fn2', id: 'fnref2', role: 'doc-noteref' },
    ]);
    expect(refs.map((a) => elements(a).map((el) => `${el.nodeName}:${el.textContent}`))).toEqual([
      ['sup:1'],
      ['sup:2'],
    ]);
    expect(html).toContain(
      'First claim<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a> holds.',
    );
  });

  it('lists the notes in a doc-endnotes section, each ending in a back-link', () => {
    const sections = descendants(root, 'section').filter((el) => el.getAttribute('role') === 'doc-endnotes');
    expect(sections).toHaveLength(1);
    const [section] = sections;
    expect(attrs(section, ['id', 'class'])).toEqual({
      id: 'footnotes',
      class: 'footnotes footnotes-end-of-document',
    });
    // The notes come last in the article, after a rule.
    expect(section.parentNode?.lastChild).toBe(section);
    expect(elements(section).map((el) => el.nodeName)).toEqual(['hr', 'ol']);
    const items = elements(elements(section)[1]);
    expect(items.map((li) => li.getAttribute('id'))).toEqual(['fn1', 'fn2']);
    expect(items.map((li) => elements(li).map((p) => p.textContent))).toEqual([
      ['A short note.\u21a9\ufe0e'],
      ['A long note,', 'in two paragraphs.\u21a9\ufe0e'],
    ]);
    const backs = descendants(section, 'a');
    expect(backs.map((a) => attrs(a, ['href', 'class', 'role']))).toEqual([
      { href: '#fnref1', class: 'footnote-back', role: 'doc-backlink' },
      { href: '#fnref2', class: 'footnote-back', role: 'doc-backlink' },
    ]);
    // The back-link is in the note's last paragraph only; the emphasis stays.
    expect(descendants(elements(items[1])[0], 'a')).toHaveLength(0);
    expect(descendants(items[1], 'em').map((em) => em.textContent)).toEqual(['two']);
  });

  it('adds the EPUB note types for reading systems', () => {
    const epub = epubArticle();
    const ref = descendants(epub, 'a').find((a) => a.getAttribute('id') === 'fnref1');
    expect(ref && attrs(ref, ['epub:type', 'role'])).toEqual({ 'epub:type': 'noteref', role: 'doc-noteref' });
    const section = descendants(epub, 'section').find((el) => el.getAttribute('role') === 'doc-endnotes');
    expect(section?.getAttribute('epub:type')).toBe('footnotes');
    expect(descendants(epub, 'li').map((li) => li.getAttribute('epub:type'))).toEqual([
      'footnote',
      'footnote',
    ]);
    // Without EPUB, no epub:type at all.
    expect(strFromU8(unzipSync(exportHtml(prepared))['index.html'])).not.toContain('epub:type');
  });

  it('makes the citations of a note style notes of the same list', () => {
    // The static assets the browser fetches (web/public/csl), read straight from disk here.
    const csl = (name: string) =>
      JSON.parse(readFileSync(new URL(`../../../web/public/csl/${name}.json`, import.meta.url), 'utf8'));
    const paper = fixturePaper();
    const notes = prepareDocument({
      ...paper.input,
      csl: {
        name: 'chicago-fullnote-bibliography',
        style: expandNode(csl('styles/chicago-fullnote-bibliography') as CompactNode) as unknown as CslJson,
        locales: { 'en-US': csl('locale-data/en-US') },
        locale: 'en-US',
      },
    });
    expect(notes.noteStyle).toBe(true);
    expect(notes.citations.size).toBe(FIXTURE_PAPER.citations);
    const article = parseXml(
      strFromU8(unzipSync(exportHtml(notes))['index.html']).replace('<!DOCTYPE html>', ''),
    );
    const items = descendants(descendants(article, 'ol').at(-1) as XmlElement, 'li');
    // The paper's footnotes and each citation, numbered in one sequence.
    expect(items.length).toBe(paper.footnotes.length + notes.citations.size);
    expect(items.map((li) => li.getAttribute('id'))).toEqual(items.map((_, index) => `fn${index + 1}`));
    const citationNotes = items.filter((li) =>
      descendants(li, 'span').some((span) => span.getAttribute('class') === 'citation'),
    );
    expect(citationNotes).toHaveLength(notes.citations.size);
    for (const li of items) expect(descendants(li, 'a').at(-1)?.getAttribute('role')).toBe('doc-backlink');
  });
});

describe('suggestions recorded on blocks in HTML and the formats that show them accepted', () => {
  const suggested = prepareDocument({
    content: blockSuggestionsDocument().toJSON(),
    threads: [],
    images: {},
    csl: null,
  });
  const body = (html: string) =>
    html.slice(html.indexOf('Before the list.') - 3, html.indexOf('After the table.'));

  it('HTML marks a suggested paragraph break with an ins/del pilcrow and suggested rows with a class', () => {
    const html = strFromU8(unzipSync(exportHtml(suggested))['index.html']);
    expect(body(html)).toBe(
      '<p>Before the list.</p><ul>' +
        '<li><p>Kept item<ins class="paragraph-break">\u00b6</ins></p></li>' +
        '<li><p><ins>New item</ins></p></li>' +
        '<li><p><del>Old item</del><del class="paragraph-break">\u00b6</del></p></li>' +
        '<li><p>Last item</p></li></ul>' +
        '<table><caption><span class="caption-label">Table 1:</span> </caption><tbody>' +
        '<tr><td><p>A</p></td><td><p>B</p></td></tr>' +
        '<tr class="insertion"><td><p><ins>C</ins></p></td><td><p><ins>D</ins></p></td></tr>' +
        '<tr class="deletion"><td><p><del>E</del></p></td><td><p><del>F</del></p></td></tr>' +
        '</tbody></table><p>',
    );
    expect(strFromU8(unzipSync(exportHtml(suggested))['style.css'])).toContain('.deletion');
  });

  it('EPUB and PDF (accepted) leave out the deleted item and row, and show no marks', () => {
    const writer = new HtmlWriter(suggested, { imageUrl: () => null, trackChanges: 'accepted', epub: true });
    expect(body(writer.article())).toBe(
      '<p>Before the list.</p><ul><li><p>Kept item</p></li><li><p>New item</p></li><li><p>Last item</p></li></ul>' +
        '<table><caption><span class="caption-label">Table 1:</span> </caption><tbody>' +
        '<tr><td><p>A</p></td><td><p>B</p></td></tr><tr><td><p>C</p></td><td><p>D</p></td></tr>' +
        '</tbody></table><p>',
    );
  });

  it('JATS and LaTeX (accepted) leave them out too', () => {
    const jats = Object.entries(unzipSync(exportJats(suggested))).find(([name]) => name.endsWith('.xml'));
    const xml = strFromU8(jats?.[1] ?? new Uint8Array());
    expect(descendants(parseXml(xml), 'list-item').map((item) => item.textContent)).toEqual([
      'Kept item',
      'New item',
      'Last item',
    ]);
    expect(descendants(parseXml(xml), 'tr').map((row) => row.textContent)).toEqual(['AB', 'CD']);
    const latex = Object.entries(unzipSync(exportLatex(suggested))).find(([name]) => name.endsWith('.tex'));
    const tex = strFromU8(latex?.[1] ?? new Uint8Array());
    expect(tex).toContain('\\item Kept item\n\\item New item\n\\item Last item\n');
    expect(tex).not.toContain('Old item');
    expect(tex).toContain('C & D');
    expect(tex).not.toMatch(/E & F/);
  });
});

describe('a deleted row that merged cells span, in the formats that show it accepted', () => {
  const del = schema.marks.deletion.create({ user: 3, username: 'Ada Lovelace', date: Date.UTC(2024, 0, 3) });
  const cell = (text: string, rowspan = 1) =>
    s.table_cell.create({ rowspan }, s.paragraph.create(null, schema.text(text)));
  // "A" spans into the deleted row from above; "C" spans down from it into the last row.
  const table = s.table.create(null, [
    s.table_row.create(null, [cell('A', 2), cell('B')]),
    s.table_row.create(null, [cell('C', 2)], [del]),
    s.table_row.create(null, [cell('D')]),
  ]);
  const base = createDocument(schema, standardArticle, { title: 'Spans', language: 'en-US' });
  const input = { content: withBody(base, [table]).toJSON(), threads: [], images: {}, csl: null };
  const prepared = prepareDocument(input, undefined, { accepted: true });

  it('mends the spans as accepting does: "A" one row high, "C" moved down beside "D"', () => {
    const accepted = new HtmlWriter(prepared, { imageUrl: () => null, trackChanges: 'accepted', epub: true });
    const html = accepted.article();
    expect(html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'))).toBe(
      '<tbody><tr><td><p>A</p></td><td><p>B</p></td></tr><tr><td><p>D</p></td><td><p>C</p></td></tr>',
    );
    const jats = Object.entries(unzipSync(exportJats(prepared))).find(([name]) => name.endsWith('.xml'));
    const xml = parseXml(strFromU8(jats?.[1] ?? new Uint8Array()));
    expect(descendants(xml, 'tr').map((row) => row.textContent)).toEqual(['AB', 'DC']);
    expect(descendants(xml, 'td').some((td) => td.getAttribute('rowspan'))).toBe(false);
    const latex = Object.entries(unzipSync(exportLatex(prepared))).find(([name]) => name.endsWith('.tex'));
    const tex = strFromU8(latex?.[1] ?? new Uint8Array());
    expect(tex).toContain('A & B \\\\ \\hline\nD & C \\\\ \\hline');
    expect(tex).not.toContain('\\multirow{');
  });

  it('keeps the row and its spans where the suggestion is shown (HTML)', () => {
    const html = strFromU8(unzipSync(exportHtml(prepareDocument(input)))['index.html']);
    expect(html).toContain('<td rowspan="2"><p>A</p></td>');
    expect(html).toContain('<tr class="deletion"><td rowspan="2"><p><del>C</del></p></td></tr>');
  });
});

describe('suggested joins in the formats that show them accepted', () => {
  const input = { content: joinSuggestionsDocument().toJSON(), threads: [], images: {}, csl: null };
  /** The file of the export whose name matches `name` and that holds the text. */
  const zipped = async (format: 'epub' | 'jats' | 'latex', name: RegExp) => {
    const file = await exportDocument(format, input);
    const texts = Object.entries(unzipSync(file.data))
      .filter(([path]) => name.test(path))
      .map(([, data]) => strFromU8(data));
    return texts.find((text) => text.includes('Lead')) ?? '';
  };

  it('EPUB joins the blocks as accepting does: one paragraph, one item, the item kept with two paragraphs', async () => {
    const xhtml = await zipped('epub', /\.xhtml$/);
    const body = xhtml.slice(xhtml.indexOf('<p>First'), xhtml.indexOf('</section></article>'));
    expect(body).toBe(
      '<p>Firstsecond</p><ul><li><p>Onetwo</p></li><li><p>Three</p></li></ul><p>Leadheading</p>' +
        '<ul><li><p>Four</p><p>Five</p></li></ul>',
    );
  });

  it('JATS and LaTeX too', async () => {
    const xml = parseXml(await zipped('jats', /\.xml$/));
    expect(descendants(xml, 'list-item').map((item) => item.textContent)).toEqual([
      'Onetwo',
      'Three',
      'FourFive',
    ]);
    expect(descendants(xml, 'p').map((p) => p.textContent)).toEqual(
      expect.arrayContaining(['Firstsecond', 'Leadheading']),
    );
    const tex = await zipped('latex', /\.tex$/);
    expect(tex).toContain('Firstsecond');
    expect(tex).toContain('\\item Onetwo\n\\item Three\n');
    expect(tex).toContain('Leadheading');
  });
});
