import {
  type BookEntry,
  type BookListEntry,
  type BookRight,
  bookMetadata,
  bookSettings,
} from '@scriptorium/common/plugins/books-api';
import type { Generated, Kysely } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { listVisibleDocuments, type VisibleDocument } from '../../modules/documents/queries';
import { displayName } from '../../modules/user/presenters';
import { type PluginItemColumns, presentItem } from '../items';

/** The plugin's own tables, typed here rather than in the core schema: a plugin brings its tables along. */
export type BooksTables = {
  books: PluginItemColumns & {
    /** JSON of BookMetadata and BookSettings; '' (a row of before 014) reads as the defaults. */
    metadata: Generated<string>;
    settings: Generated<string>;
  };
  book_chapters: {
    id: Generated<number>;
    book_id: number;
    document_id: number;
    position: number;
    part: string;
  };
  book_access: {
    id: Generated<number>;
    book_id: number;
    user_id: number;
    rights: string;
    created_at: number;
  };
};

export type BooksDb = Kysely<Database & BooksTables>;

export function parseJson<T>(schema: { parse(value: unknown): T }, text: string): T {
  return schema.parse(text === '' ? {} : JSON.parse(text));
}

interface BookRow {
  id: number;
  title: string;
  added: number;
  updated: number;
  owner_id: number;
  owner_username: string;
  owner_first_name: string;
  owner_last_name: string;
  metadata: string;
  settings: string;
  rights: string | null;
}

function bookQuery(db: BooksDb, userId: number) {
  return db
    .selectFrom('books')
    .innerJoin('users', 'users.id', 'books.owner_id')
    .leftJoin('book_access', (join) =>
      join.onRef('book_access.book_id', '=', 'books.id').on('book_access.user_id', '=', userId),
    )
    .select([
      'books.id',
      'books.title',
      'books.added',
      'books.updated',
      'books.owner_id',
      'users.username as owner_username',
      'users.first_name as owner_first_name',
      'users.last_name as owner_last_name',
      'books.metadata',
      'books.settings',
      'book_access.rights',
    ])
    .where((eb) => eb.or([eb('books.owner_id', '=', userId), eb('book_access.user_id', '=', userId)]));
}

function presentListEntry(row: BookRow, userId: number): BookListEntry {
  const isOwner = row.owner_id === userId;
  return {
    ...presentItem(row),
    is_owner: isOwner,
    owner: displayName({
      username: row.owner_username,
      first_name: row.owner_first_name,
      last_name: row.owner_last_name,
    }),
    rights: isOwner ? null : (row.rights as BookRight),
  };
}

/** The books the user owns or holds a right to, newest change first. */
export async function listBooks(db: BooksDb, userId: number): Promise<BookListEntry[]> {
  const rows = await bookQuery(db, userId)
    .orderBy('books.updated', 'desc')
    .orderBy('books.id', 'desc')
    .execute();
  return rows.map((row) => presentListEntry(row, userId));
}

/** A book the user may read; 404 otherwise, so other users' ids reveal nothing. */
export async function requireReadable(db: BooksDb, userId: number, id: number): Promise<BookRow> {
  const row = await bookQuery(db, userId).where('books.id', '=', id).executeTakeFirst();
  if (!row) throw new HttpError(404);
  return row;
}

/** A book the user may change (owner or write right); a reader gets 403. */
export async function requireWritable(db: BooksDb, userId: number, id: number): Promise<BookRow> {
  const row = await requireReadable(db, userId, id);
  if (row.owner_id !== userId && row.rights !== 'write') throw new HttpError(403);
  return row;
}

export async function requireBookOwner(db: BooksDb, userId: number, id: number): Promise<BookRow> {
  const row = await requireReadable(db, userId, id);
  if (row.owner_id !== userId) throw new HttpError(403);
  return row;
}

/**
 * The whole book for one viewer. Chapters come in their order; a chapter whose document the
 * viewer cannot read (it was not shared with them, or was unshared) stays in place without its
 * title, so the numbering is the same for everybody. Deleted documents have no chapter rows.
 */
export async function getBook(db: BooksDb, userId: number, id: number): Promise<BookEntry> {
  const row = await requireReadable(db, userId, id);
  const chapters = await bookChapterDocuments(db, userId, id);
  return {
    ...presentListEntry(row, userId),
    metadata: parseJson(bookMetadata, row.metadata),
    settings: parseJson(bookSettings, row.settings),
    chapters: chapters.map(({ document_id, part, document: doc }) => ({
      document_id,
      part,
      available: doc !== undefined,
      title: doc?.title ?? '',
      path: doc?.path ?? '',
    })),
  };
}

/** The chapters in order, each with its document when the viewer may read it. */
export async function bookChapterDocuments(
  db: BooksDb,
  userId: number,
  id: number,
): Promise<{ document_id: number; part: string; document?: VisibleDocument }[]> {
  const chapters = await db
    .selectFrom('book_chapters')
    .select(['document_id', 'part'])
    .where('book_id', '=', id)
    .orderBy('position')
    .execute();
  const visible = new Map(
    (await listVisibleDocuments(db as unknown as Db, userId)).map((doc) => [doc.id, doc]),
  );
  return chapters.map((chapter) => ({ ...chapter, document: visible.get(chapter.document_id) }));
}
