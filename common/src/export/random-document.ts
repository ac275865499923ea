import fc from 'fast-check';
import { Fragment, type Mark, type Node as PMNode } from 'prosemirror-model';
import type { EntryData, RichText } from '../bibliography/types';
import { CROSS_REFERENCE_FORMS } from '../editor/academic-nodes';
import { schema } from '../editor/schema';
import { checkDocument, createDocument, standardArticle } from '../editor/templates';
import { HEADING_NUMBERINGS, LATEX_CLASSES } from '../editor/vocabulary';
import { stripedPng } from './fixture-paper';
import type { ExportImage, ExportInput } from './model';

/**
 * Random documents the editor can make (issue 53, item 7), for the exporters' property tests:
 * every node and mark of the schema in random combinations, empty parts, very long and empty
 * titles, nested lists, tables with merged cells, footnotes with math, every optional part hidden
 * or not, citations of deleted entries, cross-references to nothing, equations that do not parse,
 * images the reader may not see. Built by fast-check from a plain description (`DocSpec`), so a
 * failure shrinks to a small document.
 *
 * The words of the text are `word` + number tokens ("alpha12"): the tests find each of them in
 * every format's text whatever its escapes. Other text is signs that formats must escape.
 */

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma', 'theta'];
/** What a writer must escape or keep: XML and LaTeX specials, scripts, emoji, spaces, a control character. */
const SIGNS = [
  '&',
  '<',
  '>',
  '"',
  "'",
  '%',
  '$',
  '#',
  '_',
  '{',
  '}',
  '~',
  '^',
  '\\',
  '--',
  '...',
  '[1]',
  '*',
  '`',
  '|',
  '@',
  'Ærø',
  'naïve',
  'Ελληνικά',
  'שלום',
  '中文',
  '😀',
  'e\u0301',
  '\u00a0',
  '\t',
  '\u000b',
];
/** Equations as users type them, with ones that do not parse or that LaTeX must refuse. */
export const RANDOM_EQUATIONS = [
  'E = mc^2',
  '\\frac{a}{b} + \\sqrt{x^2 + y^2}',
  '\\sum_{i=1}^{n} i',
  'A = \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}',
  '\\alpha_{1,2} \\le \\beta',
  '',
  '\\frac{a}{',
  '\\unknowncommand{x}',
  '\\input{/etc/passwd}',
  'x < y & z > w',
  '\\text{a % comment} $',
];

/** A word token ("alpha12"): found again in every output. */
const token = fc.tuple(fc.constantFrom(...WORDS), fc.nat(999)).map(([word, n]) => `${word}${n}`);
const piece = fc.oneof({ arbitrary: token, weight: 4 }, { arbitrary: fc.constantFrom(...SIGNS), weight: 1 });
/** Non-empty text of tokens and signs separated by spaces. */
const words = (max: number) =>
  fc.array(piece, { minLength: 1, maxLength: max }).map((list) => list.join(' '));

type MarkName =
  | 'em'
  | 'strong'
  | 'underline'
  | 'sup'
  | 'sub'
  | 'code'
  | 'smallcaps'
  | 'link'
  | 'comment'
  | 'insertion'
  | 'deletion';
const BODY_MARKS: MarkName[] = [
  'em',
  'strong',
  'underline',
  'sup',
  'sub',
  'code',
  'smallcaps',
  'link',
  'comment',
  'insertion',
  'deletion',
];
const TITLE_MARKS: MarkName[] = [
  'em',
  'strong',
  'underline',
  'sup',
  'sub',
  'smallcaps',
  'insertion',
  'deletion',
];

export type InlineSpec =
  | { kind: 'text'; text: string; marks: MarkName[] }
  | { kind: 'break' }
  | { kind: 'equation'; equation: number }
  | { kind: 'citation'; textual: boolean; refs: number[]; locator: string }
  | { kind: 'xref'; target: number }
  | { kind: 'footnote'; paragraphs: InlineSpec[][] };

export type BlockSpec =
  | { kind: 'paragraph'; inline: InlineSpec[] }
  | { kind: 'heading'; level: number; inline: InlineSpec[] }
  | { kind: 'quote'; blocks: BlockSpec[] }
  | { kind: 'list'; ordered: boolean; start: number; items: BlockSpec[][] }
  | { kind: 'code'; text: string }
  | { kind: 'rule' }
  | {
      kind: 'table';
      caption: string;
      width: number;
      rows: { header: boolean; cells: { span: [number, number]; blocks: BlockSpec[] }[] }[];
    }
  | {
      kind: 'figure';
      category: 'figure' | 'photo' | 'table' | 'equation' | 'listing' | 'none';
      image: number;
      equation: number;
      caption: string;
      aligned: 'left' | 'center' | 'right';
      width: number;
    };

export interface DocSpec {
  title: string;
  titleMarks: MarkName[];
  language: string;
  paperSize: 'A4' | 'US Letter';
  numbering: (typeof HEADING_NUMBERINGS)[number];
  latexClass: (typeof LATEX_CLASSES)[number];
  hidden: { subtitle: boolean; authors: boolean; abstract: boolean; keywords: boolean };
  subtitle: string;
  authors: { first: string; last: string; email: string; institution: string; orcid: string }[];
  abstract: BlockSpec[];
  keywords: string[];
  leaf: 'none' | 'toc' | 'separator';
  body: BlockSpec[];
  entries: number;
}

const inlineLeaf = (footnotes: boolean): fc.Arbitrary<InlineSpec> => {
  const leaves: fc.Arbitrary<InlineSpec>[] = [
    fc.record({
      kind: fc.constant('text' as const),
      text: words(8),
      marks: fc.subarray(BODY_MARKS, { maxLength: 3 }),
    }),
    fc.constant({ kind: 'break' as const }),
    fc.record({ kind: fc.constant('equation' as const), equation: fc.nat(RANDOM_EQUATIONS.length - 1) }),
    fc.record({
      kind: fc.constant('citation' as const),
      textual: fc.boolean(),
      // Entries 0..4 exist when the document has them; 9 was deleted from the bibliography.
      refs: fc.array(fc.constantFrom(0, 1, 2, 3, 4, 9), { minLength: 1, maxLength: 3 }),
      locator: fc.constantFrom('', '5', '12-14'),
    }),
    // A target: the n-th heading, figure or table; past the end, a target that is gone.
    fc.record({ kind: fc.constant('xref' as const), target: fc.nat(12) }),
  ];
  if (footnotes)
    leaves.push(
      fc.record({
        kind: fc.constant('footnote' as const),
        paragraphs: fc.array(fc.array(inlineLeaf(false), { maxLength: 4 }), { minLength: 1, maxLength: 2 }),
      }),
    );
  return fc.oneof(...leaves.map((arbitrary, index) => ({ arbitrary, weight: index === 0 ? 6 : 1 })));
};

const inlines = (max: number) => fc.array(inlineLeaf(true), { maxLength: max });

const { block } = fc.letrec<{ block: BlockSpec }>((tie) => ({
  block: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: fc.record({ kind: fc.constant('paragraph' as const), inline: inlines(8) }), weight: 8 },
    {
      arbitrary: fc.record({
        kind: fc.constant('heading' as const),
        level: fc.integer({ min: 1, max: 6 }),
        inline: inlines(3),
      }),
      weight: 3,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('quote' as const),
        blocks: fc.array(tie('block'), { minLength: 1, maxLength: 2 }),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('list' as const),
        ordered: fc.boolean(),
        start: fc.constantFrom(1, 1, 3, 0),
        items: fc.array(fc.array(tie('block'), { maxLength: 2 }), { minLength: 1, maxLength: 3 }),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({ kind: fc.constant('code' as const), text: fc.oneof(fc.constant(''), words(6)) }),
      weight: 1,
    },
    { arbitrary: fc.constant({ kind: 'rule' as const }), weight: 1 },
    { arbitrary: table(() => tie('block')), weight: 1 },
    {
      arbitrary: fc.record({
        kind: fc.constant('figure' as const),
        category: fc.constantFrom('figure', 'photo', 'table', 'listing', 'none'),
        // 0: no image; 1, 2: images the export has; 3: one the reader may not see.
        image: fc.nat(3),
        equation: fc.nat(RANDOM_EQUATIONS.length - 1),
        caption: fc.oneof(fc.constant(''), words(6)),
        aligned: fc.constantFrom('left', 'center', 'right'),
        width: fc.constantFrom(100, 50, 1),
      }),
      weight: 2,
    },
  ),
}));

/** A table of rows with cells spanning 1-2 rows and columns, filled to a rectangle when built. */
function table(inner: () => fc.Arbitrary<BlockSpec>): fc.Arbitrary<BlockSpec> {
  return fc.record({
    kind: fc.constant('table' as const),
    caption: fc.oneof(fc.constant(''), words(5)),
    width: fc.integer({ min: 1, max: 4 }),
    rows: fc.array(
      fc.record({
        header: fc.boolean(),
        cells: fc.array(
          fc.record({
            span: fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 2 })),
            blocks: fc.array(inner(), { minLength: 1, maxLength: 2 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  });
}

const blocks = (min: number, max: number) => fc.array(block, { minLength: min, maxLength: max });

const name = fc.oneof(fc.constant(''), token, words(2));

export const docSpec: fc.Arbitrary<DocSpec> = fc.record({
  title: fc.oneof(fc.constant(''), words(6), words(80)),
  titleMarks: fc.subarray(TITLE_MARKS, { maxLength: 2 }),
  language: fc.constantFrom('en-US', 'de-DE', 'fr-FR', 'bg-BG', 'pt-BR', 'es-ES', 'it-IT', 'he-IL'),
  paperSize: fc.constantFrom('A4', 'US Letter'),
  numbering: fc.constantFrom(...HEADING_NUMBERINGS),
  latexClass: fc.constantFrom(...LATEX_CLASSES),
  hidden: fc.record({
    subtitle: fc.boolean(),
    authors: fc.boolean(),
    abstract: fc.boolean(),
    keywords: fc.boolean(),
  }),
  subtitle: fc.oneof(fc.constant(''), words(5)),
  authors: fc.array(
    fc.record({
      first: name,
      last: name,
      email: fc.constantFrom('', 'a_b@example.org', 'x&y@example.org'),
      institution: name,
      orcid: fc.constantFrom('', '0000-0002-1825-0097', 'not-an-orcid'),
    }),
    { maxLength: 3 },
  ),
  abstract: fc.array(fc.record({ kind: fc.constant('paragraph' as const), inline: inlines(6) }), {
    maxLength: 2,
  }),
  keywords: fc.array(words(2), { maxLength: 3 }),
  leaf: fc.constantFrom('none', 'toc', 'separator'),
  body: blocks(0, 8),
  entries: fc.constantFrom(0, 5),
});

const rich = (text: string): RichText => [{ type: 'text', text }];

/** Bibliography entries 0..4 (no tokens in them: the words tests look only for the document's). */
function entry(index: number): EntryData {
  const titles: RichText[] = [
    rich('On the Structure of Problems'),
    [
      { type: 'text', text: 'The ' },
      { type: 'text', text: 'DNA', marks: [{ type: 'nocase' }] },
      { type: 'text', text: ' of & in 50% ' },
      { type: 'text', text: 'E. coli', marks: [{ type: 'em' }] },
    ],
    rich('Über Größen {und} $x_2$ \\ Mengen'),
    rich(''),
    rich('A Book Without Authors'),
  ];
  return {
    entry_key: ['lovelace', '', 'Lovelace', 'key with space', 'x_{1}'][index],
    bib_type: index % 2 ? 'book' : 'article-journal',
    fields: {
      ...(index === 4
        ? {}
        : {
            author: [
              { family: rich(['Lovelace', 'Noether', 'Ñúñez', "O'Brien"][index]), given: rich('Ada') },
            ],
          }),
      title: titles[index],
      date: ['1990', '1991-05', '', '2020/2021'][index] ?? '',
      ...(index % 2 ? { publisher: [rich('Open & Press')] } : { journaltitle: rich('Journal of Examples') }),
    } as unknown as EntryData['fields'],
    cats: [],
  };
}

const IMAGE_SRC = (n: number) => `/media/images/${n.toString(16).padStart(64, '0')}.png`;

interface Build {
  /** Ids of headings, figures and tables, in order: cross-reference targets. */
  ids: string[];
  /** A deleted/inserted suggestion or comment's counter. */
  serial: number;
}

function marksOf(names: MarkName[], build: Build, allowed: readonly string[]): Mark[] {
  let set: readonly Mark[] = [];
  for (const name of names) {
    if (!allowed.includes(name)) continue;
    const attrs =
      name === 'link'
        ? { href: build.serial % 2 ? 'https://example.org/a?b=1&c=<2>' : 'mailto:a@example.org' }
        : name === 'comment'
          ? { id: 900 + (build.serial % 3) }
          : name === 'insertion' || name === 'deletion'
            ? { user: 2, username: 'Grace & Co', date: Date.UTC(2024, 0, 2) }
            : null;
    build.serial++;
    const mark = schema.marks[name].create(attrs);
    // sup and sub exclude each other: the later one is left out.
    if (set.some((other) => other.type.excludes(mark.type) || mark.type.excludes(other.type))) continue;
    set = mark.addToSet(set);
  }
  return [...set];
}

function inlineNodes(specs: InlineSpec[], build: Build, allowed: readonly string[]): PMNode[] {
  const s = schema.nodes;
  return specs.map((spec) => {
    switch (spec.kind) {
      case 'text':
        return schema.text(spec.text, marksOf(spec.marks, build, allowed));
      case 'break':
        return s.hard_break.create();
      case 'equation':
        return s.equation.create({ equation: RANDOM_EQUATIONS[spec.equation] });
      case 'citation':
        return s.citation.create({
          format: spec.textual ? 'textcite' : 'autocite',
          references: spec.refs.map((ref) => ({ id: `1-${ref}`, prefix: '', locator: spec.locator })),
        });
      case 'xref':
        // Its form from the same draw (page forms too; the random stream and seeds stay as they were).
        return s.cross_reference.create({
          id: spec.target < 10 ? `t${spec.target}` : 'gone',
          form: CROSS_REFERENCE_FORMS[spec.target % CROSS_REFERENCE_FORMS.length],
        });
      default:
        return s.footnote.create(
          null,
          spec.paragraphs.map((inline) => s.paragraph.create(null, inlineNodes(inline, build, allowed))),
        );
    }
  });
}

function blockNodes(specs: BlockSpec[], build: Build, allowed: readonly string[]): PMNode[] {
  const s = schema.nodes;
  const target = () => {
    const id = `t${build.ids.length}`;
    build.ids.push(id);
    return id;
  };
  return specs.map((spec): PMNode => {
    switch (spec.kind) {
      case 'paragraph':
        return s.paragraph.create(null, inlineNodes(spec.inline, build, allowed));
      case 'heading':
        return s.heading.create(
          { level: spec.level, id: target() },
          inlineNodes(spec.inline, build, allowed),
        );
      case 'quote':
        return s.blockquote.create(null, blockNodes(spec.blocks, build, allowed));
      case 'list':
        return (spec.ordered ? s.ordered_list : s.bullet_list).create(
          spec.ordered ? { start: spec.start } : null,
          spec.items.map((item) => {
            // An item starts with a paragraph (the schema's list_item: paragraph block*).
            const inner = blockNodes(item, build, allowed);
            const first = inner[0]?.type === s.paragraph ? [] : [s.paragraph.create()];
            return s.list_item.create(null, [...first, ...inner]);
          }),
        );
      case 'code':
        return s.code_block.create(null, spec.text ? schema.text(spec.text) : null);
      case 'rule':
        return s.horizontal_rule.create();
      case 'table':
        return tableNode(spec, target(), build, allowed);
      default:
        return s.figure.create({
          id: target(),
          // No image: a display equation, as the editor makes them.
          category: spec.image ? spec.category : 'equation',
          image: spec.image,
          src: spec.image ? IMAGE_SRC(spec.image) : '',
          equation: spec.image ? '' : RANDOM_EQUATIONS[spec.equation],
          caption: spec.caption,
          aligned: spec.aligned,
          width: spec.width,
        });
    }
  });
}

/**
 * Lays the cells out on a grid `width` columns wide as prosemirror-tables expects: a cell's spans
 * are cut to the room left, and holes are filled with empty cells, so that every row covers the
 * width.
 */
function tableNode(
  spec: Extract<BlockSpec, { kind: 'table' }>,
  id: string,
  build: Build,
  allowed: readonly string[],
): PMNode {
  const s = schema.nodes;
  const height = spec.rows.length;
  const taken = Array.from({ length: height }, () => new Array<boolean>(spec.width).fill(false));
  const rows = spec.rows.map((row, r) => {
    const cells: PMNode[] = [];
    const queue = [...row.cells];
    for (let c = 0; c < spec.width; c++) {
      if (taken[r][c]) continue;
      const cell = queue.shift();
      let colspan = 1;
      let rowspan = 1;
      if (cell) {
        while (colspan < cell.span[0] && c + colspan < spec.width && !taken[r][c + colspan]) colspan++;
        // Column 0 spans no rows, so that every row keeps a cell of its own.
        rowspan = c === 0 ? 1 : Math.min(cell.span[1], height - r);
        // A cell spanning rows must not overlap one spanning from above.
        for (let down = 1; down < rowspan; down++)
          for (let x = c; x < c + colspan; x++) if (taken[r + down][x]) rowspan = down;
      }
      for (let down = 0; down < rowspan; down++)
        for (let x = c; x < c + colspan; x++) taken[r + down][x] = true;
      const type = row.header ? s.table_header : s.table_cell;
      const content = cell ? blockNodes(cell.blocks, build, allowed) : [s.paragraph.create()];
      cells.push(type.create({ colspan, rowspan }, content));
      c += colspan - 1;
    }
    return s.table_row.create(null, cells);
  });
  return s.table.create({ id, caption: spec.caption }, rows);
}

/** The document of a description, checked against the schema and the template's rules. */
export function buildDocument(spec: DocSpec): PMNode {
  const s = schema.nodes;
  const base = createDocument(schema, standardArticle, {
    title: spec.title,
    language: spec.language,
    paperSize: spec.paperSize,
  });
  const build: Build = { ids: [], serial: 0 };
  const parts: PMNode[] = [];
  base.forEach((part) => {
    const id = String(part.attrs.id);
    const allowed = (part.attrs.marks as string[] | undefined) ?? [];
    const marks = [...allowed, 'comment', 'insertion', 'deletion'];
    const hidden = (key: keyof DocSpec['hidden']) => ({ ...part.attrs, hidden: spec.hidden[key] });
    if (part.type.name === 'title') {
      parts.push(
        s.title.create(
          null,
          spec.title ? schema.text(spec.title, marksOf(spec.titleMarks, build, TITLE_MARKS)) : null,
        ),
      );
    } else if (id === 'subtitle')
      parts.push(part.type.create(hidden('subtitle'), spec.subtitle ? schema.text(spec.subtitle) : null));
    else if (id === 'authors')
      parts.push(
        part.type.create(
          hidden('authors'),
          spec.authors.map((author) =>
            s.contributor.create({
              firstname: author.first,
              lastname: author.last,
              email: author.email,
              institution: author.institution,
              orcid: author.orcid,
            }),
          ),
        ),
      );
    else if (id === 'abstract')
      parts.push(
        part.type.create(
          hidden('abstract'),
          blockNodes(
            spec.abstract.length ? spec.abstract : [{ kind: 'paragraph', inline: [] }],
            build,
            marks,
          ),
        ),
      );
    else if (id === 'keywords')
      parts.push(
        part.type.create(
          hidden('keywords'),
          spec.keywords.map((keyword) => s.keyword.create({ keyword })),
        ),
      );
    else if (id === 'body') {
      if (spec.leaf === 'toc') parts.push(s.toc_part.create({ id: 'toc', title: 'Contents' }));
      if (spec.leaf === 'separator')
        parts.push(s.separator_part.create({ id: 'separator', title: 'Separator' }));
      const body = blockNodes(spec.body, build, marks);
      parts.push(part.type.create(part.attrs, body.length ? body : s.paragraph.create()));
    } else parts.push(part);
  });
  const entries = Array.from({ length: spec.entries }, (_, index) =>
    s.bib_entry.create({ id: `1-${index}`, data: entry(index) }),
  );
  parts.push(s.bibliography_part.create(null, entries));
  const doc = s.doc.create(
    {
      template: 'standard-article',
      language: spec.language,
      paper_size: spec.paperSize,
      heading_numbering: spec.numbering,
      latex_class: spec.latexClass,
    },
    Fragment.from(parts),
  );
  doc.check();
  const problems = checkDocument(doc);
  if (problems.length) throw new Error(`not a document the editor makes: ${JSON.stringify(problems)}`);
  return doc;
}

/** The images of the random documents: 1 and 2 are there, 3 is one the reader may not see. */
export const RANDOM_IMAGES: Record<string, ExportImage> = {
  [IMAGE_SRC(1)]: { data: stripedPng(40, 30, [200, 80, 60]), type: 'image/png' },
  [IMAGE_SRC(2)]: { data: stripedPng(20, 60, [60, 160, 90]), type: 'image/png' },
};

/** The comment threads the `comment` marks name. */
const THREADS = [900, 901, 902].map((id) => ({
  id,
  user: 1,
  resolved: id === 901,
  assigned: null,
  created: Date.UTC(2024, 0, 1),
  comments: [
    {
      id: 1,
      user: 1,
      name: 'Ada <Lovelace>',
      text: 'Check & see',
      created: Date.UTC(2024, 0, 1),
      updated: Date.UTC(2024, 0, 1),
    },
  ],
}));

export function randomInput(doc: PMNode, csl: ExportInput['csl']): ExportInput {
  return { content: doc.toJSON(), threads: THREADS, images: RANDOM_IMAGES, csl };
}
