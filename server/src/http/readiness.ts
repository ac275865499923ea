import { baseApi } from '@scriptorium/common/api/endpoints/base';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { isWsPath } from '../ws/paths';
import { HttpError } from './errors';

export const CONFIGURATION_PATH = baseApi.configuration.path;

/** For a load balancer: the process answers (liveness), and it takes requests now (readiness). */
export const HEALTH_LIVE_PATH = '/api/health/live/';
export const HEALTH_READY_PATH = '/api/health/ready/';

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
  if (path === HEALTH_LIVE_PATH || path === HEALTH_READY_PATH) return undefined;
  if (!path.startsWith('/api/') && !isWsPath(ctx.config, path)) return undefined;
  if (method === 'GET' && path === CONFIGURATION_PATH) {
    return new HttpError(405, { error: 'not_ready', message: { key: 'errors.notReady' } });
  }
  return new HttpError(503);
}

/**
 * GET /api/health/live/: 200 while the process answers at all (a balancer or supervisor restarts
 * it otherwise). GET /api/health/ready/: 200 when it is migrated, not stopping and its database
 * answers; 503 with the reason (starting, stopping, database) otherwise, so the balancer sends
 * new requests and sockets elsewhere.
 */
export function registerHealth(app: FastifyInstance, ctx: AppContext): void {
  app.get(HEALTH_LIVE_PATH, (_request, reply) => {
    reply.header('cache-control', 'no-store').send({ status: 'live' });
  });
  app.get(HEALTH_READY_PATH, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!ctx.state.ready) return reply.code(503).send({ status: 'starting' });
    if (ctx.state.stopping) return reply.code(503).send({ status: 'stopping' });
    try {
      await sql`select 1`.execute(ctx.db);
    } catch {
      return reply.code(503).send({ status: 'database' });
    }
    return reply.send({ status: 'ready' });
  });
}
