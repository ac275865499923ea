import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Config } from '../../../config';

/**
 * The fetch of a bibliography source (issue 57) is a request the server makes on a user's word:
 * an SSRF risk. Only http(s); every address a host name resolves to is checked (not the name:
 * a public name may resolve to 127.0.0.1), and a literal address too; every redirect is a new
 * request, checked the same way; the answer has a size limit and the whole fetch (redirects and
 * pages) a time limit. Private, loopback and link-local ranges are refused unless the operator
 * allows them (BIB_SOURCES_ALLOW_PRIVATE).
 */

export type SourceErrorCode =
  | 'bad_url'
  | 'private_address'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'network'
  | 'http_status'
  | 'not_bibliography'
  | 'zotero_forbidden'
  | 'library_changed'
  | 'invalid_entries'
  | 'busy';

/** A fetch or sync that failed: its code (and a detail such as the HTTP status) goes in the report. */
export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    readonly detail?: string,
  ) {
    super(code);
  }
}

export type FetchConfig = Pick<
  Config,
  'bibSourcesAllowPrivate' | 'bibSourcesMaxBytes' | 'bibSourcesTimeLimitMs'
>;

const MAX_REDIRECTS = 5;

const REFUSED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:a.b.c.d or ::ffff:xxxx:xxxx). */
function mappedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function allowList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (isIP(address) === 0) continue;
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/** Whether the fetch may connect to `address` (an IP literal). */
export function addressAllowed(
  address: string,
  allowPrivate: FetchConfig['bibSourcesAllowPrivate'],
): boolean {
  if (allowPrivate === true) return true;
  const v4 = isIP(address) === 4 ? address : mappedIpv4(address);
  const family = v4 ? 'ipv4' : 'ipv6';
  const plain = v4 ?? address;
  if (!REFUSED.check(plain, family)) return true;
  return Array.isArray(allowPrivate) && allowList(allowPrivate).check(plain, family);
}

function refusedAddress(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error('address refused');
  error.code = 'EPRIVATEADDRESS';
  return error;
}

/** dns.lookup, keeping only the addresses the fetch may reach (the connection uses one of these). */
function guardedLookup(config: FetchConfig): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((a) => addressAllowed(a.address, config.bibSourcesAllowPrivate));
      if (allowed.length === 0) return callback(refusedAddress(), '', 0);
      if (options.all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

export interface FetchedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The URL that answered (after redirects). */
  url: string;
}

/** One fetch's budget, shared by its redirects and (Zotero) pages. */
export class FetchBudget {
  readonly deadline: number;
  bytes = 0;
  constructor(readonly config: FetchConfig) {
    this.deadline = Date.now() + config.bibSourcesTimeLimitMs;
  }
}

function checkedUrl(raw: string, config: FetchConfig): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SourceError('bad_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceError('bad_url');
  if (url.username || url.password) throw new SourceError('bad_url');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !addressAllowed(host, config.bibSourcesAllowPrivate))
    throw new SourceError('private_address');
  return url;
}

function requestOnce(
  url: URL,
  headers: Record<string, string>,
  budget: FetchBudget,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const config = budget.config;
  return new Promise((resolve, reject) => {
    const left = budget.deadline - Date.now();
    if (left <= 0) return reject(new SourceError('timeout'));
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'GET',
      headers: { 'accept-encoding': 'identity', 'user-agent': 'Scriptorium bibliography sync', ...headers },
      lookup: guardedLookup(config),
      // The default agent may keep a socket to an address checked for another request: none here.
      agent: false,
    });
    let settled = false;
    const fail = (error: SourceError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new SourceError('timeout')), left);
    request.on('error', (error: NodeJS.ErrnoException) => {
      fail(
        error.code === 'EPRIVATEADDRESS' ? new SourceError('private_address') : new SourceError('network'),
      );
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && budget.bytes + declared > config.bibSourcesMaxBytes)
        return fail(new SourceError('too_large'));
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        budget.bytes += chunk.length;
        if (budget.bytes > config.bibSourcesMaxBytes) return fail(new SourceError('too_large'));
        chunks.push(chunk);
      });
      response.on('error', () => fail(new SourceError('network')));
      response.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.end();
  });
}

/**
 * GETs `raw` within the budget, following up to five redirects (each checked as a new URL).
 * Answers any final status; the caller decides what a 304 or a 404 means.
 */
export async function guardedGet(
  raw: string,
  headers: Record<string, string>,
  budget: FetchBudget,
): Promise<FetchedAnswer> {
  let url = checkedUrl(raw, budget.config);
  for (let hop = 0; ; hop++) {
    const answer = await requestOnce(url, headers, budget);
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400 && answer.status !== 304 && location) {
      if (hop >= MAX_REDIRECTS) throw new SourceError('too_many_redirects');
      let next: string;
      try {
        next = new URL(location, url).href;
      } catch {
        throw new SourceError('bad_url');
      }
      const nextUrl = checkedUrl(next, budget.config);
      // Credentials (a Zotero key) go only to the origin they were meant for.
      if (nextUrl.origin !== url.origin) headers = stripCredentials(headers);
      url = nextUrl;
      continue;
    }
    return { ...answer, url: url.href };
  }
}

function stripCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !/^(zotero-api-key|authorization)$/i.test(name)),
  );
}
