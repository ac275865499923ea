import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { importDocument } from '../import/index';
import { attr, children, descendants, elements, parseXml, type XmlElement } from '../import/xml';
import { blockSuggestionsDocument, fixturePaper, joinSuggestionsDocument } from './fixture-paper';
import {
  commentDate,
  importedShapes,
  markedTexts,
  THREAD_IDS,
  THREAD_SHAPES,
  threadsDocument,
} from './fixture-threads';
import { prepareDocument } from './model';
import { exportOdt, ODT_MIME } from './odt';
import { EXPORT_FORMATS, exportDocument } from './registry';

/** Issue 19: the ODT export's package and content, read back by an XML parser and by our ODT import. */

const paper = fixturePaper();
const bytes = exportOdt(prepareDocument(paper.input));
const files = unzipSync(bytes);
const xml = (name: string): XmlElement => parseXml(strFromU8(files[name]));
const content = xml('content.xml');
const named = (root: XmlElement, name: string) => descendants(root, name);

/** A document whose body is `body` (the standard article's other parts left empty). */
function documentWith(body: PMNode[]): PMNode {
  const base = createDocument(schema, standardArticle, { title: 'Marks', language: 'de-DE' });
  return withBody(base, body);
}

function odtOf(doc: PMNode) {
  const unzipped = unzipSync(
    exportOdt(prepareDocument({ content: doc.toJSON(), threads: [], images: {}, csl: null })),
  );
  return { files: unzipped, content: parseXml(strFromU8(unzipped['content.xml'])) };
}

describe('ODT package', () => {
  it('starts with its MIME type, stored uncompressed, as ODF requires', () => {
    // Local file header: signature, then the method (0: stored) at 8, the name at 30.
    expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    expect(bytes[8] | (bytes[9] << 8)).toBe(0);
    const nameLength = bytes[26] | (bytes[27] << 8);
    const extraLength = bytes[28] | (bytes[29] << 8);
    expect(strFromU8(bytes.subarray(30, 30 + nameLength))).toBe('mimetype');
    const start = 30 + nameLength + extraLength;
    expect(strFromU8(bytes.subarray(start, start + ODT_MIME.length))).toBe(ODT_MIME);
    expect(EXPORT_FORMATS.odt).toMatchObject({ extension: 'odt', mime: ODT_MIME });
  });

  it('lists every file in the manifest and every listed file is there', () => {
    const manifest = xml('META-INF/manifest.xml');
    const listed = named(manifest, 'manifest:file-entry').map((entry) => attr(entry, 'manifest:full-path'));
    const inZip = Object.keys(files).filter(
      (name) => name !== 'mimetype' && name !== 'META-INF/manifest.xml',
    );
    for (const name of inZip) expect(listed).toContain(name);
    for (const path of listed) {
      if (path === '/' || path.endsWith('/')) continue;
      expect(Object.keys(files)).toContain(path);
    }
    expect(listed).toContain('/');
    // Each formula object is listed as a formula sub-document.
    const objects = named(manifest, 'manifest:file-entry').filter(
      (entry) => attr(entry, 'manifest:media-type') === 'application/vnd.oasis.opendocument.formula',
    );
    expect(objects.map((entry) => attr(entry, 'manifest:full-path'))).toEqual(
      paper.equations.map((_, index) => `Object ${index + 1}/`),
    );
  });

  it('has well-formed content, styles, meta and formula objects', () => {
    for (const name of Object.keys(files).filter((file) => file.endsWith('.xml'))) {
      expect(() => parseXml(strFromU8(files[name])), name).not.toThrow();
    }
    expect(() => parseXml('<a><b></a>')).toThrow();
  });

  it('carries title, authors, language, abstract and keywords in meta.xml', () => {
    const meta = xml('meta.xml');
    const text = (name: string) => named(meta, name).map((el) => el.textContent);
    expect(text('dc:title')).toEqual(['Structures of Example Problems']);
    expect(text('dc:creator')).toEqual(['Ada Lovelace; Emmy Noether']);
    expect(text('dc:language')).toEqual(['en-US']);
    expect(text('dc:description')).toEqual(['We study example problems and their structures.']);
    expect(text('meta:keyword')).toEqual(['structures', 'examples']);
    expect(strFromU8(files['styles.xml'])).toContain('fo:language="en" fo:country="US"');
    expect(strFromU8(files['styles.xml'])).toContain('fo:page-width="21cm" fo:page-height="29.7cm"');
  });
});

describe('ODT content', () => {
  it('writes the title and the headings with their outline levels', () => {
    const paragraphs = named(content, 'text:p');
    expect(paragraphs.find((p) => attr(p, 'text:style-name') === 'Title')?.textContent).toBe(
      'Structures of Example Problems',
    );
    const headings = named(content, 'text:h');
    expect(headings.map((h) => h.textContent)).toEqual(paper.headings);
    expect(headings.map((h) => attr(h, 'text:outline-level'))).toEqual(
      paper.headings.map((heading) => (heading.startsWith('Details') ? '2' : '1')),
    );
    expect(headings.map((h) => attr(h, 'text:style-name'))).toContain('Heading_20_2');
    // The cross-reference to a heading links to its bookmark.
    const bookmarks = named(content, 'text:bookmark-start').map((el) => attr(el, 'text:name'));
    const links = named(content, 'text:a').map((el) => attr(el, 'xlink:href'));
    expect(links).toContain('#ref_H1');
    expect(bookmarks).toContain('ref_H1');
    expect(bookmarks).toContain('ref_F0');
    expect(bookmarks).toContain('ref_T0');
  });

  it('makes every equation a formula object with MathML, inline and display', () => {
    const objects = named(content, 'draw:object');
    expect(objects).toHaveLength(paper.equations.length);
    expect(objects.map((el) => attr(el, 'xlink:href'))).toEqual(
      paper.equations.map((_, index) => `./Object ${index + 1}`),
    );
    const first = parseXml(strFromU8(files['Object 1/content.xml']));
    expect(first.nodeName).toBe('math');
    expect(first.getAttribute('xmlns')).toBe('http://www.w3.org/1998/Math/MathML');
    expect(first.getAttribute('display')).toBe('inline');
    expect(named(first, 'msup')).toHaveLength(1);
    // The display equation sits in its own Equation paragraph with its number.
    const display = named(content, 'text:p').filter((p) => attr(p, 'text:style-name') === 'Equation');
    let displayEquations = 0;
    paper.doc.descendants((node) => {
      if (node.type.name === 'figure' && node.attrs.category === 'equation') displayEquations++;
      return true;
    });
    expect(displayEquations).toBeGreaterThan(0);
    expect(display).toHaveLength(displayEquations);
    expect(display[0].textContent).toContain('(1)');
    const object = attr(named(display[0], 'draw:object')[0], 'xlink:href').replace('./', '');
    expect(parseXml(strFromU8(files[`${object}/content.xml`])).getAttribute('display')).toBe('block');
  });

  it('writes footnotes as text:note, comments as annotation ranges, suggestions as tracked changes', () => {
    const notes = named(content, 'text:note');
    expect(notes.map((note) => named(note, 'text:note-body')[0].textContent)).toEqual(paper.footnotes);
    const annotations = named(content, 'office:annotation');
    expect(annotations).toHaveLength(1);
    expect(named(annotations[0], 'dc:creator')[0].textContent).toBe('Ada Lovelace');
    expect(named(annotations[0], 'text:p')[0].textContent).toBe(paper.comments[0]);
    const name = attr(annotations[0], 'office:name');
    expect(named(content, 'office:annotation-end').map((el) => attr(el, 'office:name'))).toEqual([name]);

    const regions = named(content, 'text:changed-region');
    const kinds = regions.map((region) => region.firstChild?.nodeName);
    expect(kinds).toEqual(['text:insertion', 'text:deletion']);
    for (const region of regions) expect(named(region, 'dc:creator')[0].textContent).toBe('Grace Hopper');
    expect(named(regions[1], 'text:p')[0].textContent).toBe('deleted words');
    const [insertionId, deletionId] = regions.map((region) => attr(region, 'text:id'));
    expect(named(content, 'text:change-start').map((el) => attr(el, 'text:change-id'))).toEqual([
      insertionId,
    ]);
    expect(named(content, 'text:change-end').map((el) => attr(el, 'text:change-id'))).toEqual([insertionId]);
    expect(named(content, 'text:change').map((el) => attr(el, 'text:change-id'))).toEqual([deletionId]);
    // The deleted words are in the region only, not in the text.
    const body = named(content, 'office:text')[0];
    const changes = named(body, 'text:tracked-changes')[0];
    body.removeChild(changes);
    expect(body.textContent).toContain('inserted words');
    expect(body.textContent).not.toContain('deleted words');
    body.insertBefore(changes, body.firstChild);
  });

  it('writes the table with merged cells, the figures with pictures and numbered captions', () => {
    const table = named(content, 'table:table')[0];
    const cells = named(table, 'table:table-cell');
    expect(
      cells.find((cell) => cell.textContent === 'Group')?.getAttribute('table:number-rows-spanned'),
    ).toBe('2');
    expect(
      cells.find((cell) => cell.textContent === 'Results')?.getAttribute('table:number-columns-spanned'),
    ).toBe('2');
    expect(
      cells.find((cell) => cell.textContent === '2.5')?.getAttribute('table:number-columns-spanned'),
    ).toBe('2');
    expect(named(table, 'table:covered-table-cell')).toHaveLength(3);
    // Every row covers the table's three columns.
    for (const row of named(table, 'table:table-row')) {
      const width = named(row, 'table:table-cell').length + named(row, 'table:covered-table-cell').length;
      expect(width).toBe(3);
    }
    const images = named(content, 'draw:image').map((el) => attr(el, 'xlink:href'));
    expect(images).toEqual(['Pictures/image1.png', 'Pictures/image2.png', 'Pictures/image3.png']);
    const sources = Object.values(paper.input.images).map((image) => image.data);
    expect(sources.map((data) => [...data])).toContainEqual([...files['Pictures/image1.png']]);
    const captions = named(content, 'text:p')
      .filter((p) => attr(p, 'text:style-name') === 'Caption')
      .map((p) => p.textContent);
    expect(captions).toEqual([
      'Table 1: Measured values',
      'Figure 1: A striped image number 1',
      'Figure 2: A striped image number 2',
      'Figure 3: A striped image number 3',
    ]);
  });

  it('puts the leading header rows in table:table-header-rows, repeated on each page', () => {
    const table = named(content, 'table:table')[0];
    const rowTexts = (parent: XmlElement) =>
      elements(parent)
        .filter((el) => el.nodeName === 'table:table-row')
        .map((row) => named(row, 'table:table-cell').map((cell) => cell.textContent));
    const headers = children(table, 'table:table-header-rows');
    expect(headers).toHaveLength(1);
    expect(rowTexts(headers[0])).toEqual([
      ['Group', 'Results'],
      ['Mean', 'Deviation'],
    ]);
    expect(rowTexts(table)).toEqual([
      ['A', '1.5', '0.2'],
      ['B', '2.5'],
    ]);
    // The header rows come right after the columns, before the body rows.
    expect(elements(table).map((el) => el.nodeName)).toEqual([
      'table:table-column',
      'table:table-header-rows',
      'table:table-row',
      'table:table-row',
    ]);
  });

  it('repeats no header rows a header cell spanning into the body would split, nor a header column', () => {
    const s = schema.nodes;
    const cell = (type: 'table_cell' | 'table_header', text: string, rowspan = 1) =>
      s[type].create({ colspan: 1, rowspan }, s.paragraph.create(null, schema.text(text)));
    const tables = [
      // "Side" spans the header row and the first body row.
      s.table.create({ id: 'T1', caption: 'Spanning' }, [
        s.table_row.create(null, [cell('table_header', 'Side', 2), cell('table_header', 'Top')]),
        s.table_row.create(null, [cell('table_cell', 'one')]),
        s.table_row.create(null, [cell('table_cell', 'two'), cell('table_cell', 'three')]),
      ]),
      // A header column: the first row is not all headers.
      s.table.create({ id: 'T2', caption: 'Column' }, [
        s.table_row.create(null, [cell('table_header', 'Key'), cell('table_cell', 'value')]),
        s.table_row.create(null, [cell('table_header', 'Other'), cell('table_cell', 'more')]),
      ]),
      // One header row over one body row.
      s.table.create({ id: 'T3', caption: 'Simple' }, [
        s.table_row.create(null, [cell('table_header', 'Name'), cell('table_header', 'Size')]),
        s.table_row.create(null, [cell('table_cell', 'x'), cell('table_cell', '1')]),
      ]),
    ];
    const { content: written } = odtOf(documentWith(tables));
    const [spanning, column, simple] = named(written, 'table:table');
    expect(children(spanning, 'table:table-header-rows')).toHaveLength(0);
    expect(children(spanning, 'table:table-row')).toHaveLength(3);
    expect(children(column, 'table:table-header-rows')).toHaveLength(0);
    const simpleHeaders = children(simple, 'table:table-header-rows');
    expect(simpleHeaders.map((rows) => rows.textContent)).toEqual(['NameSize']);
    expect(children(simple, 'table:table-row').map((row) => row.textContent)).toEqual(['x1']);
  });

  it('writes the marks, links, nested lists, quotations and code of the editor', () => {
    const s = schema.nodes;
    const m = schema.marks;
    const doc = documentWith([
      s.heading.create({ level: 1, id: 'Hx' }, schema.text('Goal')),
      s.paragraph.create(null, [
        schema.text('bold', [m.strong.create()]),
        schema.text(' '),
        schema.text('both', [m.strong.create(), m.em.create()]),
        schema.text(' '),
        schema.text('under', [m.underline.create()]),
        schema.text('up', [m.sup.create()]),
        schema.text('down', [m.sub.create()]),
        schema.text('Caps', [m.smallcaps.create()]),
        schema.text('site', [m.link.create({ href: 'https://example.org/a?b=1&c=2' })]),
        schema.text('back', [m.link.create({ href: '#Hx' })]),
        schema.text('  two  spaces'),
      ]),
      s.ordered_list.create({ start: 3 }, [
        s.list_item.create(null, [
          s.paragraph.create(null, schema.text('three')),
          s.bullet_list.create(null, [
            s.list_item.create(null, s.paragraph.create(null, schema.text('dot'))),
          ]),
        ]),
      ]),
      s.blockquote.create(null, s.paragraph.create(null, schema.text('quoted'))),
      s.code_block.create(null, schema.text('let x = 1;\n  return x;')),
    ]);
    const odt = odtOf(doc);
    const styles = new Map(
      named(odt.content, 'style:style').map((style) => [
        attr(style, 'style:name'),
        named(style, 'style:text-properties')[0],
      ]),
    );
    const spanProps = (text: string) => {
      const span = named(odt.content, 'text:span').find((el) => el.textContent === text);
      const props = span && styles.get(attr(span, 'text:style-name'));
      return props ? [...Array.from(props.attributes)].map((a) => `${a.name}=${a.value}`).join(' ') : '';
    };
    expect(spanProps('bold')).toContain('fo:font-weight=bold');
    expect(spanProps('both')).toContain('fo:font-weight=bold');
    expect(spanProps('both')).toContain('fo:font-style=italic');
    expect(spanProps('under')).toContain('style:text-underline-style=solid');
    expect(spanProps('up')).toContain('style:text-position=super 58%');
    expect(spanProps('down')).toContain('style:text-position=sub 58%');
    expect(spanProps('Caps')).toContain('fo:font-variant=small-caps');
    const links = named(odt.content, 'text:a');
    expect(links.map((a) => [attr(a, 'xlink:href'), a.textContent])).toEqual([
      ['https://example.org/a?b=1&c=2', 'site'],
      ['#ref_Hx', 'back'],
    ]);
    // Runs of spaces survive ODF's white-space collapsing.
    expect(strFromU8(odt.files['content.xml'])).toContain('<text:s text:c="2"/>two <text:s/>spaces');

    const outer = named(odt.content, 'text:list')[0];
    const listStyle = named(odt.content, 'text:list-style').find(
      (style) => attr(style, 'style:name') === attr(outer, 'text:style-name'),
    );
    expect(listStyle && named(listStyle, 'text:list-level-style-number')[0].getAttribute('text:level')).toBe(
      '1',
    );
    expect(listStyle && named(listStyle, 'text:list-level-style-bullet')[0].getAttribute('text:level')).toBe(
      '2',
    );
    expect(attr(named(outer, 'text:list-item')[0], 'text:start-value')).toBe('3');
    expect(named(named(outer, 'text:list-item')[0], 'text:list')[0].textContent).toBe('dot');

    const byStyle = (style: string) =>
      named(odt.content, 'text:p')
        .filter((p) => attr(p, 'text:style-name') === style)
        .map((p) => p.textContent);
    expect(byStyle('Quotations')).toEqual(['quoted']);
    // text:s elements have no text content: the leading spaces are checked in the markup.
    expect(byStyle('Preformatted_20_Text')).toEqual(['let x = 1;', 'return x;']);
    expect(strFromU8(odt.files['content.xml'])).toContain(
      '<text:p text:style-name="Preformatted_20_Text"><text:s text:c="2"/>return x;</text:p>',
    );
    expect(strFromU8(odt.files['styles.xml'])).toContain('fo:language="de" fo:country="DE"');
  });

  it('comes back through our own ODT import with its headings, math, notes, comments and suggestions', () => {
    const imported = importDocument(bytes, 'paper.odt');
    expect(imported.format).toBe('odt');
    const doc = schema.nodeFromJSON(imported.content);
    const headings: string[] = [];
    const equations: string[] = [];
    const marks = new Set<string>();
    let footnotes = 0;
    doc.descendants((node) => {
      if (node.type.name === 'heading') headings.push(node.textContent);
      if (node.type.name === 'equation' || (node.type.name === 'figure' && node.attrs.equation))
        equations.push(String(node.attrs.equation));
      if (node.type.name === 'footnote') footnotes++;
      for (const mark of node.marks) marks.add(mark.type.name);
      return true;
    });
    expect(headings.slice(0, paper.headings.length)).toEqual(paper.headings);
    expect(equations).toHaveLength(paper.equations.length);
    // Our own formulas come back as written (their LaTeX annotation).
    expect(equations[0]).toBe('E = mc^2');
    expect(footnotes).toBe(paper.footnotes.length);
    expect([...marks]).toEqual(expect.arrayContaining(['comment', 'insertion', 'deletion']));
    expect(imported.threads.map((thread) => thread.comments[0].text)).toEqual(paper.comments);
    expect(imported.images).toHaveLength(3);
  });

  it('is named after the title by the registry', async () => {
    const file = await exportDocument('odt', paper.input);
    expect(file).toMatchObject({ name: 'Structures of Example Problems.odt', mime: ODT_MIME });
  });
});

describe('ODT suggested joins that keep the text before them', () => {
  const { content } = odtOf(joinSuggestionsDocument());
  const body = descendants(content, 'office:text')[0];
  const tracked = descendants(content, 'text:tracked-changes')[0];
  const outside = (name: string) => descendants(body, name).filter((node) => !tracked.contains(node));
  const region = (id: string) =>
    descendants(tracked, 'text:changed-region').find((node) => attr(node, 'text:id') === id) as XmlElement;

  it('writes both in one paragraph, the deletion region holding the two paragraphs, as LibreOffice does', () => {
    const joined = outside('text:p').filter((node) => descendants(node, 'text:change').length);
    expect(joined.map((node) => node.textContent)).toEqual(['Firstsecond', 'Onetwo', 'Leadheading']);
    const styles = joined.map((node) => {
      const deletion = elements(region(attr(descendants(node, 'text:change')[0], 'text:change-id')))[0];
      expect(deletion.nodeName).toBe('text:deletion');
      expect(descendants(deletion, 'dc:creator')[0].textContent).toBe('Ada Lovelace');
      // Joined list items: the two paragraphs as items of a list in the region.
      const list = children(deletion, 'text:list')[0];
      const broken = list
        ? children(list, 'text:list-item').flatMap((entry) => children(entry, 'text:p'))
        : elements(deletion).filter((el) => el.nodeName !== 'office:change-info');
      return [
        list ? 'list' : '',
        ...broken.map((empty) => `${attr(empty, 'text:style-name')}:${empty.textContent}`),
      ];
    });
    expect(styles).toEqual([
      ['', 'Text_20_body:', 'Text_20_body:'],
      ['list', 'List_20_Paragraph:', 'List_20_Paragraph:'],
      ['', 'Text_20_body:', 'Heading_20_2:'],
    ]);
  });

  it("leaves out the joined blocks and keeps the heading's bookmark; a join above the text stays out", () => {
    // "Five" going on the item "Four" changes only its numbering: ODF has no record for that.
    expect(outside('text:list-item').map((node) => node.textContent)).toEqual([
      'Onetwo',
      'Three',
      'Four',
      'Five',
    ]);
    expect(outside('text:h')).toHaveLength(0);
    expect(descendants(body, 'text:bookmark-start').map((node) => attr(node, 'text:name'))).toContain(
      'ref_h_9',
    );
  });
});

describe('ODT suggestions recorded on blocks', () => {
  const { content: blocks } = odtOf(blockSuggestionsDocument());
  const regions = new Map(
    descendants(blocks, 'text:changed-region').map((region) => [attr(region, 'text:id'), region]),
  );
  /** A region's kind and author: "insertion Grace Hopper". */
  const kind = (id: string) => {
    const change = elements(regions.get(id) as XmlElement)[0];
    return `${change.nodeName.replace('text:', '')} ${descendants(change, 'dc:creator')[0]?.textContent}`;
  };
  const body = descendants(blocks, 'office:text')[0];
  const tracked = descendants(blocks, 'text:tracked-changes')[0];
  /** A paragraph as its change marks and text: "<change-start insertion Grace Hopper>|Kept item". */
  const described = (p: XmlElement) =>
    elements(p)
      // The change marks (a caption's text:sequence number is no change).
      .filter((e) => e.nodeName.startsWith('text:change'))
      .map((e) => `<${e.nodeName.replace('text:', '')} ${kind(attr(e, 'text:change-id'))}>`)
      .join('')
      .concat(`|${p.textContent}`);
  /** The body's paragraphs (not those kept in deletion regions), in order. */
  const paragraphs = descendants(body, 'text:p')
    .filter((p) => !tracked.contains(p))
    .map(described);

  it('makes an inserted list item one insertion region from the end of the item before to its start', () => {
    const kept = paragraphs.find((p) => p.endsWith('|Kept item'));
    expect(kept).toBe('<change-start insertion Grace Hopper>|Kept item');
    // The break's region ends where the new item starts; its text is an insertion of its own.
    expect(paragraphs.find((p) => p.endsWith('|New item'))).toBe(
      '<change-end insertion Grace Hopper><change-start insertion Grace Hopper><change-end insertion Grace Hopper>|New item',
    );
    const [start] = descendants(body, 'text:change-start');
    const [end] = descendants(body, 'text:change-end');
    expect(attr(start, 'text:change-id')).toBe(attr(end, 'text:change-id'));
  });

  it('keeps a deleted list item in its deletion region, the next item starting with the change', () => {
    expect(paragraphs.some((p) => p.includes('Old item'))).toBe(false);
    expect(paragraphs.find((p) => p.endsWith('|Last item'))).toBe('<change deletion Ada Lovelace>|Last item');
    const id = attr(descendants(body, 'text:change')[0], 'text:change-id');
    const deletion = elements(regions.get(id) as XmlElement)[0];
    const list = elements(deletion)[1];
    expect(list.nodeName).toBe('text:list');
    expect(children(list, 'text:list-item').map((item) => item.textContent)).toEqual(['Old item', '']);
    // No region inside the region: the deleted text is there as it was.
    expect(descendants(deletion, 'text:change')).toHaveLength(0);
  });

  it('tracks the text of inserted and deleted table rows', () => {
    const rows = descendants(descendants(body, 'table:table')[0], 'table:table-row');
    const cells = rows.map((row) => descendants(row, 'text:p').map(described));
    expect(cells).toEqual([
      ['|A', '|B'],
      [
        '<change-start insertion Grace Hopper><change-end insertion Grace Hopper>|C',
        '<change-start insertion Grace Hopper><change-end insertion Grace Hopper>|D',
      ],
      ['<change deletion Ada Lovelace>|', '<change deletion Ada Lovelace>|'],
    ]);
    const texts = descendants(rows[2], 'text:change').map(
      (change) => regions.get(attr(change, 'text:change-id'))?.textContent,
    );
    expect(texts).toEqual(['Ada Lovelace2024-01-03T00:00:00E', 'Ada Lovelace2024-01-03T00:00:00F']);
  });
});

describe('ODT comment threads (issue 54)', () => {
  const bytes = exportOdt(prepareDocument(threadsDocument()));
  const content = parseXml(strFromU8(unzipSync(bytes)['content.xml']));
  const annotations = descendants(content, 'office:annotation');

  it('writes each comment as its own annotation with its author and date, answers naming the first', () => {
    expect(
      annotations.map((annotation) => ({
        name: descendants(annotation, 'dc:creator')[0].textContent,
        date: descendants(annotation, 'dc:date')[0].textContent,
        paragraphs: children(annotation, 'text:p').map((p) => p.textContent),
        parent: attr(annotation, 'loext:parent-name'),
        resolved: attr(annotation, 'loext:resolved'),
      })),
    ).toEqual(
      THREAD_SHAPES.flatMap((shape, t) =>
        shape.comments.map((comment, n) => ({
          name: comment.name,
          date: new Date(commentDate(t, n)).toISOString().replace(/\.\d{3}Z$/, ''),
          paragraphs: comment.text.split('\n'),
          parent: n ? `comment${THREAD_IDS[t]}` : '',
          resolved: String(shape.resolved),
        })),
      ),
    );
  });

  it('spans every annotation of a thread over its text', () => {
    const xml = strFromU8(unzipSync(bytes)['content.xml']);
    const spanned = annotations.map((annotation) => {
      const name = attr(annotation, 'office:name');
      const after = xml.slice(xml.indexOf(`<office:annotation office:name="${name}"`));
      const range = after.slice(0, after.indexOf(`<office:annotation-end office:name="${name}"/>`));
      return range.replace(/<office:annotation .*?<\/office:annotation>/g, '').replace(/<[^>]+>/g, '');
    });
    expect(new Set(annotations.map((annotation) => attr(annotation, 'office:name'))).size).toBe(5);
    expect(spanned).toEqual([
      ...Array(3).fill('that was questioned'),
      ...Array(2).fill('A long paragraph still in review.'),
    ]);
  });

  it('comes back through our own ODT import as the same threads, answers and resolved states', () => {
    const imported = importDocument(bytes, 'threads.odt');
    expect(importedShapes(imported)).toEqual(THREAD_SHAPES);
    expect(imported.threads.map((thread) => thread.comments.map((comment) => comment.date))).toEqual(
      THREAD_SHAPES.map((shape, t) => shape.comments.map((_, n) => commentDate(t, n))),
    );
    expect(markedTexts(imported)).toEqual(['that was questioned', 'A long paragraph still in review.']);
  });
});
