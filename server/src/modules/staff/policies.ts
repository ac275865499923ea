import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/rows';
import { HttpError } from '../../http/errors';
import { requireUser } from '../../http/session';

/** Staff only: visitors get 401, other users 403. */
export function requireStaff(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (!user.is_staff) throw new HttpError(403);
  return user;
}
