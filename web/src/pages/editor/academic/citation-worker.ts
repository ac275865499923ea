/// <reference lib="webworker" />
import {
  type Cluster,
  type EngineCache,
  type RenderedCitations,
  renderDocumentCitations,
} from '@scriptorium/common/bibliography/cluster-render';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import { loadStyleAndLocales } from '../../bibliography/csl/load-csl';

/** The editor's citeproc worker: a whole document's citations per request, off the main thread. */

export interface CitationRequest {
  requestId: number;
  style: string;
  locale: string;
  /** The document's entries as JSON of [key, entry] pairs (one string is copied to the worker at once). */
  entries: string;
  clusters: Cluster[];
}

export type CitationAnswer =
  | ({ requestId: number; ok: true } & RenderedCitations)
  | { requestId: number; ok: false };

/** The engine of the last style, kept for the next render of the same document. */
const engineCache: { current?: EngineCache; key: string } = { key: '' };
/** The entries of the last request, parsed once while they stay the same. */
let entriesCache = { json: '', entries: new Map<string, EntryData>() };

self.onmessage = async (event: MessageEvent<CitationRequest>) => {
  const { requestId, style, locale, entries, clusters } = event.data;
  try {
    const loaded = await loadStyleAndLocales(style, locale);
    engineCache.key = style;
    if (entries !== entriesCache.json)
      entriesCache = { json: entries, entries: new Map(JSON.parse(entries) as [string, EntryData][]) };
    const rendered = renderDocumentCitations(
      loaded.style,
      loaded.locales,
      locale,
      entriesCache.entries,
      clusters,
      'html',
      engineCache,
    );
    self.postMessage({ requestId, ok: true, ...rendered } satisfies CitationAnswer);
  } catch {
    self.postMessage({ requestId, ok: false } satisfies CitationAnswer);
  }
};
