import { endpointPath } from '@scriptorium/common/api/endpoint';
import { booksApi } from '@scriptorium/common/api/endpoints/plugins';
import type {
  BookAccessEntry,
  BookEntry,
  BookExportFormat,
  BookListEntry,
  BookMetadata,
  BookRight,
  BookSettings,
  ChapterInput,
} from '@scriptorium/common/plugins/books-api';
import { call } from '../../api/client';
import { attachmentFileName, downloadBlob } from '../../api/download';
import { putRows, readRow, rowsThroughCache, throughCache } from '../../offline/local-db';

/** The overview's rows; offline, the ones cached in the local database's books_data store. */
export async function fetchBooks(): Promise<BookListEntry[]> {
  return rowsThroughCache('books_data', async () => (await call(booksApi.list)).books);
}

/** One book with its chapters; offline, the copy cached when it was last opened. */
export async function fetchBook(id: number): Promise<BookEntry> {
  return throughCache(
    async () => (await call(booksApi.get, { id })).book,
    (book) => putRows('books_data', [book]),
    async () => {
      const row = await readRow<BookEntry | BookListEntry>('books_data', id);
      return row && 'chapters' in row ? row : null;
    },
  );
}

export async function createBook(title = ''): Promise<number> {
  return (await call(booksApi.create, { title })).id;
}

export async function saveBook(id: number, title: string, metadata: BookMetadata, settings: BookSettings) {
  await call(booksApi.save, { id, title, metadata, settings });
}

export async function saveChapters(id: number, chapters: ChapterInput[]): Promise<BookEntry> {
  return (await call(booksApi.chapters, { id, chapters })).book;
}

export async function deleteBooks(ids: number[]): Promise<void> {
  await call(booksApi.delete, { ids });
}

export async function fetchBookAccess(id: number): Promise<BookAccessEntry[]> {
  return (await call(booksApi.accessGet, { id })).access;
}

export async function saveBookAccess(id: number, access: { user_id: number; rights: BookRight }[]) {
  await call(booksApi.accessSave, { id, access });
}

/** A book export that did not answer a file. */
export class BookExportError extends Error {
  constructor(readonly status: number) {
    super(`book export answered ${status}`);
  }
}

/**
 * Fetches the whole book as a file from the server and offers it as a download; answers the
 * places (from 1) of the chapters left out because this user cannot read them.
 */
export async function downloadBookExport(id: number, format: BookExportFormat): Promise<number[]> {
  const response = await fetch(endpointPath(booksApi.export, { id, format }), { credentials: 'same-origin' });
  if (!response.ok) throw new BookExportError(response.status);
  const blob = await response.blob();
  downloadBlob(blob, attachmentFileName(response.headers.get('content-disposition'), `book.${format}`));
  return (response.headers.get('x-chapters-left-out') ?? '').split(',').filter(Boolean).map(Number);
}
