import type { BookExportInput } from '@scriptorium/common/export/book';
import type { ExportedFile } from '@scriptorium/common/export/registry';
import { type BookExportFormat, bookMetadata, bookSettings } from '@scriptorium/common/plugins/books-api';
import type { AppContext } from '../../context';
import { loadCsl } from '../../modules/documents/export/csl-files';
import { fileOf } from '../../modules/documents/export/export-file';
import { runExportTask } from '../../modules/documents/export/export-pool';
import { gatherDocumentContent, readImageFile } from '../../modules/documents/export/gather-input';
import { asHeavyTask } from '../../modules/documents/export/heavy-work';
import { printHtmlPdf } from '../../modules/documents/export/pdf';
import { printerFor } from '../../modules/documents/export/printer';
import { exportReferenceFor } from '../../modules/documents/export/reference-sources';
import { answeringBudgetRefusals } from '../../modules/documents/export/refusals';
import { type BooksDb, bookChapterDocuments, parseJson, requireReadable } from './queries';

export interface BookExport {
  file: ExportedFile;
  /** The places (from 1) of the chapters the user cannot read, left out of the file. */
  leftOut: number[];
}

/**
 * A book in one format for one user (issue 21): the chapters this user may read (the same right
 * as reading the document), in order, with the book's metadata, cover and citation style. Made in
 * the export worker pool (a PDF printed by the pooled browser) as one of the user's heavy tasks.
 */
export function exportBookFile(
  ctx: AppContext,
  db: BooksDb,
  userId: number,
  id: number,
  format: BookExportFormat,
): Promise<BookExport> {
  return asHeavyTask(ctx.config, userId, () =>
    answeringBudgetRefusals(() => makeBookFile(ctx, db, userId, id, format)),
  );
}

async function makeBookFile(
  ctx: AppContext,
  db: BooksDb,
  userId: number,
  id: number,
  format: BookExportFormat,
): Promise<BookExport> {
  const row = await requireReadable(db, userId, id);
  const metadata = parseJson(bookMetadata, row.metadata);
  const settings = parseJson(bookSettings, row.settings);
  const chapters = await bookChapterDocuments(db, userId, id);
  const leftOut = chapters.flatMap((chapter, index) => (chapter.document ? [] : [index + 1]));
  const readable: BookExportInput['chapters'] = [];
  const owners: number[] = [];
  for (const chapter of chapters) {
    if (!chapter.document) continue;
    owners.push(chapter.document.owner_id);
    readable.push({
      ...(await gatherDocumentContent(ctx, userId, chapter.document.id)),
      part: chapter.part,
      title: chapter.document.title,
    });
  }
  const first = (
    readable[0]?.content as { attrs?: { citationstyle?: string; language?: string } } | undefined
  )?.attrs;
  const language = metadata.language || first?.language || 'en-US';
  const style = settings.citation_style || first?.citationstyle || 'apa';
  // "As in each chapter": every chapter's citations in its own document's style (loaded once each).
  if (!settings.citation_style) {
    const styles = new Map<string, BookExportInput['csl']>();
    for (const chapter of readable) {
      const own =
        (chapter.content as { attrs?: { citationstyle?: string } } | null)?.attrs?.citationstyle || 'apa';
      if (!styles.has(own)) styles.set(own, await loadCsl(own, language));
      chapter.csl = styles.get(own) ?? null;
    }
  }
  // A book whose chapters all come from one stored template takes its export files (the reference
  // DOCX), looked up as for the first chapter exported alone: with its owner's rights.
  const templates = new Set(
    readable.map(
      (chapter) => (chapter.content as { attrs?: { template?: string } } | null)?.attrs?.template ?? '',
    ),
  );
  const [template] = templates;
  const reference =
    templates.size === 1 && template ? await exportReferenceFor(ctx, owners[0], template) : null;
  let cover: BookExportInput['cover'] = null;
  if (metadata.cover_image !== null) {
    // The cover belongs to the book: whoever may read the book sees it.
    const image = await ctx.db
      .selectFrom('usermedia_images')
      .select(['sha256', 'file_type'])
      .where('id', '=', metadata.cover_image)
      .executeTakeFirst();
    if (image) cover = await readImageFile(ctx.config.dataDir, image.sha256, image.file_type);
  }
  const input: BookExportInput = {
    title: row.title,
    authors: metadata.authors,
    publisher: metadata.publisher,
    isbn: metadata.isbn,
    copyright: metadata.copyright,
    language,
    paperSize: settings.paper_size,
    citationStyle: style,
    csl: await loadCsl(style, language),
    cover,
    bibliography: settings.bibliography,
    chapters: readable,
    ...(reference ? { reference } : {}),
  };
  if (format !== 'pdf')
    return { file: fileOf(await runExportTask(ctx.config, { kind: 'book', format, input })), leftOut };
  let name = '';
  const data = await printHtmlPdf(
    printerFor(ctx.config),
    ctx.config.pdfMaxPages,
    settings.paper_size,
    true,
    async (contentsPages) => {
      const made = await runExportTask(ctx.config, {
        kind: 'book-html',
        input,
        contentsPages: contentsPages ? [...contentsPages] : null,
      });
      if (made.kind !== 'html') throw new Error(`unexpected export result ${made.kind}`);
      name = made.name;
      return made.html;
    },
  );
  const file = { name, mime: 'application/pdf', data };
  return { file, leftOut };
}
