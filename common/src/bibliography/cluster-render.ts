import CSL from 'citeproc';
import type { CslJson } from './citation-render';
import { type CslItem, exportCslItems } from './export';
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

/** CSL items of the entries; one the converter cannot read is left out (its citations show as missing). */
function cslItems(entries: EntryData[]): CslItem[] {
  try {
    return exportCslItems(entries);
  } catch {
    return entries.flatMap((entry) => {
      try {
        return exportCslItems([entry]);
      } catch {
        return [];
      }
    });
  }
}

/**
 * A citeproc engine kept between renders of one document (in its worker): building one costs
 * seconds for a large style, and its registry then only takes in what changed. It is rebuilt when
 * the style, the language or an entry already known changes.
 */
export interface EngineCache {
  key: string;
  engine: InstanceType<typeof CSL.Engine>;
  byId: Map<string, CslItem>;
  json: Map<string, string>;
}

export function renderDocumentCitations(
  style: CslJson,
  locales: Record<string, CslJson>,
  locale: string,
  entries: ReadonlyMap<string, EntryData>,
  clusters: readonly Cluster[],
  format: 'html' | 'text' = 'html',
  cache?: { current?: EngineCache; key: string },
): RenderedCitations {
  const keys = [...entries.keys()];
  // The document's key (owner-entry) is the item id, whatever the entry's own BibTeX key.
  const items = cslItems(keys.map((key) => ({ ...(entries.get(key) as EntryData), entry_key: key })));
  const styleClass = style.attrs.class ?? 'in-text';
  const key = `${cache?.key ?? ''}|${locale}|${format}`;
  let current = cache?.current;
  const json = new Map(items.map((item) => [item.id, JSON.stringify(item)]));
  if (
    !current ||
    current.key !== key ||
    [...current.json].some(([id, text]) => json.has(id) && json.get(id) !== text)
  ) {
    const byId = new Map<string, CslItem>();
    const sys = {
      retrieveLocale: (lang: string) => locales[lang] ?? locales[locale] ?? locales['en-US'],
      retrieveItem: (id: string) => byId.get(id),
    };
    const engine = new CSL.Engine(sys, style, locale, true);
    engine.setOutputFormat(format);
    current = { key, engine, byId, json: new Map() };
    if (cache) cache.current = current;
  }
  for (const item of items) current.byId.set(item.id, item);
  current.json = new Map([...current.json, ...json]);
  const { engine } = current;
  const note = styleClass === 'note';
  const composite = (cluster: Cluster) => cluster.format === 'textcite' && !note;
  const citations = clusters.map((cluster, index) => ({
    citationID: `c${index}`,
    citationItems: cluster.references
      .filter((ref) => json.has(ref.id))
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
  const output = new Map<string, string>();
  const usable = citations.filter((citation) => citation.citationItems.length > 0);
  // Cited entries in order of first citation: numeric styles number them so.
  const cited = [...new Set(usable.flatMap((citation) => citation.citationItems.map((item) => item.id)))];
  if (note) {
    // Note styles depend on each citation's position (ibid., short forms): the whole sequence.
    if (usable.length)
      for (const [id, , text] of engine.rebuildProcessorState(usable, format) as [string, number, string][])
        output.set(id, text);
  } else if (cited.length) {
    // In-text styles: the registry of all cited entries settles disambiguation and numbers;
    // each distinct cluster is then formatted once (a long paper cites the same ones again and
    // again), which is far faster than tracking every citation's position.
    engine.updateItems(cited);
    const done = new Map<string, string>();
    usable.forEach((citation, index) => {
      const key = JSON.stringify([clusters[index].format, citation.citationItems]);
      let text = done.get(key);
      if (text === undefined) {
        text = composite(clusters[index])
          ? `${engine.makeCitationCluster(citation.citationItems.map((item) => ({ ...item, 'author-only': true })))} ${engine.makeCitationCluster(citation.citationItems.map((item) => ({ ...item, 'suppress-author': true })))}`
          : engine.makeCitationCluster(citation.citationItems);
        done.set(key, text);
      }
      output.set(citation.citationID, text);
    });
  }
  let bibliography: string[] = [];
  if (cited.length) {
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
