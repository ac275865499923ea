import type { EngineCache } from '@scriptorium/common/bibliography/cluster-render';
import { exportBibtex } from '@scriptorium/common/bibliography/export';
import { type ImportReport, importBibliography } from '@scriptorium/common/bibliography/import-entries';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import { schema } from '@scriptorium/common/editor/schema';
import { type BookExportInput, exportBook, prepareBook } from '@scriptorium/common/export/book';
import { type ExportInput, prepareDocument } from '@scriptorium/common/export/model';
import {
  type ExportedFile,
  type ExportFormatName,
  exportDocument,
} from '@scriptorium/common/export/registry';
import { fileBaseName } from '@scriptorium/common/export/text';
import { parseMarkdown } from '@scriptorium/common/import/markdown';
import type { BookExportFormat } from '@scriptorium/common/plugins/books-api';
import { Step } from 'prosemirror-transform';
import { lowerThreadPriority, reportStarted, type StartSignal } from '../../../util/worker-threads';
import { parseSnapshot } from '../collab/store';
import { type ContentSource, UNREADABLE_SNAPSHOT } from './content-source';
import { loadCsl } from './csl-files';
import { printableHtml } from './printable-html';
import { readSource, type SourceRead } from './source-read';
import { type PdfMetadata, typesetHtml } from './typeset-html';

// Heavy work goes after the event loop that answers everyone (util/worker-threads.ts).
lowerThreadPriority();

/**
 * The body of an export worker thread (export-pool.ts): everything of an export that grows with
 * the document (parsing its JSON, citeproc over its citations, numbering, the writers, zipping)
 * runs here, never on the event loop: a DOCX of 5,000 citations held every request of the server
 * for 55 s. The main thread reads the database and the files and hands over text and bytes.
 * citeproc engines stay in this thread between exports (building one costs seconds).
 */

/** citeproc engines kept in this thread between exports (building one for a large style costs seconds). */
const exportEngines = new Map<string, { current?: EngineCache; key: string }>();

/** One document's export input as the main thread gathers it: the content not parsed yet. */
export interface DocumentExportInput extends Omit<ExportInput, 'content' | 'csl'> {
  source: ContentSource;
}

/** The document's JSON now: the snapshot with its later steps, or the text parsed. */
function contentOf(source: ContentSource): unknown {
  if ('text' in source) return JSON.parse(source.text) as unknown;
  let doc = parseSnapshot(source.snapshot);
  // Not a document of our schema: the main thread reads it its own way (currentContent).
  if (!doc) throw new Error(UNREADABLE_SNAPSHOT);
  for (const json of source.steps) {
    const result = Step.fromJSON(schema, json).apply(doc);
    if (!result.doc) throw new Error(`a stored step does not apply: ${result.failed}`);
    doc = result.doc;
  }
  return doc.toJSON();
}

export type ExportTask =
  /** A file of the registry (DOCX, ODT, HTML, EPUB, LaTeX, JATS, native). */
  | { kind: 'document'; format: ExportFormatName; input: DocumentExportInput }
  /** The print page's data for a document's PDF: the text with every suggestion accepted. */
  /** A document's typeset page (typeset-html.ts) and its PDF metadata, for its PDF. */
  | { kind: 'typeset'; input: DocumentExportInput }
  /** A book in a format of the registry. */
  | { kind: 'book'; format: Exclude<BookExportFormat, 'pdf'>; input: BookExportInput }
  /** A book's HTML to print; `contentsPages`: the pages of its chapters from the print before. */
  | { kind: 'book-html'; input: BookExportInput; contentsPages: [string, number][] | null }
  /** Markdown as blocks of our schema, its citation keys and image addresses resolved by the maps. */
  | {
      kind: 'markdown-blocks';
      markdown: string;
      citations: Record<string, string>;
      images: Record<string, { image: number; src: string }>;
    }
  /** A bibliography as a BibTeX file. */
  | { kind: 'bibtex'; entries: EntryData[] }
  /** A bibliography file (BibTeX, BibLaTeX, CSL-JSON, RIS, EndNote) read into entries. */
  | { kind: 'bibliography-import'; text: string }
  /** A bibliography source's answer (a file, or a Zotero library's CSL-JSON pages) read for a sync. */
  | { kind: 'bibliography-source'; text?: string; cslPages?: string[] };

export type ExportResult =
  | { kind: 'file'; file: ExportedFile }
  | { kind: 'html'; name: string; html: string; paperSize: 'A4' | 'US Letter' }
  | { kind: 'typeset'; name: string; html: string; metadata: PdfMetadata }
  | { kind: 'markdown-blocks'; content: unknown; unknownCitations: string[]; unknownImages: string[] }
  | { kind: 'text'; text: string }
  | { kind: 'bibliography'; report: ImportReport }
  | { kind: 'bibliography-source'; read: SourceRead };

/** The input of the writers; the style and language are the document's own, its CSL files read here. */
async function exportInput(input: DocumentExportInput): Promise<ExportInput> {
  const { source, ...rest } = input;
  const content = contentOf(source);
  const attrs = (content as { attrs?: { citationstyle?: string; language?: string } } | null)?.attrs;
  return { ...rest, content, csl: await loadCsl(attrs?.citationstyle ?? 'apa', attrs?.language ?? 'en-US') };
}

export default async function runExport(task: ExportTask & StartSignal): Promise<ExportResult> {
  reportStarted(task);
  switch (task.kind) {
    case 'document':
      return {
        kind: 'file',
        file: await exportDocument(task.format, await exportInput(task.input), exportEngines),
      };
    case 'typeset': {
      const prepared = prepareDocument(await exportInput(task.input), exportEngines, { accepted: true });
      return { kind: 'typeset', name: `${fileBaseName(prepared.title)}.pdf`, ...typesetHtml(prepared) };
    }
    case 'book':
      return { kind: 'file', file: await exportBook(task.format, task.input, exportEngines) };
    case 'book-html': {
      const prepared = prepareBook(task.input, exportEngines, { accepted: true });
      return {
        kind: 'html',
        name: `${fileBaseName(prepared.title)}.pdf`,
        html: printableHtml(prepared, task.contentsPages ? new Map(task.contentsPages) : undefined),
        paperSize: prepared.paperSize,
      };
    }
    case 'markdown-blocks': {
      const read = parseMarkdown(task.markdown, {
        citation: (key) => (Object.hasOwn(task.citations, key) ? task.citations[key] : null),
        image: (src) => (Object.hasOwn(task.images, src) ? task.images[src] : null),
      });
      return { kind: 'markdown-blocks', ...read, content: read.content.toJSON() };
    }
    case 'bibtex':
      return { kind: 'text', text: exportBibtex(task.entries) };
    case 'bibliography-import':
      return { kind: 'bibliography', report: importBibliography(task.text) };
    case 'bibliography-source':
      return { kind: 'bibliography-source', read: readSource(task) };
  }
}
