/// <reference lib="webworker" />
import {
  type CslJson,
  createRenderer,
  type RenderedEntry,
} from '@scriptorium/common/bibliography/citation-render';
import { type CompactNode, expandNode } from '@scriptorium/common/bibliography/csl-compact';
import { exportCslItems } from '@scriptorium/common/bibliography/export';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import { DEFAULT_CSL_LOCALE, localeUrl, styleUrl } from './csl/csl-assets';

export interface PreviewRequest {
  requestId: number;
  style: string;
  locale: string;
  entries: EntryData[];
}

export type PreviewAnswer =
  | { requestId: number; ok: true; styleClass: string; rendered: RenderedEntry[] }
  | { requestId: number; ok: false };

const CACHE_NAME = 'scriptorium-csl';
const files = new Map<string, Promise<CslJson>>();

/** Styles and locales: memory, then Cache Storage (survives reloads and works offline), then fetch. */
function load(url: string): Promise<CslJson> {
  let file = files.get(url);
  if (!file) {
    file = (async () => {
      const cache = typeof caches !== 'undefined' ? await caches.open(CACHE_NAME).catch(() => null) : null;
      let response = await cache?.match(url);
      if (!response) {
        response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        await cache?.put(url, response.clone()).catch(() => undefined);
      }
      return (await response.json()) as CslJson;
    })();
    file.catch(() => files.delete(url));
    files.set(url, file);
  }
  return file;
}

self.onmessage = async (event: MessageEvent<PreviewRequest>) => {
  const { requestId, style, locale, entries } = event.data;
  try {
    const [compactStyle, localeJson, fallback] = await Promise.all([
      load(styleUrl(style)),
      load(localeUrl(locale)),
      load(localeUrl(DEFAULT_CSL_LOCALE)),
    ]);
    const renderer = createRenderer(
      // Styles are stored compact (see extract-csl-assets.ts).
      expandNode(compactStyle as unknown as CompactNode) as unknown as CslJson,
      { [locale]: localeJson, [DEFAULT_CSL_LOCALE]: fallback },
      locale,
    );
    const rendered = renderer.render(exportCslItems(entries));
    self.postMessage({
      requestId,
      ok: true,
      styleClass: renderer.styleClass,
      rendered,
    } satisfies PreviewAnswer);
  } catch {
    self.postMessage({ requestId, ok: false } satisfies PreviewAnswer);
  }
};
