import {
  type DOMOutputSpec,
  type MarkSpec,
  type NodeSpec,
  type Node as PMNode,
  Schema,
} from 'prosemirror-model';
import { tableNodes } from 'prosemirror-tables';
import { FEATURE_NODES } from '../features/registry';
import { academicNodes, templatePartAttrs, withTableCaption } from './academic-nodes';
import { listAttr, plainElement, stringAttr, stringAttrsRule, textAtom } from './dom-attrs';
import { BLOCK_TRACK_MARKS, REVIEW_MARK_SPECS, REVIEW_MARKS } from './review-marks';
import { isSafeHref } from './safe-links';

/**
 * The one document schema of Scriptorium, shared by the browser editor and the collaboration
 * server (which validates every incoming step against it).
 *
 * A document is `title part*`: the title is fixed because it is also the document's title in the
 * overview; the parts after it come from a template (templates.ts) and are generic kinds
 * (single-line text, rich text, contributors, keywords) carrying their template id and the
 * elements and marks the template allows in them, so that user-defined templates need no new
 * node types.
 *
 * Room left for later issues: `equation`, `citation`, `figure` and `cross_reference` nodes join
 * the `inline`/`block` groups under those names. Nodes holding blocks allow the tracked-change
 * marks on them (BLOCK_TRACK_MARKS: suggested splits, joins and block type changes).
 */

export { COMMENT_MARK, isReviewMark, TRACKED_CHANGE_MARKS, type TrackedChangeMark } from './review-marks';
export { isSafeHref } from './safe-links';
export {
  BODY_ELEMENTS,
  type BodyElement,
  FORMAT_MARKS,
  type FormatMark,
  PAPER_SIZES,
  type PaperSize,
} from './vocabulary';

/** Attributes every template part carries: where it came from and what it allows. */
const partAttrs = {
  ...templatePartAttrs('', ''),
  /** The template's help text for authors, copied so that it outlives the template ('' for none). */
  help: { default: '' },
};

function partDOM(kind: string, attrs: Record<string, unknown>): DOMOutputSpec {
  return [
    'div',
    {
      class: `doc-part doc-${kind}${attrs.hidden ? ' doc-part-hidden' : ''}`,
      'data-part': kind,
      'data-part-id': String(attrs.id),
      'data-title': String(attrs.title),
      'data-optional': attrs.optional ? 'true' : 'false',
      'data-hidden': attrs.hidden ? 'true' : 'false',
      'data-elements': (attrs.elements as string[]).join(' '),
      'data-marks': (attrs.marks as string[]).join(' '),
      ...(attrs.help ? { 'data-help': String(attrs.help) } : {}),
    },
    0,
  ];
}

function partParse(kind: string, tag = 'div'): NodeSpec['parseDOM'] {
  return [
    {
      tag: `${tag}[data-part="${kind}"]`,
      getAttrs: (dom: HTMLElement) => ({
        id: stringAttr(dom, 'data-part-id'),
        title: stringAttr(dom, 'data-title'),
        optional: dom.getAttribute('data-optional') === 'true',
        hidden: dom.getAttribute('data-hidden') === 'true',
        elements: listAttr(dom, 'data-elements'),
        marks: listAttr(dom, 'data-marks'),
        help: stringAttr(dom, 'data-help'),
      }),
    },
  ];
}

/** A template part of `kind`: in the group `part`, with the part attributes, parsed from and drawn as its div. */
function partSpec(kind: string, spec: NodeSpec): NodeSpec {
  return {
    group: 'part',
    attrs: partAttrs,
    parseDOM: partParse(kind),
    toDOM: (node) => partDOM(kind, node.attrs),
    ...spec,
  };
}

const headingLevels = [1, 2, 3, 4, 5, 6] as const;

const nodes: Record<string, NodeSpec> = {
  doc: {
    content: 'title part*',
    // No caret between parts: text typed there would make a new part, which the template forbids.
    allowGapCursor: false,
    attrs: {
      /** The template the document was made from (templates.ts). */
      template: { default: 'standard-article' },
      /** BCP 47 tag: the editor's `lang`, so the browser spell-checks in it; smart quotes follow it. */
      language: { default: 'en-US' },
      paper_size: { default: 'A4' },
      /** The CSL style citations are rendered in (a file name of web/public/csl/styles). */
      citationstyle: { default: 'apa' },
      /** HEADING_NUMBERINGS (vocabulary.ts): shown in the editor and every export. */
      heading_numbering: { default: 'decimal' },
      /** LATEX_CLASSES: the LaTeX export's class and front matter (from the document's template). */
      latex_class: { default: 'article' },
    },
  },
  title: {
    content: 'text*',
    marks: `em strong underline sup sub smallcaps ${REVIEW_MARKS}`,
    defining: true,
    isolating: true,
    parseDOM: [{ tag: 'div.doc-title' }, { tag: 'h1[data-doc-title]' }],
    toDOM: () => ['div', { class: 'doc-title', role: 'heading', 'aria-level': '1' }, 0],
  },
  heading_part: partSpec('heading_part', { content: 'text*', defining: true, isolating: true }),
  richtext_part: partSpec('richtext_part', { content: 'block+', marks: BLOCK_TRACK_MARKS, isolating: true }),
  contributors_part: partSpec('contributors_part', { content: 'contributor*', isolating: true }),
  tags_part: partSpec('tags_part', { content: 'keyword*', isolating: true }),
  /**
   * A table of contents: no content of its own; the editor draws the document's headings in it
   * as they change, the exports their own (a TOC field, \tableofcontents, a nav list).
   */
  toc_part: partSpec('toc_part', {
    atom: true,
    selectable: false,
    parseDOM: partParse('toc_part', 'nav'),
    toDOM: (node) => {
      const [, attrs] = partDOM('toc_part', node.attrs) as [string, Record<string, string>];
      return [
        'nav',
        { ...attrs, 'aria-label': String(node.attrs.title) },
        ['div', { class: 'doc-toc-title' }, String(node.attrs.title)],
        ['ol', { class: 'doc-toc-entries' }],
      ];
    },
  }),
  /** A separator: a visual divider between parts (a thematic break in the exports). */
  separator_part: partSpec('separator_part', {
    atom: true,
    selectable: false,
    toDOM: (node) => {
      const [, attrs] = partDOM('separator_part', node.attrs) as [string, Record<string, string>];
      return ['div', attrs, ['hr']];
    },
  }),
  contributor: {
    atom: true,
    selectable: true,
    attrs: {
      firstname: { default: '' },
      lastname: { default: '' },
      email: { default: '' },
      institution: { default: '' },
      orcid: { default: '' },
    },
    parseDOM: [
      stringAttrsRule('div[data-contributor]', {
        firstname: 'data-firstname',
        lastname: 'data-lastname',
        email: 'data-email',
        institution: 'data-institution',
        orcid: 'data-orcid',
      }),
    ],
    toDOM: (node) => [
      'div',
      {
        class: 'doc-contributor',
        'data-contributor': '',
        'data-firstname': node.attrs.firstname,
        'data-lastname': node.attrs.lastname,
        'data-email': node.attrs.email,
        'data-institution': node.attrs.institution,
        'data-orcid': node.attrs.orcid,
      },
      [node.attrs.firstname, node.attrs.lastname].filter(Boolean).join(' '),
    ],
  },
  keyword: textAtom('keyword', (keyword) => keyword),

  paragraph: { group: 'block', content: 'inline*', ...plainElement('p') },
  heading: {
    group: 'block',
    content: 'inline*',
    defining: true,
    /** `id` is the target of internal links (`#id`) and, later, of cross-references. */
    attrs: { level: { default: 1 }, id: { default: '' } },
    parseDOM: headingLevels.map((level) => ({
      tag: `h${level}`,
      getAttrs: (dom: HTMLElement) => ({ level, id: dom.getAttribute('id') ?? '' }),
    })),
    toDOM: (node) => [`h${node.attrs.level}`, node.attrs.id ? { id: node.attrs.id } : {}, 0],
  },
  blockquote: {
    group: 'block',
    content: 'block+',
    marks: BLOCK_TRACK_MARKS,
    defining: true,
    ...plainElement('blockquote'),
  },
  bullet_list: {
    group: 'block',
    content: 'list_item+',
    marks: BLOCK_TRACK_MARKS,
    ...plainElement('ul'),
  },
  ordered_list: {
    group: 'block',
    content: 'list_item+',
    marks: BLOCK_TRACK_MARKS,
    attrs: { start: { default: 1 } },
    parseDOM: [
      {
        tag: 'ol',
        getAttrs: (dom: HTMLElement) => {
          const start = Number(dom.getAttribute('start') ?? '1');
          return { start: Number.isInteger(start) ? start : 1 };
        },
      },
    ],
    toDOM: (node) => ['ol', node.attrs.start === 1 ? {} : { start: node.attrs.start }, 0],
  },
  list_item: {
    content: 'paragraph block*',
    marks: BLOCK_TRACK_MARKS,
    defining: true,
    ...plainElement('li'),
  },
  code_block: {
    group: 'block',
    content: 'text*',
    marks: REVIEW_MARKS,
    code: true,
    defining: true,
    // A code block ending a part can be followed by text: a gap cursor after it (docs/editor.md).
    createGapCursor: true,
    attrs: { language: { default: '' } },
    parseDOM: [
      {
        tag: 'pre',
        preserveWhitespace: 'full',
        getAttrs: (dom: HTMLElement) => ({ language: stringAttr(dom, 'data-language') }),
      },
    ],
    toDOM: (node) => [
      'pre',
      node.attrs.language ? { 'data-language': node.attrs.language } : {},
      ['code', 0],
    ],
  },
  horizontal_rule: {
    group: 'block',
    parseDOM: [{ tag: 'hr' }],
    toDOM: () => ['hr'],
  },
  ...withBlockTrackMarks(
    withTableCaption(
      tableNodes({
        tableGroup: 'block',
        cellContent: 'block+',
        cellAttributes: {},
      }),
    ),
  ),

  text: { group: 'inline' },
  hard_break: {
    inline: true,
    group: 'inline',
    selectable: false,
    parseDOM: [{ tag: 'br' }],
    toDOM: () => ['br'],
  },
  // The feature folders' nodes (common/src/features/registry.ts).
  ...FEATURE_NODES,
  ...academicNodes,
};

/** Rows, cells and the blocks in cells may carry tracked changes too (a suggested row or column). */
function withBlockTrackMarks<T extends Record<string, NodeSpec>>(nodes: T): T {
  return Object.fromEntries(
    Object.entries(nodes).map(([name, spec]) => [name, { ...spec, marks: BLOCK_TRACK_MARKS }]),
  ) as T;
}

const marks: Record<string, MarkSpec> = {
  em: {
    parseDOM: [
      { tag: 'i' },
      { tag: 'em' },
      { style: 'font-style=italic' },
      { style: 'font-style=normal', clearMark: (mark) => mark.type.name === 'em' },
    ],
    toDOM: () => ['em', 0],
  },
  strong: {
    parseDOM: [
      { tag: 'strong' },
      // Google Docs wraps whole copies in <b style="font-weight:normal">: that is not bold.
      { tag: 'b', getAttrs: (dom: HTMLElement) => dom.style.fontWeight !== 'normal' && null },
      { style: 'font-weight=400', clearMark: (mark) => mark.type.name === 'strong' },
      {
        style: 'font-weight',
        getAttrs: (value: string) => /^(bold(er)?|[6-9]\d{2,})$/.test(value) && null,
      },
    ],
    toDOM: () => ['strong', 0],
  },
  underline: {
    parseDOM: [
      { tag: 'u' },
      { style: 'text-decoration=underline' },
      { style: 'text-decoration-line=underline' },
    ],
    toDOM: () => ['u', 0],
  },
  sup: {
    excludes: 'sub sup',
    parseDOM: [{ tag: 'sup' }, { style: 'vertical-align=super' }],
    toDOM: () => ['sup', 0],
  },
  sub: {
    excludes: 'sub sup',
    parseDOM: [{ tag: 'sub' }, { style: 'vertical-align=sub' }],
    toDOM: () => ['sub', 0],
  },
  code: plainElement('code'),
  smallcaps: {
    parseDOM: [{ tag: 'span.smallcaps' }, { style: 'font-variant=small-caps' }],
    toDOM: () => ['span', { class: 'smallcaps' }, 0],
  },
  /** External (`https://...`) or internal to a heading (`#` + the heading's id). */
  link: {
    attrs: { href: {}, title: { default: '' } },
    inclusive: false,
    parseDOM: [
      {
        tag: 'a[href]',
        // Pasted javascript: or relative links would be dangerous or broken: keep the text only.
        getAttrs: (dom: HTMLElement) => {
          const href = (dom.getAttribute('href') ?? '').trim();
          return isSafeHref(href) ? { href, title: dom.getAttribute('title') ?? '' } : false;
        },
      },
    ],
    toDOM: (mark) => {
      // A link stored before the rule (safe-links.ts) is shown as text, never followed.
      const href = String(mark.attrs.href);
      const target = isSafeHref(href) ? { href } : {};
      return ['a', mark.attrs.title ? { ...target, title: mark.attrs.title } : target, 0];
    },
  },
  // Comment anchors and tracked changes (review-marks.ts).
  ...REVIEW_MARK_SPECS,
};

export const schema = new Schema({ nodes, marks });

/**
 * Whether a node is an aside (its spec says `aside`): its content is not in the flow of the text
 * (a note), so walks over the text (outlines, tables of contents, numbering of blocks) skip it.
 */
export function isAside(node: PMNode): boolean {
  return node.type.spec.aside === true;
}
