import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/rows';
import { HttpError } from './errors';

/**
 * A staff-only area (the admin API, the staff routes of /api/base/) does not exist for anyone but
 * staff: visitors and other users get the same 404 as for an unknown address, before the body is
 * even read. Registered inside the area's plugin, so it runs after the app's CSRF and session hooks.
 */
export function registerStaffOnly(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!request.user?.is_staff) throw new HttpError(404);
  });
}

/** The staff member behind a request that passed registerStaffOnly. */
export function staffOf(request: FastifyRequest): UserRow {
  const user = request.user;
  if (!user?.is_staff) throw new HttpError(404);
  return user;
}
