import { baseApi } from '@scriptorium/common/api/endpoints/base';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { HttpError } from '../../http/errors';
import { getFlatpage } from './commands/get-flatpage';
import { configurationJson, keptConfigurationJson, presentFlatpage } from './presenters';

export function baseRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    // Open to visitors: the pre-login shell needs the language and the providers.
    route(app, baseApi.configuration, (request, reply) => {
      const send = (json: string) => reply.type('application/json; charset=utf-8').send(json);
      const kept = keptConfigurationJson(ctx, request);
      return kept === undefined ? configurationJson(ctx, request).then(send) : send(kept);
    });

    route(app, baseApi.flatpage, async (request) => {
      const page = await getFlatpage(ctx, parseInput(request, baseApi.flatpage));
      if (!page) throw new HttpError(404);
      return presentFlatpage(page, request.language);
    });
  };
}
