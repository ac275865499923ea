/// <reference lib="webworker" />
import {
  type Cluster,
  type CslItemCache,
  type EngineCache,
  type RenderedCitations,
  renderDocumentCitations,
} from '@scriptorium/common/bibliography/cluster-render';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import { loadStyleAndLocales } from '../../bibliography/csl/load-csl';

/** The editor's citeproc worker: a whole document's citations per request, off the main thread. */

export interface CitationRequest {
  /**
   * 0: a warm-up, answered by nothing. The editor sends one as soon as a document's state exists,
   * before its view is built, so that the engine and the first rendering are made meanwhile.
   */
  requestId: number;
  style: string;
  locale: string;
  /**
   * The document's entries as JSON of [key, JSON of the entry] pairs: one string is copied to the
   * worker at once, and each entry's own JSON tells the worker which entries changed without
   * serialising them again (a render after one citation more).
   */
  entries: string;
  clusters: Cluster[];
}

export type CitationAnswer =
  | ({ requestId: number; ok: true } & RenderedCitations)
  | { requestId: number; ok: false };

/** The engine of the last style, kept for the next render of the same document. */
const engineCache: { current?: EngineCache; key: string; items?: CslItemCache } = { key: '' };
/** The entries of the last request and each one's JSON, parsed once while they stay the same. */
let entriesCache = { json: '', entries: new Map<string, EntryData>(), sources: new Map<string, string>() };

/** The entries of `json` (see CitationRequest), parsing only those whose JSON changed. */
function parseEntries(json: string): typeof entriesCache {
  const entries = new Map<string, EntryData>();
  const sources = new Map<string, string>();
  for (const [key, source] of JSON.parse(json) as [string, string][]) {
    const known = entriesCache.sources.get(key) === source ? entriesCache.entries.get(key) : undefined;
    entries.set(key, known ?? (JSON.parse(source) as EntryData));
    sources.set(key, source);
  }
  return { json, entries, sources };
}

/**
 * The worker's message handler: renders each request in turn and posts its answer. A warm-up
 * (requestId 0) is rendered and kept, not answered; a request that arrives during it with the same
 * input waits for it and is answered from what it made.
 */
export function citationMessageHandler(post: (answer: CitationAnswer) => void) {
  let last: { input: string; entries: string; rendered: RenderedCitations } | null = null;
  const render = async ({ style, locale, entries, clusters }: CitationRequest) => {
    // The entries' JSON (often the largest part) is compared as it is, not copied into the key.
    const input = JSON.stringify([style, locale, clusters]);
    if (last?.input === input && last.entries === entries) return last.rendered;
    const loaded = await loadStyleAndLocales(style, locale);
    engineCache.key = style;
    if (entries !== entriesCache.json) entriesCache = parseEntries(entries);
    const rendered = renderDocumentCitations(
      loaded.style,
      loaded.locales,
      locale,
      entriesCache.entries,
      clusters,
      'html',
      engineCache,
      entriesCache.sources,
    );
    last = { input, entries, rendered };
    return rendered;
  };
  let queue: Promise<void> = Promise.resolve();
  return (event: MessageEvent<CitationRequest>) => {
    const request = event.data;
    queue = queue.then(async () => {
      try {
        const rendered = await render(request);
        if (request.requestId) post({ requestId: request.requestId, ok: true, ...rendered });
      } catch {
        if (request.requestId) post({ requestId: request.requestId, ok: false });
      }
    });
  };
}

self.onmessage = citationMessageHandler((answer) => self.postMessage(answer));
