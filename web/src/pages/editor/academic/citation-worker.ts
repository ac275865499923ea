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
  entries: [string, EntryData][];
  clusters: Cluster[];
}

export type CitationAnswer =
  | ({ requestId: number; ok: true } & RenderedCitations)
  | { requestId: number; ok: false };

/** The engine of the last style, kept for the next render of the same document. */
const engineCache: { current?: EngineCache; key: string } = { key: '' };

self.onmessage = async (event: MessageEvent<CitationRequest>) => {
  const { requestId, style, locale, entries, clusters } = event.data;
  try {
    const loaded = await loadStyleAndLocales(style, locale);
    engineCache.key = style;
    const rendered = renderDocumentCitations(
      loaded.style,
      loaded.locales,
      locale,
      new Map(entries),
      clusters,
      'html',
      engineCache,
    );
    self.postMessage({ requestId, ok: true, ...rendered } satisfies CitationAnswer);
  } catch {
    self.postMessage({ requestId, ok: false } satisfies CitationAnswer);
  }
};
