import { booksApi } from '@scriptorium/common/api/endpoints/plugins';
import { pathId } from '@scriptorium/common/api/fields';
import { isBookExportFormat } from '@scriptorium/common/plugins/books-api';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { route } from '../../http/endpoint';
import { FormError, HttpError } from '../../http/errors';
import { requireUser } from '../../http/session';
import { areContacts } from '../../modules/contacts/queries';
import { attachmentHeader } from '../../modules/documents/export/gather-input';
import { findVisibleDocument } from '../../modules/documents/queries';
import { displayName, NAME_COLUMNS } from '../../modules/user/presenters';
import { userRoute } from '../../modules/user-route';
import { exportBookFile } from './export';
import {
  type BooksTables,
  getBook,
  listBooks,
  requireBookOwner,
  requireReadable,
  requireWritable,
} from './queries';

/** The Books plugin's API (booksApi), registered only while the plugin is on. */
export function booksRoutes(ctx: AppContext): FastifyPluginAsync {
  const db = ctx.db.withTables<BooksTables>();
  return async (app) => {
    route(app, booksApi.list, async (request) => {
      const user = requireUser(request);
      return { books: await listBooks(db, user.id) };
    });

    userRoute(app, booksApi.get, async ({ id }, user) => {
      return { book: await getBook(db, user.id, id) };
    });

    userRoute(app, booksApi.create, async ({ title }, user) => {
      const now = Date.now();
      const row = await db
        .insertInto('books')
        .values({ owner_id: user.id, title, added: now, updated: now, metadata: '', settings: '' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id };
    });

    userRoute(app, booksApi.save, async (input, user) => {
      await requireWritable(db, user.id, input.id);
      if (input.metadata.cover_image !== null) {
        // The cover comes from the saving user's own image library.
        const image = await ctx.db
          .selectFrom('usermedia_images')
          .select('id')
          .where('id', '=', input.metadata.cover_image)
          .where('owner_id', '=', user.id)
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
      return { updated };
    });

    // The whole chapter list in its new order: one call for adding, removing and reordering.
    userRoute(app, booksApi.chapters, async (input, user) => {
      const ids = input.chapters.map((chapter) => chapter.document_id);
      if (new Set(ids).size !== ids.length) throw new HttpError(400, { error: 'duplicate_chapter' });
      await db.transaction().execute(async (trx) => {
        await requireWritable(trx, user.id, input.id);
        const existing = new Set(
          (
            await trx
              .selectFrom('book_chapters')
              .select('document_id')
              .where('book_id', '=', input.id)
              .execute()
          ).map((row) => row.document_id),
        );
        // A new chapter must be a document the user can read; chapters already in the book stay
        // even when this writer cannot read them (another author added them).
        for (const id of ids) {
          if (!existing.has(id) && !(await findVisibleDocument(trx as unknown as Db, user.id, id))) {
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
      return { book: await getBook(db, user.id, input.id) };
    });

    // Owners delete their books; a collaborator deleting a shared book leaves it.
    userRoute(app, booksApi.delete, async ({ ids }, user) => {
      const unique = [...new Set(ids)];
      await db.transaction().execute(async (trx) => {
        for (const id of unique) {
          const book = await requireReadable(trx, user.id, id);
          if (book.owner_id === user.id) await trx.deleteFrom('books').where('id', '=', id).execute();
          else
            await trx
              .deleteFrom('book_access')
              .where('book_id', '=', id)
              .where('user_id', '=', user.id)
              .execute();
        }
      });
      return { deleted: unique };
    });

    userRoute(app, booksApi.accessGet, async ({ id }, user) => {
      await requireBookOwner(db, user.id, id);
      const rows = await db
        .selectFrom('book_access')
        .innerJoin('users', 'users.id', 'book_access.user_id')
        .select(['book_access.user_id', 'book_access.rights', ...NAME_COLUMNS])
        .where('book_access.book_id', '=', id)
        .orderBy('book_access.id')
        .execute();
      return {
        access: rows.map((row) => ({
          user_id: row.user_id,
          name: displayName(row),
          rights: row.rights as 'read' | 'write',
        })),
      };
    });

    route(app, booksApi.export, async (request, reply) => {
      const user = requireUser(request);
      const id = pathId(request.params.id);
      const format = request.params.format;
      if (id === null || !isBookExportFormat(format)) throw new HttpError(404);
      const { file, leftOut } = await exportBookFile(ctx, db, user.id, id, format);
      reply.header('content-disposition', attachmentHeader(file.name));
      reply.header('cache-control', 'private, no-store');
      reply.header('x-chapters-left-out', leftOut.join(','));
      return reply
        .type(file.mime)
        .send(Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength));
    });

    // Replaces every right at once; a book is shared with contacts only.
    userRoute(app, booksApi.accessSave, async (input, user) => {
      await db.transaction().execute(async (trx) => {
        await requireBookOwner(trx, user.id, input.id);
        for (const item of input.access) {
          if (item.user_id === user.id || !(await areContacts(trx as unknown as Db, user.id, item.user_id))) {
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
              [...unique].map(([userId, rights]) => ({
                book_id: input.id,
                user_id: userId,
                rights,
                created_at: now,
              })),
            )
            .execute();
        }
      });
      return { done: true as const };
    });
  };
}
