import { booksApi } from '@scriptorium/common/api/endpoints/plugins';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { route } from '../../http/endpoint';
import { requireUser } from '../../http/session';
import { listBooks } from './queries';

/** The Books plugin's API (booksApi), registered only while the plugin is on. */
export function booksRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, booksApi.list, async (request) => {
      const user = requireUser(request);
      return { books: await listBooks(ctx, user.id) };
    });
  };
}
