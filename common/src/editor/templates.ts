import type { Node as PMNode, Schema } from 'prosemirror-model';
import {
  BODY_ELEMENTS,
  type BodyElement,
  FORMAT_MARKS,
  type FormatMark,
  isReviewMark,
  PAPER_SIZES,
  type PaperSize,
} from './schema';

/**
 * Document templates as data: a list of parts with the elements and marks each allows. The
 * built-in "Standard article" is one of them; the Templates plugin can define others without
 * touching the schema, because every part is one of six generic kinds.
 */

export const PART_KINDS = [
  'heading_part',
  'richtext_part',
  'contributors_part',
  'tags_part',
  'toc_part',
  'separator_part',
] as const;
export type PartKind = (typeof PART_KINDS)[number];

export interface TemplatePart {
  /** Stable id inside the template (`subtitle`, `abstract`, ...). */
  id: string;
  kind: PartKind;
  /** Shown to authors when the template has no translation for `id`. */
  title: string;
  /** An optional part can be hidden by the authors. */
  optional: boolean;
  /** Whether a new document starts with it hidden. */
  hidden: boolean;
  /** Block and inline elements allowed (rich-text parts); empty for the other kinds. */
  elements: BodyElement[];
  /** Formatting marks allowed; comment and tracked-change marks are always allowed. */
  marks: FormatMark[];
  /** Shown to authors beside the part (a stored template's help text; copied into the document). */
  help?: string;
}

export interface DocumentTemplate {
  id: string;
  title: string;
  /** The title always comes first (it is the document's title); these parts follow it. */
  parts: TemplatePart[];
}

const ALL_MARKS: FormatMark[] = [...FORMAT_MARKS];
const TITLE_MARKS: FormatMark[] = ['em', 'strong', 'underline', 'sup', 'sub', 'smallcaps'];

export const standardArticle: DocumentTemplate = {
  id: 'standard-article',
  title: 'Standard article',
  parts: [
    {
      id: 'subtitle',
      kind: 'heading_part',
      title: 'Subtitle',
      optional: true,
      hidden: true,
      elements: [],
      marks: TITLE_MARKS,
    },
    {
      id: 'authors',
      kind: 'contributors_part',
      title: 'Authors',
      optional: true,
      hidden: false,
      elements: [],
      marks: [],
    },
    {
      id: 'abstract',
      kind: 'richtext_part',
      title: 'Abstract',
      optional: true,
      hidden: false,
      elements: ['paragraph', 'footnote', 'hard_break', 'equation', 'citation', 'cross_reference'],
      marks: ALL_MARKS,
    },
    {
      id: 'keywords',
      kind: 'tags_part',
      title: 'Keywords',
      optional: true,
      hidden: false,
      elements: [],
      marks: [],
    },
    {
      id: 'body',
      kind: 'richtext_part',
      title: 'Body',
      optional: false,
      hidden: false,
      // Every block element, in the schema's order.
      elements: [...BODY_ELEMENTS],
      marks: ALL_MARKS,
    },
  ],
};

export const templates: readonly DocumentTemplate[] = [standardArticle];

export interface NewDocumentOptions {
  title?: string;
  language?: string;
  paperSize?: PaperSize;
}

/** A fresh document of a template: empty parts, each carrying what it allows. */
export function createDocument(
  schema: Schema,
  template: DocumentTemplate,
  options: NewDocumentOptions = {},
): PMNode {
  const title = schema.nodes.title.create(null, options.title ? schema.text(options.title) : null);
  const parts = template.parts.map((part) => {
    const attrs = {
      id: part.id,
      title: part.title,
      optional: part.optional,
      hidden: part.hidden,
      elements: [...part.elements],
      marks: [...part.marks],
      help: part.help ?? '',
    };
    const type = schema.nodes[part.kind];
    return type.createAndFill(attrs) ?? type.create(attrs);
  });
  return schema.nodes.doc.create(
    {
      template: template.id,
      language: options.language ?? 'en-US',
      paper_size: options.paperSize ?? PAPER_SIZES[0],
    },
    [title, ...parts],
  );
}

/** The document's title as plain text, for the overview. */
export function documentTitle(doc: PMNode): string {
  const first = doc.firstChild;
  return first && first.type.name === 'title' ? first.textContent.trim() : '';
}

/** The element name of a node as templates list it (`heading2`, `table`, ...), or null for structure. */
export function elementName(node: PMNode): BodyElement | null {
  const name = node.type.name;
  if (name === 'heading') return `heading${node.attrs.level}` as BodyElement;
  if (name === 'list_item' || name === 'table_row' || name === 'table_cell' || name === 'table_header')
    return null;
  if (name === 'text') return null;
  return name as BodyElement;
}

export interface TemplateProblem {
  part: string;
  /** An element or mark the part does not allow, or `nested_footnote`. */
  problem: string;
}

/**
 * What the schema alone cannot say: elements and marks a part does not allow, and footnotes
 * inside footnotes. The editor refuses transactions that add problems; the server may use it too.
 */
export function checkDocument(doc: PMNode): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  doc.forEach((part) => {
    if (part.type.name === 'title') {
      collectMarks(part, 'title', null, problems);
      return;
    }
    const id = String(part.attrs.id);
    const elements = part.attrs.elements as string[];
    const allowedMarks = part.attrs.marks as string[];
    if (part.type.name === 'richtext_part') {
      part.descendants((node) => {
        const name = elementName(node);
        if (name && !elements.includes(name)) problems.push({ part: id, problem: name });
        if (node.type.name === 'footnote') {
          let nested = false;
          node.descendants((inner) => {
            if (inner.type.name === 'footnote') nested = true;
          });
          if (nested) problems.push({ part: id, problem: 'nested_footnote' });
        }
        return true;
      });
    }
    collectMarks(part, id, allowedMarks, problems);
  });
  return problems;
}

const PART_KIND_SET: ReadonlySet<string> = new Set(PART_KINDS);

/** A document's template parts in order, as "kind:id" (the title and the bibliography are none). */
function templateParts(doc: PMNode): string {
  const parts: string[] = [];
  doc.forEach((node) => {
    if (PART_KIND_SET.has(node.type.name)) parts.push(`${node.type.name}:${String(node.attrs.id)}`);
  });
  return parts.join('\n');
}

/**
 * Whether a change kept the document's template parts, every kind: none removed, added or
 * reordered (the editor's rule; the collaboration server refuses steps that break it).
 */
export function keepsTemplateParts(before: PMNode, after: PMNode): boolean {
  return templateParts(before) === templateParts(after);
}

function collectMarks(part: PMNode, id: string, allowed: string[] | null, problems: TemplateProblem[]): void {
  if (allowed === null) return;
  part.descendants((node) => {
    for (const mark of node.marks) {
      const name = mark.type.name;
      if (!isReviewMark(name) && !allowed.includes(name)) problems.push({ part: id, problem: name });
    }
    return true;
  });
}

/** Elements templates gained after documents were made from them (issue 17's academic nodes). */
const ADDED_ELEMENTS: readonly BodyElement[] = ['equation', 'citation', 'cross_reference', 'figure'];

/**
 * The template copies of a document made before its template allowed the academic elements: each
 * part whose copy has none of them gets those its template's part allows now (in the template's
 * order). A part that already lists one of them was set up after the change and is left alone.
 * Returns the new element lists by position, empty when the document is current.
 */
export function templateUpgrades(
  doc: PMNode,
  known: readonly DocumentTemplate[] = templates,
): { pos: number; elements: BodyElement[] }[] {
  const template = known.find((candidate) => candidate.id === doc.attrs.template);
  if (!template) return [];
  const upgrades: { pos: number; elements: BodyElement[] }[] = [];
  doc.forEach((part, pos) => {
    if (part.type.name !== 'richtext_part') return;
    const copy = part.attrs.elements as BodyElement[];
    if (copy.some((element) => ADDED_ELEMENTS.includes(element))) return;
    const now = template.parts.find((candidate) => candidate.id === part.attrs.id)?.elements ?? [];
    const added = now.filter((element) => ADDED_ELEMENTS.includes(element));
    if (!added.length) return;
    upgrades.push({
      pos,
      elements: now.filter((element) => copy.includes(element) || added.includes(element)),
    });
  });
  return upgrades;
}
