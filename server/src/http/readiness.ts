import { baseApi } from '@scriptorium/common/api/endpoints/base';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { isWsPath } from '../ws/paths';
import { HttpError } from './errors';

export const CONFIGURATION_PATH = baseApi.configuration.path;

/**
 * While the process starts or migrates, the API must not touch the database. The client treats a
 * 405 on the configuration load as "being updated" (spec 2.1) and retries every 5 s.
 */
export function registerReadiness(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', async (request) => {
    if (ctx.state.ready) return;
    const path = request.url.split('?')[0];
    if (!path.startsWith('/api/') && !isWsPath(ctx.config, path)) return;
    if (request.method === 'GET' && path === CONFIGURATION_PATH) {
      throw new HttpError(405, { error: 'not_ready', message: { key: 'errors.notReady' } });
    }
    throw new HttpError(503);
  });
}
