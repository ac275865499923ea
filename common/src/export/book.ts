import type { Node as PMNode } from 'prosemirror-model';
import type { EntryData } from '../bibliography/types';
import { type NumberedTarget, type Numbering, numberDocument } from '../editor/academic-numbering';
import type { Contributor } from '../editor/commands';
import { withoutUnsafeLinks } from '../editor/safe-links';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { acceptedDocument } from '../editor/track-changes';
import type { BookExportFormat } from '../plugins/books-api';
import {
  citationNodes,
  type EngineCaches,
  type ExportImage,
  type ExportInput,
  type ExportReference,
  notePlaces,
  numberedNodes,
  type PreparedChapter,
  type PreparedDocument,
  type PrepareOptions,
  readParts,
  renderCitations,
} from './model';
import { EXPORT_FORMATS, type ExportedFile, type ExportFormat } from './registry';
import { fileBaseName } from './text';

/**
 * A whole book (issue 21) read once into one PreparedDocument that the writers know as a book
 * (`prepared.book`): the chapters in order, grouped in parts, numbered 1, 2, 3; figures, tables
 * and equations numbered on across the chapters and sections by chapter ("Section 2.1"); every
 * citation rendered in one batch in the book's style, so that the book has one bibliography at
 * its end. Ids are made unique per chapter (c2-...), so one HTML page, one LaTeX file and one
 * DOCX can hold every chapter's anchors.
 */

export interface BookChapterInput {
  /** The chapter document's content (ProseMirror JSON). */
  content: unknown;
  /** Its figures' images by src. */
  images: Record<string, ExportImage>;
  /** The part it belongs to ('' for none). */
  part: string;
  /** The document's stored title: a document never opened has no content yet. */
  title?: string;
  /**
   * The chapter's own citation style, when the book's is "as in each chapter": its citations are
   * rendered in it (undefined: the book's `csl`).
   */
  csl?: ExportInput['csl'];
}

export interface BookExportInput {
  title: string;
  /** One name per line or separated by semicolons. */
  authors: string;
  publisher: string;
  isbn: string;
  copyright: string;
  /** BCP 47; '' takes the first chapter's language. */
  language: string;
  paperSize: 'A4' | 'US Letter';
  /** The CSL style's id (LaTeX picks its biblatex style by it). */
  citationStyle: string;
  csl: ExportInput['csl'];
  cover: ExportImage | null;
  /** One bibliography at the end of the book, or one after each chapter. */
  bibliography?: 'book' | 'chapter';
  /** Only the chapters the exporting user may read, in the book's order. */
  chapters: BookChapterInput[];
  /** The export files of the template every chapter is made from, when it has any (DOCX styles). */
  reference?: ExportReference;
}

const ANCHORED = new Set(['heading', 'figure', 'table', 'cross_reference']);

/** The content with every anchor id and internal link prefixed, so that chapters never share one. */
function prefixIds(node: unknown, prefix: string): unknown {
  if (Array.isArray(node)) return node.map((child) => prefixIds(child, prefix));
  if (!node || typeof node !== 'object') return node;
  const { type, attrs, content, marks } = node as {
    type?: string;
    attrs?: Record<string, unknown>;
    content?: unknown[];
    marks?: { type: string; attrs?: Record<string, unknown> }[];
  };
  const out: Record<string, unknown> = { ...(node as Record<string, unknown>) };
  if (attrs && ANCHORED.has(String(type)) && attrs.id) out.attrs = { ...attrs, id: `${prefix}${attrs.id}` };
  if (content) out.content = prefixIds(content, prefix);
  if (marks)
    out.marks = marks.map((mark) =>
      mark.type === 'link' && String(mark.attrs?.href ?? '').startsWith('#')
        ? { ...mark, attrs: { ...mark.attrs, href: `#${prefix}${String(mark.attrs?.href).slice(1)}` } }
        : mark,
    );
  return out;
}

/** A document made but never opened holds no parts yet (the editor fills in its template). */
function isEmptyDocument(content: unknown): boolean {
  const children = (content as { content?: unknown[] } | null)?.content;
  return !Array.isArray(children) || children.length === 0;
}

function bookAuthors(text: string): Contributor[] {
  return text
    .split(/[;\n]/)
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => ({ firstname: '', lastname: name, email: '', institution: '', orcid: '' }));
}

export function prepareBook(
  input: BookExportInput,
  engines?: EngineCaches,
  options: PrepareOptions = {},
): PreparedDocument {
  const counters = new Map<string, number>();
  const numbers = new Map<PMNode, NumberedTarget>();
  const numbering: Numbering = { targets: [], byId: new Map(), byPos: new Map() };
  const entries = new Map<string, EntryData>();
  const images: Record<string, ExportImage> = {};
  const chapters: PreparedChapter[] = [];
  const docs: PMNode[] = [];
  const chapterEntries: Map<string, EntryData>[] = [];
  input.chapters.forEach((chapter, index) => {
    const number = index + 1;
    let doc = isEmptyDocument(chapter.content)
      ? createDocument(schema, standardArticle, { title: chapter.title })
      : schema.nodeFromJSON(withoutUnsafeLinks(prefixIds(chapter.content, `c${number}-`)));
    doc.check();
    if (options.accepted) doc = acceptedDocument(doc);
    docs.push(doc);
    const { entries: own, bibliographyTitle: _, ...parts } = readParts(doc);
    chapterEntries.push(own);
    for (const [key, data] of own) entries.set(key, data);
    Object.assign(images, chapter.images);
    const chapterNumbering = numberDocument(doc, { counters, sectionPrefix: `${number}.` });
    numberedNodes(doc, chapterNumbering, numbers);
    numbering.targets.push(...chapterNumbering.targets);
    for (const [id, target] of chapterNumbering.byId) numbering.byId.set(id, target);
    const titleNode = doc.firstChild as PMNode;
    chapters.push({
      ...parts,
      // The book has its own table of contents: a chapter's own is left out.
      body: parts.body.filter((part) => part.type.name !== 'toc_part'),
      number,
      part: chapter.part,
      anchor: `chapter-${number}`,
      titleNode,
      title: titleNode.textContent,
      bibliography: [],
      citationStyle: chapter.csl?.name ?? input.citationStyle,
    });
  });
  const language = input.language || String(docs[0]?.attrs.language || 'en-US');
  const titleNode = schema.nodes.title.create(null, input.title ? schema.text(input.title) : null);
  // One document of every chapter's parts (the same node objects): what the writers walk for
  // images; the chapters' front matter is in `book.chapters`.
  const doc = schema.nodes.doc.create(
    { ...(docs[0]?.attrs ?? {}), language, citationstyle: input.citationStyle, paper_size: input.paperSize },
    [titleNode, ...chapters.flatMap((chapter) => chapter.body)],
  );
  // One batch over every chapter: one bibliography, numeric styles numbered through the book; or
  // a batch per chapter, each with its own bibliography after it.
  //
  // When the chapters keep their own styles and these differ, each chapter is a batch of its own
  // style (its citations numbered within it); a bibliography at the end of the book is then in
  // `input.csl`: the server gives the first chapter's, as "as in each chapter" names no style.
  const chapterCsl = (index: number) => input.chapters[index].csl ?? input.csl;
  const ownStyles = input.chapters.some((chapter) => chapter.csl && chapter.csl.name !== input.csl?.name);
  let rendered: ReturnType<typeof renderCitations>;
  let noteCitations: Set<PMNode> | undefined;
  if (input.bibliography === 'chapter' || ownStyles) {
    rendered = { citations: new Map(), noteStyle: false, bibliography: [], citationAuthors: new Map() };
    noteCitations = new Set();
    docs.forEach((chapterDoc, index) => {
      const nodes = citationNodes(chapterDoc);
      const own = renderCitations(
        nodes,
        chapterEntries[index],
        chapterCsl(index),
        engines,
        notePlaces([chapterDoc]),
      );
      for (const [node, text] of own.citations) rendered.citations.set(node, text);
      for (const [node, text] of own.citationAuthors ?? []) rendered.citationAuthors?.set(node, text);
      rendered.bibliographyLayout ??= own.bibliographyLayout;
      if (own.noteStyle) for (const node of nodes) noteCitations?.add(node);
      rendered.noteStyle ||= own.noteStyle;
      if (input.bibliography === 'chapter') chapters[index].bibliography = own.bibliography;
    });
    if (input.bibliography !== 'chapter') {
      const whole = renderCitations(docs.flatMap(citationNodes), entries, input.csl, engines);
      rendered.bibliography = whole.bibliography;
      rendered.bibliographyLayout = whole.bibliographyLayout;
    }
  } else
    rendered = renderCitations(docs.flatMap(citationNodes), entries, input.csl, engines, notePlaces(docs));
  return {
    doc,
    title: input.title,
    subtitle: '',
    authors: bookAuthors(input.authors),
    abstract: null,
    keywords: [],
    body: chapters.flatMap((chapter) => chapter.body),
    language,
    paperSize: input.paperSize,
    numbering,
    numbers,
    ...rendered,
    ...(noteCitations ? { noteCitations } : {}),
    bibliographyTitle: 'Bibliography',
    entries,
    threads: new Map(),
    images,
    ...(input.reference ? { reference: input.reference } : {}),
    book: {
      publisher: input.publisher,
      isbn: input.isbn,
      copyright: input.copyright,
      cover: input.cover,
      chapters,
    },
  };
}

/** The book in one format: PDF with `pdf` (the server's Chromium), the rest by the registry's writers. */
export async function exportBook(
  format: BookExportFormat,
  input: BookExportInput,
  engines?: EngineCaches,
  pdf?: (prepared: PreparedDocument) => Promise<Uint8Array>,
): Promise<ExportedFile> {
  const accepted = format === 'pdf' || Boolean((EXPORT_FORMATS[format] as ExportFormat).accepted);
  const prepared = prepareBook(input, engines, { accepted });
  const name = fileBaseName(prepared.title);
  if (format === 'pdf') {
    if (!pdf) throw new Error('PDF needs a browser to lay out pages');
    return { name: `${name}.pdf`, mime: 'application/pdf', data: await pdf(prepared) };
  }
  const spec: ExportFormat = EXPORT_FORMATS[format];
  return { name: `${name}.${spec.extension}`, mime: spec.mime, data: await spec.build(prepared) };
}
