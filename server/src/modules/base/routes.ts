import { flatpageRequest } from '@scriptorium/common/api/base';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { HttpError, parseForm } from '../../http/errors';
import { getFlatpage } from './commands/get-flatpage';
import { presentConfiguration, presentFlatpage } from './presenters';

export function baseRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    // Open to visitors: the pre-login shell needs the language and the providers.
    app.get('/configuration/', async (request) => presentConfiguration(ctx, request));

    app.post('/flatpage/', async (request) => {
      const { url } = parseForm(request, flatpageRequest);
      const page = await getFlatpage(ctx.db, url);
      if (!page) throw new HttpError(404);
      return presentFlatpage(page, request.language);
    });
  };
}
