export interface PageLocation {
  protocol: string;
  host: string;
}

/**
 * The socket address for `path` (e.g. '/base/') under the configured ws_url_base, which is a path
 * on this site ('/ws') or an absolute address ('wss://live.example.org/ws').
 */
export function socketUrl(wsUrlBase: string, path: string, location: PageLocation): string {
  const base = wsUrlBase.replace(/\/+$/, '');
  const tail = path.startsWith('/') ? path : `/${path}`;
  if (/^wss?:\/\//i.test(base)) return `${base}${tail}`;
  if (/^https?:\/\//i.test(base)) return `${base.replace(/^http/i, 'ws')}${tail}`;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${base.startsWith('/') ? base : `/${base}`}${tail}`;
}

/** A redirect message names a new base host ('live2.example.org:8443') or origin ('wss://...'). */
export function redirectedUrl(url: string, base: string): string {
  const target = new URL(url);
  if (/^wss?:\/\//i.test(base)) {
    const origin = new URL(base);
    target.protocol = origin.protocol;
    target.host = origin.host;
  } else {
    target.host = base;
  }
  return target.toString();
}
