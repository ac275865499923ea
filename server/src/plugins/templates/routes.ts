import { templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { route } from '../../http/endpoint';
import { requireUser } from '../../http/session';
import { listTemplates } from './queries';

/** The Templates plugin's API (templatesApi), registered only while the plugin is on. */
export function templatesRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, templatesApi.list, async (request) => {
      const user = requireUser(request);
      return { templates: await listTemplates(ctx, user.id) };
    });
  };
}
