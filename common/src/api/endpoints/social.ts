import { z } from 'zod';
import { endpoint } from '../endpoint';

/**
 * /api/social/: browser navigations rather than calls (each answers with a redirect), described
 * here so that the server's routes and the configuration's login_url share one path.
 */
export const socialApi = {
  /** Starts a login, or with process=connect adds the identity to the logged-in user. */
  login: endpoint({
    method: 'GET',
    path: '/api/social/:provider/login/',
    request: z.object({ process: z.string().max(20).optional() }),
    response: z.never(),
  }),
  /** Where the provider sends the browser back (the OAuth redirect URI). */
  callback: endpoint({
    method: 'GET',
    path: '/api/social/:provider/callback/',
    request: z.record(z.string(), z.unknown()),
    response: z.never(),
  }),
};
