import CSL from 'citeproc';
import type { CslItem } from './export';

/** A CSL style or locale in citeproc-js's JSON form (the parsed XML). */
export type CslJson = { name: string; attrs: Record<string, string>; children: unknown[] };

export interface RenderedEntry {
  id: string;
  /** The in-text citation, or the footnote for note styles. */
  citation: string;
  /** The bibliography entry (HTML from citeproc-js). */
  bibliography: string;
}

export interface Renderer {
  /** note or in-text: note styles show the citation as a footnote. */
  styleClass: string;
  render(items: CslItem[], format?: 'html' | 'text'): RenderedEntry[];
}

/**
 * Builds a formatter for one style and locale. Items are rendered in one batch, never one
 * cluster after another: citeproc-js grows quadratically with cluster-by-cluster updates.
 */
export function createRenderer(style: CslJson, locales: Record<string, CslJson>, locale: string): Renderer {
  let items = new Map<string, CslItem>();
  const sys = {
    retrieveLocale: (lang: string) => locales[lang] ?? locales[locale] ?? locales['en-US'],
    retrieveItem: (id: string) => items.get(id),
  };
  const styleClass = style.attrs.class ?? 'in-text';
  return {
    styleClass,
    render(list, format = 'html') {
      items = new Map(list.map((item) => [item.id, item]));
      // A fresh engine per batch: its registry would otherwise keep earlier items' disambiguation.
      const engine = new CSL.Engine(sys, style, locale, true);
      engine.setOutputFormat(format);
      const ids = list.map((item) => item.id);
      engine.updateItems(ids);
      const bibliography = engine.makeBibliography();
      const byId = new Map<string, string>();
      if (bibliography) {
        const [meta, entries] = bibliography;
        meta.entry_ids.forEach((entryIds, index) => {
          byId.set(entryIds[0], entries[index].trim());
        });
      }
      return list.map((item) => ({
        id: item.id,
        citation: engine.makeCitationCluster([{ id: item.id }]),
        bibliography: byId.get(item.id) ?? '',
      }));
    },
  };
}
