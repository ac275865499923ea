import type { templateListResponse } from '@scriptorium/common/plugins/templates-api';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/session';
import { listTemplates } from './queries';

/** The Templates plugin's API, mounted at /api/templates only while the plugin is on. */
export function templatesRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get('/list/', async (request): Promise<z.infer<typeof templateListResponse>> => {
      const user = requireUser(request);
      return { templates: await listTemplates(ctx, user.id) };
    });
  };
}
