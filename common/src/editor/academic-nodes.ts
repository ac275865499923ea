import type { NodeSpec } from 'prosemirror-model';
import { stringAttr, stringAttrsRule, textAtom } from './dom-attrs';

/**
 * The academic nodes of the schema (issue 17): equations, citations, figures, cross-references
 * and the document's own bibliography. schema.ts adds them; the pure logic around them
 * (numbering, cross-reference texts, LaTeX rendering, input rules, commands) lives in the
 * academic-*.ts files beside this one.
 */

/** Figure categories; each is numbered on its own ("Figure 3", "Table 1", "(4)"). */
export const FIGURE_CATEGORIES = ['figure', 'photo', 'table', 'equation', 'listing', 'none'] as const;
export type FigureCategory = (typeof FIGURE_CATEGORIES)[number];

export const FIGURE_ALIGNMENTS = ['left', 'center', 'right'] as const;
export type FigureAlignment = (typeof FIGURE_ALIGNMENTS)[number];

export const CITATION_FORMATS = ['autocite', 'textcite'] as const;
export type CitationFormat = (typeof CITATION_FORMATS)[number];

/**
 * What a cross-reference shows: the target's number ("Figure 2"), its page ("page 4") or both
 * ("Figure 2 on page 4"). Formats without pages (the editor, HTML, EPUB, JATS, Markdown) show the
 * number form of the page forms.
 */
export const CROSS_REFERENCE_FORMS = ['number', 'page', 'number-page'] as const;
export type CrossReferenceForm = (typeof CROSS_REFERENCE_FORMS)[number];

/** A cross-reference node's form ('number' for an unknown value). */
export function crossReferenceForm(value: unknown): CrossReferenceForm {
  return oneOf(CROSS_REFERENCE_FORMS, value, 'number');
}

/** One cited entry of a citation: the key of an entry of the document's bibliography. */
export interface CitationReference {
  id: string;
  prefix: string;
  locator: string;
}

function jsonAttr<T>(dom: HTMLElement, name: string, fallback: T): T {
  try {
    const value = dom.getAttribute(name);
    return value ? (JSON.parse(value) as T) : fallback;
  } catch {
    return fallback;
  }
}

function oneOf<T extends string>(list: readonly T[], value: unknown, fallback: T): T {
  return list.includes(value as T) ? (value as T) : fallback;
}

/** Keeps only well-formed references (pasted HTML is not trusted). */
export function cleanReferences(value: unknown): CitationReference[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((ref): ref is Record<string, unknown> => typeof ref === 'object' && ref !== null)
    .filter((ref) => typeof ref.id === 'string' && ref.id !== '')
    .map((ref) => ({
      id: String(ref.id),
      prefix: typeof ref.prefix === 'string' ? ref.prefix : '',
      locator: typeof ref.locator === 'string' ? ref.locator : '',
    }));
}

/**
 * Attributes the template-part machinery expects on every part (schema.ts `partAttrs` adds the
 * help text): where it came from and what it allows, with the part's default id and title.
 */
export function templatePartAttrs(id: string, title: string) {
  return {
    id: { default: id },
    title: { default: title },
    /** Optional parts may be hidden by the authors (they stay in the document, out of exports). */
    optional: { default: false },
    hidden: { default: false },
    elements: { default: [] as string[] },
    marks: { default: [] as string[] },
  };
}

export const academicNodes: Record<string, NodeSpec> = {
  /** Inline LaTeX; rendered by the views, kept as source so that nothing is ever lost. */
  equation: {
    inline: true,
    group: 'inline',
    draggable: true,
    ...textAtom('equation', (latex) => `$${latex}$`),
  },
  citation: {
    inline: true,
    group: 'inline',
    atom: true,
    selectable: true,
    draggable: true,
    attrs: { format: { default: 'autocite' }, references: { default: [] as CitationReference[] } },
    parseDOM: [
      {
        tag: 'span[data-citation]',
        getAttrs: (dom: HTMLElement) => ({
          format: oneOf(CITATION_FORMATS, dom.getAttribute('data-format'), 'autocite'),
          references: cleanReferences(jsonAttr(dom, 'data-references', [])),
        }),
      },
    ],
    toDOM: (node) => [
      'span',
      {
        class: 'doc-citation',
        'data-citation': '',
        'data-format': node.attrs.format,
        'data-references': JSON.stringify(node.attrs.references),
      },
      (node.attrs.references as CitationReference[]).map((ref) => `@${ref.id}`).join('; '),
    ],
  },
  /** A reference to a heading, figure or table by its id; its text is computed (numbering.ts). */
  cross_reference: {
    inline: true,
    group: 'inline',
    atom: true,
    selectable: true,
    attrs: { id: { default: '' }, title: { default: '' }, form: { default: 'number' as CrossReferenceForm } },
    parseDOM: [
      {
        tag: 'span[data-cross-reference]',
        getAttrs: (dom: HTMLElement) => ({
          id: stringAttr(dom, 'data-cross-reference'),
          title: stringAttr(dom, 'data-title'),
          form: crossReferenceForm(dom.getAttribute('data-form')),
        }),
      },
    ],
    toDOM: (node) => [
      'span',
      {
        class: 'doc-cross-reference',
        'data-cross-reference': node.attrs.id,
        'data-title': node.attrs.title,
        ...(node.attrs.form !== 'number' ? { 'data-form': node.attrs.form } : {}),
      },
      node.attrs.title || node.attrs.id,
    ],
  },
  /**
   * An image from the library or a display equation, with caption and category. The caption is
   * plain text: it is short and its number is drawn in front of it by the views.
   */
  figure: {
    group: 'block',
    atom: true,
    selectable: true,
    draggable: true,
    attrs: {
      id: { default: '' },
      category: { default: 'figure' },
      /** The library image's id (of its owner) and its file under /media/; 0 and '' for none. */
      image: { default: 0 },
      src: { default: '' },
      equation: { default: '' },
      caption: { default: '' },
      aligned: { default: 'center' },
      /** Per cent of the text width. */
      width: { default: 100 },
    },
    parseDOM: [
      {
        tag: 'figure[data-category]',
        getAttrs: (dom: HTMLElement) => {
          const src = dom.querySelector('img')?.getAttribute('src') ?? '';
          const width = Number(dom.getAttribute('data-width') ?? '100');
          return {
            id: stringAttr(dom, 'id'),
            category: oneOf(FIGURE_CATEGORIES, dom.getAttribute('data-category'), 'figure'),
            image: Number(dom.getAttribute('data-image') ?? '0') || 0,
            // Only our own media: a pasted figure must not load from elsewhere.
            src: src.startsWith('/media/') ? src : '',
            equation: stringAttr(dom, 'data-equation'),
            caption: dom.querySelector('figcaption')?.textContent ?? '',
            aligned: oneOf(FIGURE_ALIGNMENTS, dom.getAttribute('data-aligned'), 'center'),
            width: width > 0 && width <= 100 ? width : 100,
          };
        },
      },
    ],
    toDOM: (node) => [
      'figure',
      {
        id: node.attrs.id || undefined,
        class: 'doc-figure',
        'data-category': node.attrs.category,
        'data-image': String(node.attrs.image),
        'data-equation': node.attrs.equation || undefined,
        'data-aligned': node.attrs.aligned,
        'data-width': String(node.attrs.width),
      },
      node.attrs.src
        ? ['img', { src: node.attrs.src, alt: node.attrs.caption }]
        : ['span', node.attrs.equation],
      ['figcaption', node.attrs.caption],
    ],
  },
  /**
   * The document's own bibliography: every cited entry is copied here, so that co-authors see it
   * without having it in their library. Entries are nodes, so two authors citing at once both add
   * theirs (a document attribute would be overwritten whole). It is the last part of the document
   * and is drawn as the rendered bibliography section.
   */
  bibliography_part: {
    group: 'part',
    content: 'bib_entry*',
    // An entry cited in a suggestion is the author's suggested insertion (track-bibliography.ts).
    marks: 'insertion',
    attrs: templatePartAttrs('bibliography', 'Bibliography'),
    isolating: true,
    selectable: false,
    parseDOM: [{ tag: 'div[data-part="bibliography_part"]' }],
    toDOM: () => ['div', { class: 'doc-part doc-bibliography_part', 'data-part': 'bibliography_part' }, 0],
  },
  bib_entry: {
    atom: true,
    selectable: false,
    attrs: {
      /** The key citations use: `<owner id>-<entry id>` of the library it was copied from. */
      id: { default: '' },
      /** The entry in the bibliography's own form (biblatex-csl-converter's EntryData). */
      data: { default: {} },
    },
    parseDOM: [
      {
        tag: 'div[data-bib-entry]',
        getAttrs: (dom: HTMLElement) => ({
          id: stringAttr(dom, 'data-bib-entry'),
          data: jsonAttr(dom, 'data-entry', {}),
        }),
      },
    ],
    toDOM: (node) => [
      'div',
      { 'data-bib-entry': node.attrs.id, 'data-entry': JSON.stringify(node.attrs.data) },
    ],
  },
};

/** Tables get an id (cross-reference target) and a caption, numbered with the table figures. */
export function withTableCaption<T extends Record<string, NodeSpec>>(nodes: T): T {
  const table = nodes.table;
  return {
    ...nodes,
    table: {
      ...table,
      attrs: { ...table.attrs, id: { default: '' }, caption: { default: '' } },
      parseDOM: [stringAttrsRule('table', { id: 'id', caption: 'data-caption' })],
      toDOM: (node) => [
        'table',
        node.attrs.id ? { id: node.attrs.id, 'data-caption': node.attrs.caption } : {},
        ['tbody', 0],
      ],
    },
  };
}
