import {
  type Block,
  DocumentBuilder,
  type FrontMatter,
  type Inline,
  parseAuthorLine,
  sequenceCategory,
} from './build';
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
  found: {
    front?: FrontMatter;
    referenced?: ReadonlySet<string>;
    headingNumbering?: string;
    /** Whether the file's notes hold its citations (Zotero's preferences; undefined: not said). */
    citationNotes?: boolean;
  } = {},
): ImportedDocument {
  const bibliography = reader.citations.list();
  const builder = new DocumentBuilder(reader.report);
  builder.referenced = new Set(found.referenced ?? []);
  builder.citationNotes = found.citationNotes ?? true;
  const built = builder.document({
    title,
    body,
    bibliography,
    ...(found.front ? { front: found.front } : {}),
    ...(found.headingNumbering ? { headingNumbering: found.headingNumbering } : {}),
  });
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

/** The front matter a paragraph style names (our exports' and Word's, LibreOffice's styles). */
export type FrontRole = 'subtitle' | 'author' | 'abstract' | 'abstractTitle' | 'keywords';

/** The front matter role of a paragraph style's name, lower case. */
export function frontRole(name: string): FrontRole | undefined {
  if (name === 'subtitle') return 'subtitle';
  if (name === 'author') return 'author';
  if (name === 'abstract title') return 'abstractTitle';
  if (name === 'abstract') return 'abstract';
  if (name === 'keywords') return 'keywords';
  return undefined;
}

/** A paragraph of the front matter into its part; false when it is the body's after all. */
export function frontMatterParagraph(
  front: Required<FrontMatter>,
  role: FrontRole,
  inlines: Inline[],
): boolean {
  const text = plain(inlines).trim();
  switch (role) {
    case 'subtitle':
      if (front.subtitle) return false;
      front.subtitle = text;
      return true;
    case 'author':
      front.authors.push(...(parseAuthorLine(text) ?? []));
      return true;
    case 'abstractTitle':
      return true;
    case 'abstract':
      front.abstract.push({ kind: 'paragraph', inlines });
      return true;
    case 'keywords':
      front.keywords.push(
        ...text
          .replace(
            /^(keywords|key words|schlüsselwörter|schlagwörter|mots[- ]clés|palabras clave|parole chiave|palavras-chave)\s*[:.]\s*/i,
            '',
          )
          .split(/\s*[,;·]\s*/)
          .filter(Boolean),
      );
      return true;
  }
}

/** Plain text of inlines. */
export function plain(inlines: Inline[]): string {
  return inlines
    .map((item) => (item.kind === 'text' ? item.text : item.kind === 'cross_reference' ? item.text : ''))
    .join('');
}

/**
 * A caption paragraph: "Figure {SEQ Figure}: text" gives the text after the number and the
 * category of the sequence; a caption without SEQ field loses a leading "Table 2:" label. A caption
 * with neither is an unnumbered figure's ('none': our export writes those so).
 */
export function captionBlock(inlines: Inline[], sequence: string): Block {
  const anchors = inlines.flatMap((item) => (item.kind === 'anchor' ? [item.name] : []));
  const at = inlines.findIndex((item) => item.kind === 'sequence');
  let text: string;
  let category = sequence ? sequenceCategory(sequence) : '';
  if (at >= 0) {
    // The SEQ field's result (the number) is the text right after it.
    const after = plain(inlines.slice(at + 1));
    text = after.replace(/^\s*[\dA-Za-z.-]*\d[\dA-Za-z.-]*/, '').replace(/^\s*[:.\u2013\u2014-]?\s*/, '');
  } else {
    const full = plain(inlines);
    const label = /^\s*(\p{L}+)\s+\d+[.\d]*\s*[:.\u2013\u2014-]\s*/u.exec(full);
    text = label ? full.slice(label[0].length) : full;
    if (label) category = sequenceCategory(label[1]);
  }
  return { kind: 'caption', category: category || 'none', text: text.trim(), full: inlines, anchors };
}

/**
 * Image formats a browser cannot show and no export can use (Windows metafiles, LibreOffice's SVM):
 * the reader puts a placeholder naming them instead. The name of the format, or null.
 */
export function metafile(bytes: Uint8Array, path: string): string | null {
  const head = Array.from(bytes.slice(0, 4)).join();
  if (/\.emf$/i.test(path) || (head === '1,0,0,0' && String.fromCharCode(...bytes.slice(41, 44)) === 'EMF'))
    return 'EMF';
  if (/\.wmf$/i.test(path) || head === '215,205,198,154') return 'WMF';
  if (/\.svm$/i.test(path) || String.fromCharCode(...bytes.slice(0, 6)) === 'VCLMTF') return 'SVM';
  return null;
}
