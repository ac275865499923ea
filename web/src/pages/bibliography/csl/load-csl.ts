import type { CslJson } from '@scriptorium/common/bibliography/citation-render';
import { type CompactNode, expandNode } from '@scriptorium/common/bibliography/csl-compact';
import { DEFAULT_CSL_LOCALE, localeUrl, styleUrl } from './csl-assets';

/** Styles and locales for the citeproc workers (the preview's and the editor's). */
const CACHE_NAME = 'scriptorium-csl';
const files = new Map<string, Promise<CslJson>>();

/** Styles and locales: memory, then Cache Storage (survives reloads and works offline), then fetch. */
export function loadCslFile(url: string): Promise<CslJson> {
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

/** A style (expanded from its compact form) with its locale and the default one as fallback. */
export async function loadStyleAndLocales(
  style: string,
  locale: string,
): Promise<{ style: CslJson; locales: Record<string, CslJson> }> {
  const [compactStyle, localeJson, fallback] = await Promise.all([
    loadCslFile(styleUrl(style)),
    loadCslFile(localeUrl(locale)),
    loadCslFile(localeUrl(DEFAULT_CSL_LOCALE)),
  ]);
  return {
    // Styles are stored compact (see extract-csl-assets.ts).
    style: expandNode(compactStyle as unknown as CompactNode) as unknown as CslJson,
    locales: { [locale]: localeJson, [DEFAULT_CSL_LOCALE]: fallback },
  };
}
