import { strFromU8, unzipSync } from 'fflate';
import type { Mark, Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { importDocument } from '../import/index';
import { attr, child, descendants, elements, parseXml, type XmlElement } from '../import/xml';
import { exportDocx } from './docx';
import {
  blockSuggestionsDocument,
  fixturePaper,
  joinSuggestionsDocument,
  pasteSuggestionsDocument,
} from './fixture-paper';
import { commentDate, importedShapes, markedTexts, THREAD_SHAPES, threadsDocument } from './fixture-threads';
import { prepareDocument } from './model';
import { latexToOmml } from './omml';

/** DOCX: every operator of an equation reaches Office math as text Word shows; header rows repeat. */

/** Each equation with the operators its OMML text runs must hold. */
const EQUATIONS: [string, string[]][] = [
  ['E = mc^2', ['=']],
  ['a + b - c \\cdot d', ['+', '−', '⋅']],
  ['x \\le y', ['≤']],
  ['\\sum_{i=1}^n i = \\frac{n(n+1)}{2}', ['=', '(', '+', ')']],
];

/** A document whose body is `body` (the standard article's other parts left empty). */
function documentWith(body: PMNode[]): PMNode {
  const base = createDocument(schema, standardArticle, { title: 'Equations', language: 'en-US' });
  return withBody(base, body);
}

function documentXml(doc: PMNode): XmlElement {
  const files = unzipSync(
    exportDocx(prepareDocument({ content: doc.toJSON(), threads: [], images: {}, csl: null })),
  );
  return parseXml(strFromU8(files['word/document.xml']));
}

/** The text of the m:t runs of an m:oMath, and any text outside them (which Word drops). */
function mathText(math: XmlElement): { runs: string; stray: string } {
  let stray = '';
  const walk = (node: XmlElement) => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1 && (c as XmlElement).nodeName !== 'm:t') walk(c as XmlElement);
      else if (c.nodeType === 3) stray += c.nodeValue ?? '';
    }
  };
  walk(math);
  return {
    runs: descendants(math, 'm:t')
      .map((t) => t.textContent)
      .join(''),
    stray: stray.trim(),
  };
}

describe('DOCX equations', () => {
  const s = schema.nodes;
  const doc = documentWith([
    s.paragraph.create(
      null,
      EQUATIONS.flatMap(([latex]) => [schema.text(' and '), s.equation.create({ equation: latex })]),
    ),
    ...EQUATIONS.map(([latex], index) =>
      s.figure.create({ id: `E${index}`, category: 'equation', equation: latex }),
    ),
  ]);
  const maths = descendants(documentXml(doc), 'm:oMath');

  it('keeps every operator in the text runs of inline and display equations', () => {
    expect(maths).toHaveLength(EQUATIONS.length * 2);
    EQUATIONS.forEach(([latex, operators], index) => {
      for (const math of [maths[index], maths[EQUATIONS.length + index]]) {
        const { runs, stray } = mathText(math);
        expect(stray, latex).toBe('');
        for (const operator of operators) expect(runs, latex).toContain(operator);
      }
    });
  });

  it('makes the sum an n-ary operator whose body is the summand, the "=" after it', () => {
    for (const math of [maths[3], maths[7]]) {
      const nary = descendants(math, 'm:nary');
      expect(nary).toHaveLength(1);
      expect(descendants(nary[0], 'm:chr')[0].getAttribute('m:val')).toBe('∑');
      const body = nary[0].lastChild as XmlElement;
      expect(body.nodeName).toBe('m:e');
      expect(mathText(body)).toEqual({ runs: 'i', stray: '' });
      expect(mathText(math).runs).toBe('i=1ni=n(n+1)2');
    }
  });

  it('ends the body of a large operator at the next relation', () => {
    const omml = latexToOmml('\\int_0^1 x\\,dx + \\sum_k a_k b \\le c', false) ?? '';
    const math = parseXml(omml.replace('<m:oMath', '<m:oMath xmlns:m="m" xmlns:w="w"'));
    const bodies = descendants(math, 'm:e').filter((e) => e.parentNode?.nodeName === 'm:nary');
    expect(bodies.map((body) => mathText(body))).toEqual([
      { runs: 'x dx+kakb', stray: '' },
      { runs: 'akb', stray: '' },
    ]);
    expect(mathText(math).stray).toBe('');
    expect(mathText(math).runs).toBe('01x dx+kakb≤c');
  });
});

describe('DOCX tables', () => {
  it('marks the leading header rows w:tblHeader, repeated on each page', () => {
    const paper = fixturePaper();
    const files = unzipSync(exportDocx(prepareDocument(paper.input)));
    const table = descendants(parseXml(strFromU8(files['word/document.xml'])), 'w:tbl')[0];
    const rows = descendants(table, 'w:tr').map((row) => ({
      text: descendants(row, 'w:t')
        .map((t) => t.textContent)
        .join(' '),
      header: descendants(row, 'w:tblHeader').length === 1,
    }));
    expect(rows).toEqual([
      { text: 'Group Results', header: true },
      { text: 'Mean Deviation', header: true },
      { text: 'A 1.5 0.2', header: false },
      { text: 'B 2.5', header: false },
    ]);
  });
});

/**
 * The orders of CT_PPr, CT_ParaRPr, CT_TrPr and CT_TcPr (ECMA-376 part 1, 17.3.1.26, 17.3.1.29,
 * 17.4.82, 17.4.70), as far as the export writes them: Word refuses a file whose properties are
 * out of this order.
 */
const PROPERTY_ORDER: Record<string, string[]> = {
  'w:pPr': [
    'w:pStyle',
    'w:keepNext',
    'w:pageBreakBefore',
    'w:numPr',
    'w:pBdr',
    'w:ind',
    'w:jc',
    'w:rPr',
    'w:pPrChange',
  ],
  'w:rPr': ['w:ins', 'w:del', 'w:rStyle', 'w:b', 'w:i', 'w:smallCaps', 'w:u', 'w:vertAlign', 'w:rPrChange'],
  'w:trPr': ['w:cantSplit', 'w:tblHeader', 'w:ins', 'w:del', 'w:trPrChange'],
  'w:tcPr': ['w:tcW', 'w:gridSpan', 'w:vMerge', 'w:cellIns', 'w:cellDel', 'w:tcPrChange'],
};

/** Every property element of the document that is unknown here or out of its schema order. */
function orderFaults(root: XmlElement): string[] {
  const faults: string[] = [];
  for (const [name, order] of Object.entries(PROPERTY_ORDER))
    for (const props of descendants(root, name)) {
      // A run's w:rPr holds formats only; a paragraph mark's (inside w:pPr) may start with w:ins/w:del.
      const names = elements(props).map((element) => element.nodeName);
      const indexes = names.map((element) => order.indexOf(element));
      if (indexes.some((index) => index < 0)) faults.push(`${name}: unknown ${names.join(' ')}`);
      else if (indexes.some((index, at) => at > 0 && index <= indexes[at - 1]))
        faults.push(`${name}: ${names.join(' ')}`);
    }
  return faults;
}

/** A paragraph of the body by its text (deleted text read too). */
function paragraphOf(root: XmlElement, text: string): XmlElement {
  const found = descendants(root, 'w:p').find(
    (p) =>
      [...descendants(p, 'w:t'), ...descendants(p, 'w:delText')].map((t) => t.textContent).join('') === text,
  );
  if (!found) throw new Error(`no paragraph ${text}`);
  return found;
}

/** What a paragraph's mark and runs say: the revision in its w:pPr/w:rPr and around its runs. */
function revisions(p: XmlElement) {
  const pPr = child(p, 'w:pPr');
  const markProps = pPr && child(pPr, 'w:rPr');
  const runs = elements(p).filter((element) => element.nodeName !== 'w:pPr');
  return {
    mark: markProps ? elements(markProps).map((e) => `${e.nodeName} ${attr(e, 'w:author')}`) : [],
    runs: runs.map((e) => e.nodeName),
    deletedText: descendants(p, 'w:delText').length > 0,
  };
}

describe('DOCX suggested joins', () => {
  const root = documentXml(joinSuggestionsDocument());

  it('deletes the paragraph mark of a join that keeps the text before it', () => {
    expect(['First', 'One', 'Lead'].map((text) => revisions(paragraphOf(root, text)).mark)).toEqual([
      ['w:del Ada Lovelace'],
      ['w:del Ada Lovelace'],
      ['w:del Ada Lovelace'],
    ]);
  });

  it("records a join above the text as the paragraph's numbering taken off, in w:pPrChange", () => {
    const pPr = child(paragraphOf(root, 'Five'), 'w:pPr') as XmlElement;
    expect(elements(pPr).map((e) => e.nodeName)).toEqual(['w:pStyle', 'w:ind', 'w:pPrChange']);
    const change = child(pPr, 'w:pPrChange') as XmlElement;
    expect(attr(change, 'w:author')).toBe('Ada Lovelace');
    const before = child(change, 'w:pPr') as XmlElement;
    expect(elements(before).map((e) => e.nodeName)).toEqual(['w:pStyle', 'w:numPr']);
    // The same numbering as "Four", the item it goes on.
    const four = child(child(paragraphOf(root, 'Four'), 'w:pPr') as XmlElement, 'w:numPr') as XmlElement;
    expect(child(before, 'w:numPr')?.toString()).toBe(four.toString());
  });
});

describe('DOCX paragraph marks of pasted blocks', () => {
  it('inserts the marks a paste made, as Word records them, and keeps the ones that were there', () => {
    const root = documentXml(pasteSuggestionsDocument());
    const marks = ['leftone', 'A', 'B', 'fiveright', 'xC', 'Dy'].map((text) =>
      `${text} ${revisions(paragraphOf(root, text)).mark.join(' ')}`.trim(),
    );
    expect(marks).toEqual([
      'leftone w:ins Grace Hopper',
      'A w:ins Grace Hopper',
      'B w:ins Grace Hopper',
      'fiveright',
      'xC w:ins Grace Hopper',
      'Dy',
    ]);
  });
});

describe('DOCX suggestions recorded on blocks', () => {
  const root = documentXml(blockSuggestionsDocument());

  it('tracks the paragraph marks and the text of an inserted and a deleted list item', () => {
    // As Word records Enter at the end of "Kept item": that paragraph's mark is the inserted one.
    // A deleted item: its text and its paragraph mark.
    const items = ['Kept item', 'New item', 'Old item', 'Last item'];
    expect(Object.fromEntries(items.map((text) => [text, revisions(paragraphOf(root, text))]))).toEqual({
      'Kept item': { mark: ['w:ins Grace Hopper'], runs: ['w:r'], deletedText: false },
      'New item': { mark: [], runs: ['w:ins'], deletedText: false },
      'Old item': { mark: ['w:del Ada Lovelace'], runs: ['w:del'], deletedText: true },
      'Last item': { mark: [], runs: ['w:r'], deletedText: false },
    });
    const pPr = child(paragraphOf(root, 'Kept item'), 'w:pPr') as XmlElement;
    expect(elements(pPr).map((e) => e.nodeName)).toEqual(['w:pStyle', 'w:numPr', 'w:rPr']);
  });

  it("marks inserted and deleted table rows in w:trPr, their cells' text and paragraph marks too", () => {
    const rows = descendants(descendants(root, 'w:tbl')[0], 'w:tr');
    const rowProps = rows.map((row) => {
      const props = child(row, 'w:trPr');
      return props ? elements(props).map((e) => `${e.nodeName} ${attr(e, 'w:author')}`) : [];
    });
    expect(rowProps).toEqual([[], ['w:ins Grace Hopper'], ['w:del Ada Lovelace']]);
    expect(revisions(paragraphOf(root, 'C'))).toEqual({
      mark: ['w:ins Grace Hopper'],
      runs: ['w:ins'],
      deletedText: false,
    });
    // The deleted row's text carries no mark of its own: it is deleted with the row.
    expect(revisions(paragraphOf(root, 'E'))).toEqual({
      mark: ['w:del Ada Lovelace'],
      runs: ['w:del'],
      deletedText: true,
    });
    for (const trackChange of [...descendants(root, 'w:ins'), ...descendants(root, 'w:del')])
      expect(attr(trackChange, 'w:id')).toMatch(/^\d+$/);
  });

  it('writes every property in the schema order Word requires', () => {
    expect(orderFaults(root)).toEqual([]);
  });

  it('tracks whole blocks: a deleted list, an inserted header row, a deleted column cell, a first inserted paragraph', () => {
    const ins = schema.marks.insertion.create({ user: 2, username: 'Grace Hopper', date: 1 });
    const del = schema.marks.deletion.create({ user: 3, username: 'Ada Lovelace', date: 2 });
    const s = schema.nodes;
    const p = (text: string, marks: Mark[] = []) => s.paragraph.create(null, schema.text(text, marks));
    const doc = documentWith([
      p('First', [ins]).mark([ins]),
      s.blockquote.create(null, [p('Quoted'), p('Joined').mark([del])]),
      s.bullet_list.create(
        null,
        [s.list_item.create(null, p('Gone one')), s.list_item.create(null, p('Gone two'))],
        [del],
      ),
      s.table.create(null, [
        s.table_row.create(
          null,
          [s.table_header.create(null, p('Head', [ins])), s.table_header.create(null, p('Col', [ins]))],
          [ins],
        ),
        s.table_row.create(null, [
          s.table_cell.create(null, p('Kept')),
          s.table_cell.create(null, p('Dropped'), [del]),
        ]),
      ]),
      p('After the table', [ins]).mark([ins]),
    ]);
    const xml = documentXml(doc);
    expect(orderFaults(xml)).toEqual([]);
    // First in its part: nothing before it to join with, its own paragraph mark is inserted.
    expect(revisions(paragraphOf(xml, 'First')).mark).toEqual(['w:ins Grace Hopper']);
    // After a table, likewise (rejecting removes it: it cannot be joined with the table).
    expect(revisions(paragraphOf(xml, 'After the table')).mark).toEqual(['w:ins Grace Hopper']);
    // A suggested join inside a quotation: the quotation's style stays with the tracked mark.
    const quoted = child(paragraphOf(xml, 'Quoted'), 'w:pPr') as XmlElement;
    expect(elements(quoted).map((e) => e.nodeName)).toEqual(['w:pStyle', 'w:rPr']);
    expect(attr(child(quoted, 'w:pStyle'), 'w:val')).toBe('BlockText');
    expect(revisions(paragraphOf(xml, 'Quoted')).mark).toEqual(['w:del Ada Lovelace']);
    for (const text of ['Gone one', 'Gone two'])
      expect(revisions(paragraphOf(xml, text))).toEqual({
        mark: ['w:del Ada Lovelace'],
        runs: ['w:del'],
        deletedText: true,
      });
    const [header, body] = descendants(xml, 'w:tr');
    expect(elements(child(header, 'w:trPr') as XmlElement).map((e) => e.nodeName)).toEqual([
      'w:tblHeader',
      'w:ins',
    ]);
    const cells = descendants(body, 'w:tcPr').map((props) => elements(props).map((e) => e.nodeName));
    expect(cells).toEqual([['w:tcW'], ['w:tcW', 'w:cellDel']]);
    expect(revisions(paragraphOf(xml, 'Dropped'))).toEqual({
      mark: ['w:del Ada Lovelace'],
      runs: ['w:del'],
      deletedText: true,
    });
  });
});

describe('DOCX property order', () => {
  it('keeps the schema order in the fixture paper (formats, comments, footnotes, suggestions)', () => {
    const files = unzipSync(exportDocx(prepareDocument(fixturePaper().input)));
    for (const name of ['word/document.xml', 'word/footnotes.xml'])
      expect(orderFaults(parseXml(strFromU8(files[name]))), name).toEqual([]);
  });

  it('sorts run formats into the schema order, the format change last', () => {
    const m = schema.marks;
    const change = m.format_change.create({
      user: 2,
      username: 'Grace Hopper',
      date: 1,
      before: ['em'],
      after: ['strong'],
    });
    const marks = [
      m.em.create(),
      m.strong.create(),
      m.underline.create(),
      m.smallcaps.create(),
      m.sup.create(),
      change,
    ];
    const xml = documentXml(
      documentWith([schema.nodes.paragraph.create(null, schema.text('All formats', marks))]),
    );
    expect(orderFaults(xml)).toEqual([]);
    const props = child(descendants(paragraphOf(xml, 'All formats'), 'w:r')[0], 'w:rPr') as XmlElement;
    expect(elements(props).map((e) => e.nodeName)).toEqual([
      'w:b',
      'w:i',
      'w:smallCaps',
      'w:u',
      'w:vertAlign',
      'w:rPrChange',
    ]);
  });
});

describe('DOCX comment threads (issue 54)', () => {
  const input = threadsDocument();
  const bytes = exportDocx(prepareDocument(input));
  const files = unzipSync(bytes);
  const xml = (name: string) => parseXml(strFromU8(files[name]));
  const comments = descendants(xml('word/comments.xml'), 'w:comment');
  const extended = descendants(xml('word/commentsExtended.xml'), 'w15:commentEx');
  const lastParagraph = (comment: XmlElement) =>
    attr(descendants(comment, 'w:p').at(-1) ?? null, 'w14:paraId');

  it('writes each comment of a thread as its own Word comment with its author and date', () => {
    expect(
      comments.map((comment) => ({
        name: attr(comment, 'w:author'),
        date: attr(comment, 'w:date'),
        paragraphs: descendants(comment, 'w:p').map((p) => p.textContent),
      })),
    ).toEqual(
      THREAD_SHAPES.flatMap((shape, t) =>
        shape.comments.map((comment, n) => ({
          name: comment.name,
          date: new Date(commentDate(t, n)).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          paragraphs: comment.text.split('\n'),
        })),
      ),
    );
    expect(new Set(comments.map((comment) => attr(comment, 'w:id'))).size).toBe(5);
    expect(descendants(comments[0], 'w:annotationRef')).toHaveLength(1);
  });

  it('anchors every comment of a thread on its text range', () => {
    const document = strFromU8(files['word/document.xml']);
    const anchored = (id: string) =>
      new RegExp(
        `<w:commentRangeStart w:id="${id}"/>(?:(?!<w:commentRangeEnd w:id="${id}"/>).)*<w:commentRangeEnd w:id="${id}"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="${id}"/></w:r>`,
      ).exec(document)?.[0] ?? '';
    const texts = comments.map((comment) =>
      [...anchored(attr(comment, 'w:id')).matchAll(/<w:t[^>]*>([^<]*)</g)].map(([, text]) => text).join(''),
    );
    expect(texts.slice(0, 3)).toEqual(Array(3).fill('that was questioned'));
    expect(texts.slice(3)).toEqual(Array(2).fill('A long paragraph still in review.'));
  });

  it('links the answers to the first comment and marks a resolved thread done in commentsExtended', () => {
    const ids = comments.map(lastParagraph);
    expect(ids.every((id) => /^[0-7][0-9A-F]{7}$/.test(id))).toBe(true);
    expect(
      extended.map((entry) => [
        attr(entry, 'w15:paraId'),
        attr(entry, 'w15:paraIdParent'),
        attr(entry, 'w15:done'),
      ]),
    ).toEqual([
      [ids[0], '', '1'],
      [ids[1], ids[0], '1'],
      [ids[2], ids[0], '1'],
      [ids[3], '', '0'],
      [ids[4], ids[3], '0'],
    ]);
    // Every paragraph id is unique in the package (Word repairs a file with duplicates).
    const all = descendants(xml('word/comments.xml'), 'w:p').map((p) => attr(p, 'w14:paraId'));
    expect(new Set(all).size).toBe(all.length);
  });

  it('declares commentsExtended.xml in the relationships and content types', () => {
    expect(strFromU8(files['word/_rels/document.xml.rels'])).toContain(
      'Type="http://schemas.microsoft.com/office/2011/relationships/commentsExtended" Target="commentsExtended.xml"',
    );
    expect(strFromU8(files['[Content_Types].xml'])).toContain(
      '<Override PartName="/word/commentsExtended.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml"/>',
    );
  });

  it('comes back through our own DOCX import as the same threads, answers and resolved states', () => {
    const imported = importDocument(bytes, 'threads.docx');
    expect(importedShapes(imported)).toEqual(THREAD_SHAPES);
    expect(imported.threads.map((thread) => thread.comments.map((comment) => comment.date))).toEqual(
      THREAD_SHAPES.map((shape, t) => shape.comments.map((_, n) => commentDate(t, n))),
    );
    expect(markedTexts(imported)).toEqual(['that was questioned', 'A long paragraph still in review.']);
  });
});
