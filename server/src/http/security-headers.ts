import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';

/** Only host characters: the Host header is client input and ends up inside a header value. */
const HOST_PATTERN = /^[A-Za-z0-9.\-:[\]]+$/;

export function contentSecurityPolicy(host: string | undefined): string {
  // 'self' covers same-origin websockets in current browsers; older ones need ws:/wss: spelled out.
  const sockets = host && HOST_PATTERN.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${sockets}`,
    "worker-src 'self' blob:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * An API answer is data, never a page: nothing may load from it or frame it (OWASP's advice for
 * REST answers). The page's policy there said nothing more and was a third of the headers' bytes
 * of every call (issue 23).
 */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The policy of the last few Host headers seen: one string per host, not one per answer. */
const policies = new Map<string | undefined, string>();

function cachedPolicy(host: string | undefined): string {
  let policy = policies.get(host);
  if (policy === undefined) {
    policy = contentSecurityPolicy(host);
    // Host is client input: a bounded cache, cleared rather than grown without end.
    if (policies.size >= 64) policies.clear();
    policies.set(host, policy);
  }
  return policy;
}

export function registerSecurityHeaders(app: FastifyInstance, ctx: AppContext): void {
  const https = ctx.config.siteUrl.startsWith('https://');
  // A callback, not async: on every answer, and an async hook costs a promise and a turn.
  app.addHook('onSend', (request: FastifyRequest, reply, payload, done) => {
    const api = request.url.startsWith('/api/');
    reply.header('content-security-policy', api ? API_POLICY : cachedPolicy(request.headers.host));
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    if (https) reply.header('strict-transport-security', 'max-age=31536000');
    done(null, payload);
  });
}
