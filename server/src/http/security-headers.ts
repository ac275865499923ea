import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { AppContext } from '../context';

/**
 * The page's policy, fixed at start from the configuration: SITE_URL's host (and WS_URL_BASE's,
 * when it names another) for the websockets. Never the request's Host header: that is client
 * input, and a policy that echoes it says whatever the client wants (issue 50).
 */
export function contentSecurityPolicy(config: Pick<Config, 'siteUrl' | 'wsUrlBase'>): string {
  // 'self' covers same-origin websockets in current browsers; older ones need ws:/wss: spelled out.
  const hosts = new Set([new URL(config.siteUrl).host]);
  if (/^wss?:\/\//i.test(config.wsUrlBase)) hosts.add(new URL(config.wsUrlBase).host);
  const sockets = [...hosts].map((host) => ` ws://${host} wss://${host}`).join('');
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

export function registerSecurityHeaders(app: FastifyInstance, ctx: AppContext): void {
  const https = ctx.config.siteUrl.startsWith('https://');
  const pagePolicy = contentSecurityPolicy(ctx.config);
  // A callback, not async: on every answer, and an async hook costs a promise and a turn.
  app.addHook('onSend', (request: FastifyRequest, reply, payload, done) => {
    const api = request.url.startsWith('/api/');
    reply.header('content-security-policy', api ? API_POLICY : pagePolicy);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    if (https) reply.header('strict-transport-security', 'max-age=31536000');
    done(null, payload);
  });
}
