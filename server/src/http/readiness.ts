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
  // A callback, not async: on every request, and an async hook costs a promise and a turn.
  app.addHook('onRequest', (request, _reply, done) => done(notReady(ctx, request.method, request.url)));
}

function notReady(ctx: AppContext, method: string, url: string): HttpError | undefined {
  if (ctx.state.ready) return undefined;
  const path = url.split('?')[0];
  if (!path.startsWith('/api/') && !isWsPath(ctx.config, path)) return undefined;
  if (method === 'GET' && path === CONFIGURATION_PATH) {
    return new HttpError(405, { error: 'not_ready', message: { key: 'errors.notReady' } });
  }
  return new HttpError(503);
}
