import type { Node as PMNode } from 'prosemirror-model';
import type { CslJson } from '../bibliography/citation-render';
import {
  type Cluster,
  type EngineCache,
  type RenderedCitations,
  renderDocumentCitations,
} from '../bibliography/cluster-render';
import type { BibliographyLayout } from '../bibliography/layout';
import type { EntryData } from '../bibliography/types';
import { type NumberedTarget, type Numbering, numberDocument } from '../editor/academic-numbering';
import type { Contributor } from '../editor/commands';
import { withoutUnsafeLinks } from '../editor/safe-links';
import { isAside, schema } from '../editor/schema';
import { acceptedDocument } from '../editor/track-changes';
import type { CommentThread } from '../ws/review-messages';

/**
 * The one input of every exporter (issue 19): what the browser has in the editor and the server
 * has in its database. The exporters are pure functions of it, so that the browser (also offline)
 * and the server make the same files.
 */
export interface ExportImage {
  /** The file's bytes. */
  data: Uint8Array;
  /** Its MIME type (image/png, image/jpeg, image/svg+xml, ...). */
  type: string;
}

export interface ExportInput {
  /** The document content: ProseMirror JSON of common/src/editor/schema.ts. */
  content: unknown;
  /** Comment threads by the id of their `comment` mark (the viewer's visible ones). */
  threads: CommentThread[];
  /** The bytes of the figures' images, by their `src` (/media/images/<hash>.<ext>). */
  images: Record<string, ExportImage>;
  /** The document's citation style and its locales (null: citations as their keys). */
  csl: { name: string; style: CslJson; locales: Record<string, CslJson>; locale: string } | null;
  /** The export files (reference documents) of the document's template, by kind (issue 21). */
  reference?: ExportReference;
}

/** A user's reference documents: DOCX and ODT exports take their styles (reference-merge.ts). */
export interface ExportReference {
  docx?: Uint8Array;
  odt?: Uint8Array;
}

export type { Contributor };

/** The document read once for all exporters: parts sorted out, numbering and citations done. */
export interface PreparedDocument {
  doc: PMNode;
  title: string;
  subtitle: string;
  authors: Contributor[];
  abstract: PMNode | null;
  keywords: string[];
  /** The rich-text parts that are not the abstract, in order (hidden parts left out). */
  body: PMNode[];
  language: string;
  paperSize: 'A4' | 'US Letter';
  numbering: Numbering;
  /** The number of each numbered figure, table and heading node. */
  numbers: Map<PMNode, NumberedTarget>;
  /** The rendered citation of each citation node (citeproc HTML), '' when it cites nothing known. */
  citations: Map<PMNode, string>;
  /** note: citations are footnotes. */
  noteStyle: boolean;
  /**
   * A book whose chapters keep their own styles: the citations rendered in a note style (the
   * others stay in the text); without it `noteStyle` holds for every citation.
   */
  noteCitations?: Set<PMNode>;
  /** The rendered bibliography (citeproc HTML per entry). */
  bibliography: string[];
  /** The style's layout of the bibliography (hanging indent, label column, spacing). */
  bibliographyLayout?: BibliographyLayout;
  /**
   * In a note style, a text citation's author as the text names it ("LeCun and Bottou", its
   * citation being the note); absent for every other citation.
   */
  citationAuthors?: Map<PMNode, string>;
  /** The bibliography's heading in the document's language. */
  bibliographyTitle: string;
  /** The document's cited entries by their key. */
  entries: Map<string, EntryData>;
  threads: Map<number, CommentThread>;
  images: Record<string, ExportImage>;
  /** Set when this is a whole book (book.ts): the writers then write its chapters. */
  book?: BookStructure;
  /** The template's reference documents, when it has any. */
  reference?: ExportReference;
  /** The CSL style's name (`apa`), when citations are rendered in one. */
  citationStyle?: string;
}

/** A book's own front matter and its chapters, read for the writers (see book.ts). */
export interface BookStructure {
  publisher: string;
  isbn: string;
  copyright: string;
  cover: ExportImage | null;
  chapters: PreparedChapter[];
}

/** One chapter: its document's front matter and body, numbered within the book. */
export interface PreparedChapter extends Omit<DocumentParts, 'entries' | 'bibliographyTitle'> {
  /** 1, 2, 3: the chapters the reader may read, in the book's order. */
  number: number;
  /** The part it belongs to ('' for none). */
  part: string;
  /** Its anchor and file stem: chapter-1. */
  anchor: string;
  titleNode: PMNode;
  title: string;
  /** The chapter's own bibliography (citeproc HTML per entry) when the book has one per chapter. */
  bibliography: string[];
  /** The CSL style its citations are rendered in: the book's, or its own ("as in each chapter"). */
  citationStyle: string;
}

/** The key of a book's cover image among the images of the writers' packages. */
export const COVER_SRC = 'book:cover';

/** Chapters that follow each other in the same part, in order ('' part: chapters on their own). */
export function groupParts(
  chapters: readonly PreparedChapter[],
): { part: string; chapters: PreparedChapter[] }[] {
  const groups: { part: string; chapters: PreparedChapter[] }[] = [];
  for (const chapter of chapters) {
    const last = groups.at(-1);
    if (last && chapter.part && last.part === chapter.part) last.chapters.push(chapter);
    else groups.push({ part: chapter.part, chapters: [chapter] });
  }
  return groups;
}

function partId(node: PMNode): string {
  return String(node.attrs.id);
}

/** A document's parts sorted out: front matter, body and its own bibliography entries. */
export interface DocumentParts {
  subtitle: string;
  authors: Contributor[];
  abstract: PMNode | null;
  keywords: string[];
  body: PMNode[];
  entries: Map<string, EntryData>;
  bibliographyTitle: string;
}

export function readParts(doc: PMNode): DocumentParts {
  let subtitle = '';
  let abstract: PMNode | null = null;
  const authors: Contributor[] = [];
  const keywords: string[] = [];
  const body: PMNode[] = [];
  const entries = new Map<string, EntryData>();
  let bibliographyTitle = 'Bibliography';
  doc.forEach((part) => {
    if (part.type.name === 'bibliography_part') {
      bibliographyTitle = String(part.attrs.title);
      part.forEach((entry) => {
        entries.set(String(entry.attrs.id), entry.attrs.data as EntryData);
      });
      return;
    }
    if (part.attrs.hidden) return;
    switch (part.type.name) {
      case 'heading_part':
        if (partId(part) === 'subtitle') subtitle = part.textContent;
        break;
      case 'contributors_part':
        part.forEach((person) => {
          authors.push({ ...(person.attrs as Contributor) });
        });
        break;
      case 'tags_part':
        part.forEach((keyword) => {
          keywords.push(String(keyword.attrs.keyword));
        });
        break;
      case 'richtext_part':
        if (partId(part) === 'abstract') abstract = part;
        else body.push(part);
        break;
      // The writers draw these in their place among the body's parts (isLeafPart).
      case 'toc_part':
      case 'separator_part':
        body.push(part);
        break;
    }
  });
  return { subtitle, authors, abstract, keywords, body, entries, bibliographyTitle };
}

/** A table of contents or a separator: parts the writers draw themselves, having no content. */
export function isLeafPart(node: PMNode): boolean {
  return node.type.name === 'toc_part' || node.type.name === 'separator_part';
}

export interface TocEntry {
  id: string;
  level: number;
  text: string;
}

/** The entries of a table of contents: the headings (levels 1 to 3) of the body's parts. */
export function tocEntries(body: readonly PMNode[], depth = 3): TocEntry[] {
  const entries: TocEntry[] = [];
  for (const part of body)
    part.descendants((node) => {
      if (node.type.name === 'heading') {
        const level = Number(node.attrs.level);
        if (level <= depth && node.textContent.trim())
          entries.push({ id: String(node.attrs.id), level, text: node.textContent });
        return false;
      }
      return !isAside(node) && node.type.name !== 'table';
    });
  return entries;
}

/** The citation nodes of a document in order (the bibliography part's entries are no citations). */
export function citationNodes(doc: PMNode): PMNode[] {
  const nodes: PMNode[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'bibliography_part') return false;
    if (node.type.name === 'citation') nodes.push(node);
    return true;
  });
  return nodes;
}

export type EngineCaches = Map<string, { current?: EngineCache; key: string }>;

/** Where a citation stands among the notes: the footnotes begun before it, and whether it is in one. */
export interface NotePlace {
  footnotes: number;
  inFootnote: boolean;
}

/**
 * The note places of the citations of `docs` (a book's chapters one after the other): note styles
 * number their citations with the footnotes, and a citation inside a footnote is part of it.
 */
export function notePlaces(docs: readonly PMNode[]): Map<PMNode, NotePlace> {
  const places = new Map<PMNode, NotePlace>();
  let footnotes = 0;
  const walk = (node: PMNode, inFootnote: boolean) => {
    node.forEach((child) => {
      if (child.type.name === 'bibliography_part') return;
      if (child.type.name === 'citation') places.set(child, { footnotes, inFootnote });
      else if (isAside(child)) {
        footnotes++;
        walk(child, true);
      } else if (child.childCount) walk(child, inFootnote);
    });
  };
  for (const doc of docs) walk(doc, false);
  return places;
}

/** Renders citation nodes in one batch (citeproc numbers and disambiguates across all of them). */
export function renderCitations(
  nodes: readonly PMNode[],
  entries: ReadonlyMap<string, EntryData>,
  csl: ExportInput['csl'],
  engines?: EngineCaches,
  places?: ReadonlyMap<PMNode, NotePlace>,
): Pick<
  PreparedDocument,
  'citations' | 'noteStyle' | 'bibliography' | 'bibliographyLayout' | 'citationAuthors'
> {
  const clusters: Cluster[] = nodes.map((node) => ({
    format: node.attrs.format === 'textcite' ? 'textcite' : 'autocite',
    references: node.attrs.references,
    ...places?.get(node),
  }));
  let rendered: RenderedCitations | null = null;
  if (csl && clusters.length) {
    const key = `${csl.name}|${csl.locale}`;
    let cache = engines?.get(key);
    if (engines && !cache) {
      cache = { key };
      engines.set(key, cache);
    }
    rendered = renderDocumentCitations(csl.style, csl.locales, csl.locale, entries, clusters, 'html', cache);
  }
  const citations = new Map<PMNode, string>();
  const citationAuthors = new Map<PMNode, string>();
  nodes.forEach((node, index) => {
    citations.set(node, rendered?.citations[index] ?? '');
    const author = rendered?.authors[index];
    if (author) citationAuthors.set(node, author);
  });
  return {
    citations,
    noteStyle: rendered?.styleClass === 'note',
    bibliography: rendered?.bibliography ?? [],
    ...(rendered ? { bibliographyLayout: rendered.layout } : {}),
    citationAuthors,
  };
}

/** Adds the number of each numbered node of `doc` to `numbers` (numbering goes by position). */
export function numberedNodes(
  doc: PMNode,
  numbering: Numbering,
  numbers = new Map<PMNode, NumberedTarget>(),
): Map<PMNode, NumberedTarget> {
  for (const [pos, target] of numbering.byPos) {
    const node = doc.nodeAt(pos);
    if (node) numbers.set(node, target);
  }
  for (const target of numbering.targets) {
    const node = doc.nodeAt(target.pos);
    if (node) numbers.set(node, target);
  }
  return numbers;
}

/**
 * Reads the content and renders what every format needs. `engines` keeps citeproc engines between
 * exports (building one for a large style costs seconds), keyed by style and locale.
 */
/** How a document is prepared: `accepted`, as it reads once every suggestion is accepted. */
export interface PrepareOptions {
  accepted?: boolean;
}

export function prepareDocument(
  input: ExportInput,
  engines?: EngineCaches,
  options: PrepareOptions = {},
): PreparedDocument {
  // The last line of defence: no format writes a link the rule refuses (one stored before it).
  const stored = schema.nodeFromJSON(withoutUnsafeLinks(input.content));
  stored.check();
  const doc = options.accepted ? acceptedDocument(stored) : stored;
  const parts = readParts(doc);
  const numbering = numberDocument(doc);
  return {
    doc,
    title: doc.firstChild?.textContent ?? '',
    ...parts,
    language: String(doc.attrs.language || 'en-US'),
    paperSize: doc.attrs.paper_size === 'US Letter' ? 'US Letter' : 'A4',
    numbering,
    numbers: numberedNodes(doc, numbering),
    ...renderCitations(citationNodes(doc), parts.entries, input.csl, engines, notePlaces([doc])),
    threads: new Map(input.threads.map((thread) => [thread.id, thread])),
    images: input.images,
    ...(input.reference ? { reference: input.reference } : {}),
    ...(input.csl ? { citationStyle: input.csl.name } : {}),
  };
}

/** The target a figure, table or heading node is numbered as (numbering goes by position). */
export function targetOf(prepared: PreparedDocument, id: string): NumberedTarget | undefined {
  return id ? prepared.numbering.byId.get(id) : undefined;
}

/**
 * A table's or figure's caption line as the office formats write it: its number's label, then the
 * caption text ("Figure 2: Setup"); an equation's number stands beside it instead. '' for neither.
 */
export function captionText(prepared: PreparedDocument, node: PMNode, text: string): string {
  const target = prepared.numbers.get(node);
  return `${target && target.kind !== 'equation' ? `${target.label}: ` : ''}${text}`;
}

/** Whether a figure node holds a displayed equation (its category, or an equation and no image). */
export function isEquationFigure(node: PMNode): boolean {
  return node.attrs.category === 'equation' || (!node.attrs.src && Boolean(node.attrs.equation));
}

/** A citation's text when no style rendered it: the keys, so nothing is silently lost. */
export function citationFallback(node: PMNode): string {
  return `(${(node.attrs.references as { id: string }[]).map((ref) => ref.id).join('; ')})`;
}

export function authorName(person: Contributor): string {
  return [person.firstname, person.lastname].filter(Boolean).join(' ');
}

/** Text of a node with tracked deletions left out (what the text reads as once accepted). */
export function acceptedText(node: PMNode): string {
  let text = '';
  node.descendants((child) => {
    if (child.isText && !child.marks.some((mark) => mark.type.name === 'deletion')) text += child.text;
    return true;
  });
  return text;
}
