import { booksApi } from '@scriptorium/common/api/endpoints/plugins';
import { pathId } from '@scriptorium/common/api/fields';
import { isBookExportFormat } from '@scriptorium/common/plugins/books-api';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { route } from '../../http/endpoint';
import { HttpError } from '../../http/errors';
import { requireUser } from '../../http/session';
import { attachmentHeader } from '../../modules/documents/export/gather-input';
import { userRoute } from '../../modules/user-route';
import { createBook, deleteBooks, listBookAccess, saveBook, setBookAccess, setChapters } from './commands';
import { exportBookFile } from './export';
import { type BooksTables, getBook, listBooks } from './queries';

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

    userRoute(app, booksApi.create, async ({ title }, user) => ({
      id: await createBook(db, user.id, title),
    }));

    userRoute(app, booksApi.save, async (input, user) => ({ updated: await saveBook(db, user.id, input) }));

    userRoute(app, booksApi.chapters, async (input, user) => {
      await setChapters(db, user.id, input);
      return { book: await getBook(db, user.id, input.id) };
    });

    userRoute(app, booksApi.delete, async ({ ids }, user) => ({
      deleted: await deleteBooks(db, user.id, ids),
    }));

    userRoute(app, booksApi.accessGet, async ({ id }, user) => ({
      access: await listBookAccess(db, user.id, id),
    }));

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

    userRoute(app, booksApi.accessSave, async (input, user) => {
      await setBookAccess(db, user.id, input);
      return { done: true as const };
    });
  };
}
