import type {
  bookAccessEntry,
  bookAccessSaveRequest,
  bookChaptersRequest,
  bookSaveRequest,
} from '@scriptorium/common/plugins/books-api';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { FormError, HttpError } from '../../http/errors';
import { areContacts } from '../../modules/contacts/queries';
import { findVisibleDocument } from '../../modules/documents/queries';
import { displayName, NAME_COLUMNS } from '../../modules/user/presenters';
import { type BooksDb, requireBookOwner, requireReadable, requireWritable } from './queries';

/** The Books plugin's commands: every write of its routes, each with its rule next to it. */

export async function createBook(db: BooksDb, userId: number, title: string): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('books')
    .values({ owner_id: userId, title, added: now, updated: now, metadata: '', settings: '' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Title, metadata and settings; the cover must come from the saving user's own image library. */
export async function saveBook(
  db: BooksDb,
  userId: number,
  input: z.output<typeof bookSaveRequest>,
): Promise<number> {
  await requireWritable(db, userId, input.id);
  if (input.metadata.cover_image !== null) {
    const image = await db
      .selectFrom('usermedia_images')
      .select('id')
      .where('id', '=', input.metadata.cover_image)
      .where('owner_id', '=', userId)
      .executeTakeFirst();
    if (!image) throw new FormError(400, [], { metadata: [{ key: 'errors.notFound' }] });
  }
  const updated = Date.now();
  await db
    .updateTable('books')
    .set({
      title: input.title,
      metadata: JSON.stringify(input.metadata),
      settings: JSON.stringify(input.settings),
      updated,
    })
    .where('id', '=', input.id)
    .execute();
  return updated;
}

/**
 * The whole chapter list in its new order: one call for adding, removing and reordering. A new
 * chapter must be a document the user can read; chapters already in the book stay even when this
 * writer cannot read them (another author added them).
 */
export async function setChapters(
  db: BooksDb,
  userId: number,
  input: z.output<typeof bookChaptersRequest>,
): Promise<void> {
  const ids = input.chapters.map((chapter) => chapter.document_id);
  if (new Set(ids).size !== ids.length) throw new HttpError(400, { error: 'duplicate_chapter' });
  await db.transaction().execute(async (trx) => {
    await requireWritable(trx, userId, input.id);
    const rows = await trx
      .selectFrom('book_chapters')
      .select('document_id')
      .where('book_id', '=', input.id)
      .execute();
    const existing = new Set(rows.map((row) => row.document_id));
    for (const id of ids) {
      if (!existing.has(id) && !(await findVisibleDocument(trx as unknown as Db, userId, id))) {
        throw new HttpError(404);
      }
    }
    await trx.deleteFrom('book_chapters').where('book_id', '=', input.id).execute();
    if (input.chapters.length > 0) {
      await trx
        .insertInto('book_chapters')
        .values(
          input.chapters.map((chapter, position) => ({
            book_id: input.id,
            document_id: chapter.document_id,
            part: chapter.part,
            position,
          })),
        )
        .execute();
    }
    await trx.updateTable('books').set({ updated: Date.now() }).where('id', '=', input.id).execute();
  });
}

/** Owners delete their books; a collaborator deleting a shared book leaves it. */
export async function deleteBooks(db: BooksDb, userId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  await db.transaction().execute(async (trx) => {
    for (const id of unique) {
      const book = await requireReadable(trx, userId, id);
      if (book.owner_id === userId) await trx.deleteFrom('books').where('id', '=', id).execute();
      else
        await trx.deleteFrom('book_access').where('book_id', '=', id).where('user_id', '=', userId).execute();
    }
  });
  return unique;
}

export async function listBookAccess(
  db: BooksDb,
  userId: number,
  id: number,
): Promise<z.infer<typeof bookAccessEntry>[]> {
  await requireBookOwner(db, userId, id);
  const rows = await db
    .selectFrom('book_access')
    .innerJoin('users', 'users.id', 'book_access.user_id')
    .select(['book_access.user_id', 'book_access.rights', ...NAME_COLUMNS])
    .where('book_access.book_id', '=', id)
    .orderBy('book_access.id')
    .execute();
  return rows.map((row) => ({
    user_id: row.user_id,
    name: displayName(row),
    rights: row.rights as 'read' | 'write',
  }));
}

/** Replaces every right at once; a book is shared with contacts only. */
export async function setBookAccess(
  db: BooksDb,
  userId: number,
  input: z.output<typeof bookAccessSaveRequest>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await requireBookOwner(trx, userId, input.id);
    for (const item of input.access) {
      if (item.user_id === userId || !(await areContacts(trx as unknown as Db, userId, item.user_id))) {
        throw new HttpError(400, { error: 'not_a_contact' });
      }
    }
    await trx.deleteFrom('book_access').where('book_id', '=', input.id).execute();
    const now = Date.now();
    const unique = new Map(input.access.map((item) => [item.user_id, item.rights]));
    if (unique.size > 0) {
      await trx
        .insertInto('book_access')
        .values(
          [...unique].map(([user, rights]) => ({
            book_id: input.id,
            user_id: user,
            rights,
            created_at: now,
          })),
        )
        .execute();
    }
  });
}
