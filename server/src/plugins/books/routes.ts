import type { bookListResponse } from '@scriptorium/common/plugins/books-api';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/session';
import { listBooks } from './queries';

/** The Books plugin's API, mounted at /api/books only while the plugin is on. */
export function booksRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get('/list/', async (request): Promise<z.infer<typeof bookListResponse>> => {
      const user = requireUser(request);
      return { books: await listBooks(ctx, user.id) };
    });
  };
}
