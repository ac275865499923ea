import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { bearerTokenOf } from './bearer';
import { baseCookieOptions, CSRF_COOKIE, CSRF_HEADER } from './cookies';
import { HttpError } from './errors';
import { originAllowed } from './origin';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Double-submit CSRF protection (DESIGN.md): the browser client copies the `csrftoken` cookie into
 * the X-CSRFToken header. Another site can make the browser send the cookie, but cannot read it,
 * so it cannot produce the matching header. The Origin header, where a browser sends one, must
 * be this site's as well.
 */
export function registerCsrf(app: FastifyInstance, ctx: AppContext): void {
  const cookieOptions = { ...baseCookieOptions(ctx.config), httpOnly: false, maxAge: 365 * 24 * 3600 };

  // A callback, not async: on every request, and an async hook costs a promise and a turn.
  app.addHook('onRequest', (request, reply, done) => {
    // A bearer-token call (issue 57) needs neither cookie nor CSRF token: a browser never adds an
    // Authorization header to another site's request by itself, and the session hook then
    // ignores the cookies altogether.
    if (bearerTokenOf(request) !== undefined && request.url.startsWith('/api/')) return done();
    const cookie = request.cookies[CSRF_COOKIE];
    // Not on hashed assets: a Set-Cookie would make a shared cache hand one token to everybody.
    if (!cookie && !request.url.startsWith('/assets/')) {
      // Set on whatever answer goes out, so that the client has a token for its next unsafe call.
      reply.setCookie(CSRF_COOKIE, randomBytes(32).toString('hex'), cookieOptions);
    }
    done(UNSAFE_METHODS.has(request.method) ? refusal(ctx, request, cookie) : undefined);
  });
}

/** Why an unsafe request is refused, if it is. */
function refusal(
  ctx: AppContext,
  request: FastifyRequest,
  cookie: string | undefined,
): HttpError | undefined {
  const header = request.headers[CSRF_HEADER];
  if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) {
    return new HttpError(403, { error: 'csrf_failed', message: { key: 'errors.csrf' } });
  }
  // Defence in depth: a browser names the page that sent an unsafe request; another site's
  // page is refused even if it ever got hold of the token (a leaked or fixated cookie).
  if (!originAllowed(request.headers.origin, request, ctx.config)) {
    return new HttpError(403, { error: 'csrf_failed', message: { key: 'errors.csrf' } });
  }
  return undefined;
}
