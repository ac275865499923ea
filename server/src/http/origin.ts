import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * Whether an Origin header names this site: SITE_URL's origin, or the origin the request itself
 * was addressed to (a deployment reached under another name). A missing Origin is allowed:
 * clients without one are not browsers, and so cannot be made to lend someone else's cookies.
 */
export function originAllowed(
  origin: string | undefined,
  request: FastifyRequest,
  config: Pick<Config, 'siteUrl'>,
): boolean {
  if (origin === undefined) return true;
  const allowed = new Set([
    new URL(config.siteUrl).origin.toLowerCase(),
    `${request.protocol}://${request.host}`.toLowerCase(),
  ]);
  return allowed.has(origin.toLowerCase());
}
