import CSL from 'citeproc';
import type { CslJson } from './citation-render';
import { exportCslItems } from './export';
import type { EntryData } from './types';

/**
 * The citations of a whole document in one batch (issue 17): every citation cluster of the
 * document, in document order, and the bibliography of the cited entries. One
 * `rebuildProcessorState` call per batch: building clusters one at a time grows quadratically in
 * citeproc-js (FIELD-NOTES). Note styles number the clusters as notes.
 */

export interface ClusterReference {
  id: string;
  prefix?: string;
  locator?: string;
}

export interface Cluster {
  format: 'autocite' | 'textcite';
  references: ClusterReference[];
}

export interface RenderedCitations {
  /** 'in-text' or 'note'. */
  styleClass: string;
  /** One per cluster, in the order given; '' when none of its entries is in the bibliography. */
  citations: string[];
  /** The bibliography entries, in the style's order. */
  bibliography: string[];
}

export function renderDocumentCitations(
  style: CslJson,
  locales: Record<string, CslJson>,
  locale: string,
  entries: ReadonlyMap<string, EntryData>,
  clusters: readonly Cluster[],
  format: 'html' | 'text' = 'html',
): RenderedCitations {
  const keys = [...entries.keys()];
  // The document's key (owner-entry) is the item id, whatever the entry's own BibTeX key.
  const items = exportCslItems(keys.map((key) => ({ ...(entries.get(key) as EntryData), entry_key: key })));
  const byId = new Map(items.map((item) => [item.id, item]));
  const sys = {
    retrieveLocale: (lang: string) => locales[lang] ?? locales[locale] ?? locales['en-US'],
    retrieveItem: (id: string) => byId.get(id),
  };
  const styleClass = style.attrs.class ?? 'in-text';
  const engine = new CSL.Engine(sys, style, locale, true);
  engine.setOutputFormat(format);
  const note = styleClass === 'note';
  const composite = (cluster: Cluster) => cluster.format === 'textcite' && !note;
  const citations = clusters.map((cluster, index) => ({
    citationID: `c${index}`,
    citationItems: cluster.references
      .filter((ref) => byId.has(ref.id))
      .map((ref) => ({
        id: ref.id,
        // A text citation's prefix goes in front of the author, not inside the parentheses.
        ...(ref.prefix && !composite(cluster) ? { prefix: `${ref.prefix} ` } : {}),
        ...(ref.locator ? { locator: ref.locator, label: 'page' } : {}),
      })),
    properties: {
      noteIndex: note ? index + 1 : 0,
      // "Author (Year)" in author-date styles; note styles keep their note.
      ...(composite(cluster) ? { mode: 'composite' } : {}),
    },
  }));
  const usable = citations.filter((citation) => citation.citationItems.length > 0);
  const output = new Map<string, string>();
  if (usable.length) {
    for (const [id, , text] of engine.rebuildProcessorState(usable, format) as [string, number, string][])
      output.set(id, text);
  }
  let bibliography: string[] = [];
  if (usable.length) {
    const made = engine.makeBibliography();
    if (made) bibliography = made[1].map((entry: string) => entry.trim());
  }
  return {
    styleClass,
    citations: citations.map((citation, index) => {
      const text = output.get(citation.citationID) ?? '';
      const prefix = clusters[index].references[0]?.prefix;
      return text && prefix && composite(clusters[index]) ? `${prefix} ${text}` : text;
    }),
    bibliography,
  };
}
