import type { Config } from '../../../config';
import type { BibSourcesTable } from '../../../db/schema';
import { type FetchBudget, type FetchedAnswer, guardedGet, SourceError } from './guarded-fetch';

/**
 * Fetches a source with a conditional request: a file with If-None-Match / If-Modified-Since
 * (its last ETag and Last-Modified), a Zotero library with If-Modified-Since-Version (its last
 * library version), in pages of 100 items following the `Link: rel="next"` of each answer.
 */

export type SourceRow = Pick<
  BibSourcesTable,
  | 'kind'
  | 'url'
  | 'zotero_library'
  | 'zotero_id'
  | 'zotero_key'
  | 'zotero_collection'
  | 'etag'
  | 'last_modified_header'
  | 'library_version'
>;

export type Fetched =
  | { notModified: true }
  | {
      notModified: false;
      /** A file's text, or a Zotero library's CSL-JSON pages. */
      text?: string;
      cslPages?: string[];
      etag: string | null;
      lastModified: string | null;
      libraryVersion: number | null;
    };

const ZOTERO_PAGE = 100;
/** The most pages a Zotero library may take (the byte limit usually comes first). */
const ZOTERO_MAX_PAGES = 500;

function header(answer: FetchedAnswer, name: string): string | null {
  const value = answer.headers[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? (value[0] ?? null) : null;
}

/**
 * A page that is HTML (a login page, an error page, a Git host's viewer) is not a bibliography.
 * Judged by the text: some servers send a .bib file as text/html, and a file is what it holds.
 */
function looksLikeHtml(answer: FetchedAnswer): boolean {
  const start = answer.body
    .slice(0, 1024)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^<(!doctype html|html|head|body|!--)/i.test(start)) return true;
  const type = header(answer, 'content-type') ?? '';
  return /text\/html|application\/xhtml/i.test(type) && start.startsWith('<');
}

async function fetchFile(source: SourceRow, budget: FetchBudget): Promise<Fetched> {
  const headers: Record<string, string> = {
    accept:
      'application/x-bibtex, application/vnd.citationstyles.csl+json, application/json, text/plain;q=0.9, */*;q=0.5',
  };
  if (source.etag) headers['if-none-match'] = source.etag;
  if (source.last_modified_header) headers['if-modified-since'] = source.last_modified_header;
  const answer = await guardedGet(source.url ?? '', headers, budget);
  if (answer.status === 304) return { notModified: true };
  if (answer.status !== 200) throw new SourceError('http_status', String(answer.status));
  if (looksLikeHtml(answer)) throw new SourceError('not_bibliography');
  return {
    notModified: false,
    text: answer.body,
    etag: header(answer, 'etag'),
    lastModified: header(answer, 'last-modified'),
    libraryVersion: null,
  };
}

/** The first page's URL of a Zotero library (or of one collection of it): top-level items as CSL-JSON. */
export function zoteroItemsUrl(config: Pick<Config, 'zoteroApiUrl'>, source: SourceRow): string {
  const library = source.zotero_library === 'group' ? 'groups' : 'users';
  const collection = source.zotero_collection
    ? `/collections/${encodeURIComponent(source.zotero_collection)}`
    : '';
  const url = new URL(
    `${config.zoteroApiUrl}/${library}/${encodeURIComponent(source.zotero_id ?? '')}${collection}/items/top`,
  );
  url.searchParams.set('format', 'csljson');
  url.searchParams.set('limit', String(ZOTERO_PAGE));
  url.searchParams.set('start', '0');
  return url.href;
}

function nextLink(answer: FetchedAnswer): string | null {
  const link = header(answer, 'link');
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part);
    if (match) return match[1];
  }
  return null;
}

function zoteroStatus(answer: FetchedAnswer): void {
  if (answer.status === 403 || answer.status === 401) throw new SourceError('zotero_forbidden');
  if (answer.status !== 200) throw new SourceError('http_status', String(answer.status));
}

async function fetchZotero(
  config: Pick<Config, 'zoteroApiUrl'>,
  source: SourceRow,
  budget: FetchBudget,
): Promise<Fetched> {
  const headers: Record<string, string> = { 'zotero-api-version': '3', accept: 'application/json' };
  if (source.zotero_key) headers['zotero-api-key'] = source.zotero_key;
  const first: Record<string, string> = { ...headers };
  if (source.library_version !== null) first['if-modified-since-version'] = String(source.library_version);
  let answer = await guardedGet(zoteroItemsUrl(config, source), first, budget);
  if (answer.status === 304) return { notModified: true };
  zoteroStatus(answer);
  const version = Number(header(answer, 'last-modified-version'));
  const pages = [answer.body];
  for (let next = nextLink(answer); next; next = nextLink(answer)) {
    if (pages.length >= ZOTERO_MAX_PAGES) throw new SourceError('too_large');
    answer = await guardedGet(next, headers, budget);
    zoteroStatus(answer);
    // The library changed while we read it: the pages do not fit together (the next sync retries).
    if (Number(header(answer, 'last-modified-version')) !== version) throw new SourceError('library_changed');
    pages.push(answer.body);
  }
  return {
    notModified: false,
    cslPages: pages,
    etag: null,
    lastModified: null,
    libraryVersion: Number.isFinite(version) ? version : null,
  };
}

export function fetchSource(
  config: Pick<Config, 'zoteroApiUrl'>,
  source: SourceRow,
  budget: FetchBudget,
): Promise<Fetched> {
  return source.kind === 'zotero' ? fetchZotero(config, source, budget) : fetchFile(source, budget);
}
