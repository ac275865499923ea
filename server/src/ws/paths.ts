import type { Config } from '../config';

/**
 * The path part of ws_url_base ('/ws' by default), without a trailing slash. ws_url_base may be
 * an absolute ws(s):// address of another host (a proxy in front); its path is still ours.
 */
export function wsPathPrefix(config: Pick<Config, 'wsUrlBase'>): string {
  const base = config.wsUrlBase;
  const pathname = /^[a-z]+:\/\//i.test(base) ? new URL(base).pathname : base;
  return `/${pathname.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
}

/** Whether a request path (without query) is one of the websocket endpoints. */
export function isWsPath(config: Pick<Config, 'wsUrlBase'>, pathname: string): boolean {
  const prefix = wsPathPrefix(config);
  // A base of '/' would claim every path: then the endpoints find the user from the cookie themselves.
  if (prefix === '') return false;
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}
