import { type Node as PMNode, type Schema, Slice } from 'prosemirror-model';
import { featureOf } from '../features/registry';
import { isReviewMark } from './schema';
import { type DocumentTemplate, PART_KINDS, templates } from './template-data';
import { type BodyElement, PAPER_SIZES, type PaperSize } from './vocabulary';

// The templates' data (parts, the Standard article) lives in template-data.ts, without ProseMirror.
export {
  type DocumentTemplate,
  PART_KINDS,
  type PartKind,
  standardArticle,
  type TemplatePart,
  templates,
} from './template-data';

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

/**
 * The document with its title cut to at most `max` characters (documentTitle's length), for
 * content that comes from outside the editor (an import, a document written offline): doc_data
 * carries the title, and refuses a longer one.
 */
export function withTitleCut(doc: PMNode, max: number): PMNode {
  const title = doc.firstChild;
  if (title?.type.name !== 'title' || documentTitle(doc).length <= max) return doc;
  return doc.replace(1, title.nodeSize - 1, new Slice(title.content.cut(0, max), 0, 0));
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
  /** An element or mark the part does not allow, or a node feature's problem (a note in a note). */
  problem: string;
}

/**
 * What the schema alone cannot say: elements and marks a part does not allow, and the node
 * features' own problems (`NodeFeature.problem`, common/src/features/). The editor refuses
 * transactions that add problems; the server may use it too.
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
        const problem = featureOf(node)?.problem?.(node);
        if (problem) problems.push({ part: id, problem });
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
