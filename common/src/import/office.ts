import { type Block, DocumentBuilder, type FrontMatter } from './build';
import type { CitationCollector } from './citations';
import type { ImportedComment, ImportedDocument, ImportedImage, ImportedThread } from './model';
import type { ImportReport } from './problems';

// What the word processor readers (DOCX, ODT) share besides the blocks and their builder.

/** A date of an office file (ISO 8601) in milliseconds since 1970; 0 when it is missing or unreadable. */
export function dateOf(value: string): number {
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : 0;
}

/** Adds a code paragraph: to the code block right before it, else as a new code block. */
export function appendCode(out: Block[], code: string): void {
  const last = out[out.length - 1];
  if (last?.kind === 'code') last.text += `\n${code}`;
  else out.push({ kind: 'code', text: code });
}

/** What a word processor file's reader (DOCX, ODT) gathers besides the body's blocks. */
export interface OfficeReader {
  readonly report: ImportReport;
  readonly citations: CitationCollector;
  readonly images: ImportedImage[];
  readonly threads: ImportedThread[];
}

/** Adds an open thread of one comment to the reader's threads; its id (the comment mark's id). */
export function addCommentThread(reader: Pick<OfficeReader, 'threads'>, comment: ImportedComment): number {
  const id = reader.threads.length + 1;
  reader.threads.push({ id, resolved: false, comments: [comment] });
  return id;
}

/** The imported document of a word processor file: the body under its title, and what the reader gathered. */
export function officeDocument(
  format: 'docx' | 'odt',
  reader: OfficeReader,
  title: string,
  body: Block[],
  found: { front?: FrontMatter; referenced?: ReadonlySet<string> } = {},
): ImportedDocument {
  const bibliography = reader.citations.list();
  const builder = new DocumentBuilder(reader.report);
  builder.referenced = new Set(found.referenced ?? []);
  const built = builder.document({ title, body, bibliography, ...(found.front ? { front: found.front } : {}) });
  return {
    format,
    title: built.title,
    content: built.content,
    images: reader.images,
    bibliography,
    threads: reader.threads,
    notes: reader.report.list(),
  };
}
