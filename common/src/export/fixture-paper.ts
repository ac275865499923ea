import { zlibSync } from 'fflate';
import { Fragment, type Mark, type Node as PMNode, Slice } from 'prosemirror-model';
import { EditorState, TextSelection } from 'prosemirror-state';
import type { EntryData } from '../bibliography/types';
import { addToBibliography } from '../editor/academic-commands';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { trackTransaction } from '../editor/track-changes';
import type { CommentThread } from '../ws/review-messages';
import type { ExportImage, ExportInput } from './model';

/**
 * The fixture paper of the export tests and the export benchmark: every element a paper has
 * (headings, lists, a table with merged cells, footnotes, equations, citations, figures,
 * comments, tracked changes, cross-references), at any length.
 */

export interface FixtureSize {
  /** Sections of the body (each a heading 1 with text; every third with a heading 2). */
  sections: number;
  equations: number;
  citations: number;
  figures: number;
  /** Paragraphs of filler text per section. */
  paragraphs: number;
}

export const FIXTURE_PAPER: FixtureSize = {
  sections: 5,
  equations: 10,
  citations: 20,
  figures: 3,
  paragraphs: 2,
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A real PNG of one colour with a diagonal stripe (an image viewers and converters accept). */
export function stripedPng(width: number, height: number, rgb: [number, number, number]): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) {
      const stripe = Math.abs(x - y) < 3;
      raw.set(stripe ? [20, 20, 20] : rgb, row + 1 + x * 3);
    }
  }
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(raw)),
    chunk('IEND', new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}

const text = (value: string) => [{ type: 'text', text: value }];

function entry(index: number): EntryData {
  const book = index % 4 === 3;
  return {
    entry_key: `source${index}`,
    bib_type: book ? 'book' : 'article',
    fields: {
      author: [
        {
          family: text(
            ['Lovelace', 'Noether', 'Ramanujan', 'Hopper', 'Turing'][index % 5] + (index > 4 ? index : ''),
          ),
          given: text('Ada'),
        },
      ],
      title: text(`On the structure of problem ${index}`),
      ...(book
        ? { publisher: [text('Open Press')], location: [text('Berlin')] }
        : {
            journaltitle: text('Journal of Examples'),
            volume: text(String(10 + index)),
            pages: [[text(String(index * 10 + 1)), text(String(index * 10 + 9))]],
          }),
      date: String(1990 + index),
    } as unknown as EntryData['fields'],
    cats: [],
  };
}

const EQUATIONS = [
  'E = mc^2',
  '\\frac{a}{b} + \\sqrt{x^2 + y^2}',
  '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
  '\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}',
  '\\alpha + \\beta = \\gamma',
  'x_{1,2} = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
  '\\lim_{n \\to \\infty} \\left(1 + \\frac{1}{n}\\right)^n = e',
  'A = \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}',
  '\\nabla \\cdot \\mathbf{E} = \\frac{\\rho}{\\varepsilon_0}',
  'f(x) = \\sum_{k=0}^{\\infty} \\frac{f^{(k)}(0)}{k!} x^k',
];

export interface FixturePaper {
  input: ExportInput;
  doc: PMNode;
  /** Facts the tests check the output against. */
  headings: string[];
  equations: string[];
  footnotes: string[];
  comments: string[];
  entries: number;
}

/** Builds the paper; `imageSrc(n)` names the n-th figure's image (tests: /media/images/<hash>.png). */
export function fixturePaper(
  size: FixtureSize = FIXTURE_PAPER,
  title = 'Structures of Example Problems',
): FixturePaper {
  const s = schema.nodes;
  const base = createDocument(schema, standardArticle, { title, language: 'en-US' });
  const headings: string[] = [];
  const equations: string[] = [];
  const footnotes: string[] = [];
  const comments: string[] = [];
  const images: Record<string, ExportImage> = {};
  const threads: CommentThread[] = [];
  const ins = schema.marks.insertion.create({
    user: 2,
    username: 'Grace Hopper',
    date: Date.UTC(2024, 0, 2),
  });
  const del = schema.marks.deletion.create({ user: 2, username: 'Grace Hopper', date: Date.UTC(2024, 0, 3) });
  let citationsLeft = size.citations;
  let equationsLeft = size.equations;
  let figuresLeft = size.figures;
  let citeIndex = 0;
  const cite = (format: 'autocite' | 'textcite') => {
    citationsLeft--;
    const n = citeIndex++ % size.citations;
    return s.citation.create({
      format,
      references: [
        { id: `1-${n}`, prefix: '', locator: format === 'autocite' && n % 3 === 0 ? String(n + 5) : '' },
      ],
    });
  };
  const body: PMNode[] = [];
  const sectionsWanted = Math.max(size.sections, 1);
  for (let section = 0; section < sectionsWanted; section++) {
    const heading = `Section ${section + 1} on structures`;
    headings.push(heading);
    body.push(s.heading.create({ level: 1, id: `H${section}` }, schema.text(heading)));
    const paragraphsHere = section === sectionsWanted - 1 ? size.paragraphs : size.paragraphs;
    for (let p = 0; p < paragraphsHere; p++) {
      const content: PMNode[] = [
        schema.text(
          `This paragraph ${p + 1} of section ${section + 1} discusses the results in detail, with `,
        ),
      ];
      const perParagraph = Math.ceil(size.citations / (sectionsWanted * size.paragraphs));
      for (let c = 0; c < perParagraph && citationsLeft > 0; c++) {
        content.push(cite(c % 2 ? 'textcite' : 'autocite'), schema.text(' and '));
      }
      const perEquation = Math.ceil(size.equations / (sectionsWanted * size.paragraphs * 2));
      for (let e = 0; e < perEquation && equationsLeft > 0; e++) {
        const latex = EQUATIONS[(size.equations - equationsLeft) % EQUATIONS.length];
        equationsLeft--;
        equations.push(latex);
        content.push(schema.text(' the relation '), s.equation.create({ equation: latex }), schema.text(' '));
      }
      content.push(schema.text('as observed in practice.'));
      body.push(s.paragraph.create(null, content));
    }
    if (section === 0) {
      const note = `A footnote with remarks on section ${section + 1}.`;
      footnotes.push(note);
      const threadId = 501;
      const commentText = 'Please check this claim.';
      comments.push(commentText);
      threads.push({
        id: threadId,
        user: 1,
        resolved: false,
        assigned: null,
        created: Date.UTC(2024, 0, 1),
        comments: [
          {
            id: 1,
            user: 1,
            name: 'Ada Lovelace',
            text: commentText,
            created: Date.UTC(2024, 0, 1),
            updated: Date.UTC(2024, 0, 1),
          },
        ],
      });
      body.push(
        s.paragraph.create(null, [
          schema.text('A claim that needs a comment', [schema.marks.comment.create({ id: threadId })]),
          schema.text(' and a footnote'),
          s.footnote.create(null, s.paragraph.create(null, schema.text(note))),
          schema.text('. Suggested: '),
          schema.text('inserted words', [ins]),
          schema.text(' and '),
          schema.text('deleted words', [del]),
          schema.text('. See '),
          s.cross_reference.create({ id: 'F0' }),
          schema.text(', '),
          s.cross_reference.create({ id: 'T0' }),
          schema.text(' and '),
          s.cross_reference.create({ id: 'H1' }),
          schema.text('.'),
        ]),
      );
      body.push(
        s.bullet_list.create(null, [
          s.list_item.create(null, s.paragraph.create(null, schema.text('First point'))),
          s.list_item.create(null, [
            s.paragraph.create(null, schema.text('Second point')),
            s.ordered_list.create(null, [
              s.list_item.create(null, s.paragraph.create(null, schema.text('Nested one'))),
              s.list_item.create(null, s.paragraph.create(null, schema.text('Nested two'))),
            ]),
          ]),
        ]),
      );
      const cell = (value: string, attrs: Record<string, number> = {}) =>
        s.table_cell.create(
          { colspan: 1, rowspan: 1, ...attrs },
          s.paragraph.create(null, value ? schema.text(value) : null),
        );
      const header = (value: string, attrs: Record<string, number> = {}) =>
        s.table_header.create(
          { colspan: 1, rowspan: 1, ...attrs },
          s.paragraph.create(null, schema.text(value)),
        );
      body.push(
        s.table.create({ id: 'T0', caption: 'Measured values' }, [
          s.table_row.create(null, [header('Group', { rowspan: 2 }), header('Results', { colspan: 2 })]),
          s.table_row.create(null, [header('Mean'), header('Deviation')]),
          s.table_row.create(null, [cell('A'), cell('1.5'), cell('0.2')]),
          s.table_row.create(null, [cell('B'), cell('2.5', { colspan: 2 })]),
        ]),
      );
    }
    if (figuresLeft > 0) {
      const n = size.figures - figuresLeft;
      figuresLeft--;
      const png = stripedPng(
        120 + n * 10,
        80,
        [
          [200, 80, 60],
          [60, 160, 90],
          [70, 90, 200],
        ][n % 3] as [number, number, number],
      );
      const src = `/media/images/${(n + 1).toString(16).padStart(64, '0')}.png`;
      images[src] = { data: png, type: 'image/png' };
      body.push(
        s.figure.create({
          id: `F${n}`,
          category: 'figure',
          image: n + 1,
          src,
          caption: `A striped image number ${n + 1}`,
          width: 60,
        }),
      );
    }
    if (section % 3 === 1) {
      body.push(
        s.heading.create({ level: 2, id: `H${section}b` }, schema.text(`Details of section ${section + 1}`)),
      );
      headings.push(`Details of section ${section + 1}`);
      if (equationsLeft > 0) {
        const latex = EQUATIONS[(size.equations - equationsLeft) % EQUATIONS.length];
        equationsLeft--;
        equations.push(latex);
        body.push(s.figure.create({ id: `E${section}`, category: 'equation', equation: latex }));
      }
    }
  }
  // Whatever the paragraphs did not take.
  const rest: PMNode[] = [schema.text('Finally ')];
  while (equationsLeft > 0) {
    const latex = EQUATIONS[(size.equations - equationsLeft) % EQUATIONS.length];
    equationsLeft--;
    equations.push(latex);
    rest.push(s.equation.create({ equation: latex }), schema.text(', '));
  }
  while (citationsLeft > 0) rest.push(cite('autocite'), schema.text(' '));
  rest.push(schema.text('conclude.'));
  body.push(s.paragraph.create(null, rest));

  const parts: PMNode[] = [];
  base.forEach((part) => {
    const id = String(part.attrs.id);
    if (id === 'body') parts.push(part.type.create(part.attrs, body));
    else if (id === 'authors')
      parts.push(
        part.type.create(part.attrs, [
          s.contributor.create({ firstname: 'Ada', lastname: 'Lovelace', institution: 'Analytical Society' }),
          s.contributor.create({
            firstname: 'Emmy',
            lastname: 'Noether',
            institution: 'University of Göttingen',
          }),
        ]),
      );
    else if (id === 'abstract')
      parts.push(
        part.type.create(
          part.attrs,
          s.paragraph.create(null, schema.text('We study example problems and their structures.')),
        ),
      );
    else if (id === 'keywords')
      parts.push(
        part.type.create(part.attrs, [
          s.keyword.create({ keyword: 'structures' }),
          s.keyword.create({ keyword: 'examples' }),
        ]),
      );
    else parts.push(part);
  });
  const entries = new Map<string, EntryData>();
  for (let i = 0; i < size.citations && i < 200; i++) entries.set(`1-${i}`, entry(i));
  const doc = addToBibliography(
    EditorState.create({ doc: base.type.create(base.attrs, parts) }).tr,
    entries,
  ).doc;
  doc.check();
  return {
    doc,
    input: { content: doc.toJSON(), threads, images, csl: null },
    headings,
    equations,
    footnotes,
    comments,
    entries: entries.size,
  };
}

/**
 * A short document with suggestions recorded on blocks (issue 18): in a list, an item inserted
 * (Enter after "Kept item", then its text) and one deleted (its text and the boundary after it,
 * as deleting the whole item records it); in a table, a row inserted and a row deleted. Accepted,
 * it reads: items "Kept item", "New item", "Last item"; rows "A B", "C D".
 */
export function blockSuggestionsDocument(): PMNode {
  const s = schema.nodes;
  const ins = schema.marks.insertion.create({
    user: 2,
    username: 'Grace Hopper',
    date: Date.UTC(2024, 0, 2),
  });
  const del = schema.marks.deletion.create({ user: 3, username: 'Ada Lovelace', date: Date.UTC(2024, 0, 3) });
  const text = (value: string, marks: Mark[] = []) => schema.text(value, marks);
  const paragraph = (value: string, marks: Mark[] = []) => s.paragraph.create(null, text(value, marks));
  const item = (child: PMNode, marks: Mark[] = []) => s.list_item.create(null, child, marks);
  const cell = (value: string, marks: Mark[] = []) => s.table_cell.create(null, paragraph(value, marks));
  const row = (cells: PMNode[], marks: Mark[] = []) => s.table_row.create(null, cells, marks);
  const base = createDocument(schema, standardArticle, { title: 'Block suggestions', language: 'en-US' });
  const body = [
    paragraph('Before the list.'),
    s.bullet_list.create(null, [
      item(paragraph('Kept item')),
      item(paragraph('New item', [ins]), [ins]),
      item(paragraph('Old item', [del])),
      item(paragraph('Last item'), [del]),
    ]),
    s.table.create(null, [
      row([cell('A'), cell('B')]),
      row([cell('C', [ins]), cell('D', [ins])], [ins]),
      row([cell('E'), cell('F')], [del]),
    ]),
    paragraph('After the table.'),
  ];
  const parts: PMNode[] = [];
  base.forEach((part) => {
    parts.push(part.attrs.id === 'body' ? part.type.create(part.attrs, body) : part);
  });
  return base.type.create(base.attrs, parts);
}

/**
 * Suggested joins that keep the text before them (Backspace at the start of a block, issue 18): a
 * paragraph into the one before, a list item's paragraph into the item before, a heading into a
 * paragraph; and an item into the one before, its paragraph kept (a join above the text). Accepted,
 * it reads: "Firstsecond", the items "Onetwo" and "Three", "Leadheading", one item "Four" with a
 * second paragraph "Five".
 */
export function joinSuggestionsDocument(): PMNode {
  const s = schema.nodes;
  const del = schema.marks.deletion.create({ user: 3, username: 'Ada Lovelace', date: Date.UTC(2024, 0, 3) });
  // Backspace at the start of an item: its paragraph goes on the item before, as its second.
  const aboveText = schema.marks.deletion.create({ ...del.attrs, join: 1 });
  const paragraph = (value: string, marks: Mark[] = []) =>
    s.paragraph.create(null, schema.text(value), marks);
  const item = (child: PMNode, marks: Mark[] = []) => s.list_item.create(null, child, marks);
  const base = createDocument(schema, standardArticle, { title: 'Joins', language: 'en-US' });
  return withBody(base, [
    paragraph('First'),
    paragraph('second', [del]),
    s.bullet_list.create(null, [
      item(paragraph('One')),
      item(paragraph('two'), [del]),
      item(paragraph('Three')),
    ]),
    paragraph('Lead'),
    s.heading.create({ level: 2, id: 'h-9' }, schema.text('heading'), [del]),
    s.bullet_list.create(null, [item(paragraph('Four')), item(paragraph('Five'), [aboveText])]),
  ]);
}

/**
 * Blocks pasted as suggestions (issue 18), made by the editor's own tracking: into "left|right",
 * the paragraphs "one" and "five" around a list whose item holds the paragraphs "A" and "B"; into
 * the list item "x|y", an item of the paragraphs "C" and "D" (the item then holds "xC" and "Dy").
 * As Word records such a paste, the paragraph marks after "leftone", "A", "B" and "xC" are
 * inserted; those after "fiveright" and "Dy" are the ones that were there.
 */
export function pasteSuggestionsDocument(): PMNode {
  const s = schema.nodes;
  const paragraph = (text: string) => s.paragraph.create(null, schema.text(text));
  const item = (...blocks: PMNode[]) => s.list_item.create(null, blocks);
  const base = createDocument(schema, standardArticle, { title: 'Pasted', language: 'en-US' });
  let state = EditorState.create({
    doc: withBody(base, [paragraph('leftright'), s.bullet_list.create(null, [item(paragraph('xy'))])]),
  });
  const grace = { id: 2, username: 'Grace Hopper' };
  const pasteAfter = (text: string, slice: Slice) => {
    let at = -1;
    state.doc.descendants((node, pos) => {
      if (at < 0 && node.isText && node.text === text) at = pos + (text === 'leftright' ? 4 : 1);
      return at < 0;
    });
    const tr = state.tr.setSelection(TextSelection.create(state.doc, at)).replaceSelection(slice);
    const tracked = trackTransaction(tr, state, grace, Date.UTC(2024, 0, 2));
    if (!tracked) throw new Error('the paste could not be suggested');
    state = state.apply(tracked);
  };
  pasteAfter(
    'leftright',
    new Slice(
      Fragment.from([
        paragraph('one'),
        s.bullet_list.create(null, [item(paragraph('A'), paragraph('B'))]),
        paragraph('five'),
      ]),
      1,
      1,
    ),
  );
  pasteAfter(
    'xy',
    new Slice(Fragment.from(s.bullet_list.create(null, [item(paragraph('C'), paragraph('D'))])), 3, 3),
  );
  return state.doc;
}
