/// <reference lib="webworker" />
import { createRenderer, type RenderedEntry } from '@scriptorium/common/bibliography/citation-render';
import { exportCslItems } from '@scriptorium/common/bibliography/export';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import { loadStyleAndLocales } from './csl/load-csl';

export interface PreviewRequest {
  requestId: number;
  style: string;
  locale: string;
  entries: EntryData[];
}

export type PreviewAnswer =
  | { requestId: number; ok: true; styleClass: string; rendered: RenderedEntry[] }
  | { requestId: number; ok: false };

self.onmessage = async (event: MessageEvent<PreviewRequest>) => {
  const { requestId, style, locale, entries } = event.data;
  try {
    const loaded = await loadStyleAndLocales(style, locale);
    const renderer = createRenderer(loaded.style, loaded.locales, locale);
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
