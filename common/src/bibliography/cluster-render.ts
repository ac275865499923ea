import CSL from 'citeproc';
import type { CslJson } from './citation-render';
import { type CslItem, exportCslItems } from './export';
import { type BibliographyLayout, DEFAULT_LAYOUT, readLayout } from './layout';
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
  /**
   * Where the citation stands among the notes (note styles number citations with the
   * footnotes): the footnotes begun before it in the document, counting the one it is in, and
   * whether it is inside a footnote (then it is part of that note, not a note of its own).
   */
  footnotes?: number;
  inFootnote?: boolean;
}

export interface RenderedCitations {
  /** 'in-text' or 'note'. */
  styleClass: string;
  /** One per cluster, in the order given; '' when none of its entries is in the bibliography. */
  citations: string[];
  /** The bibliography entries, in the style's order. */
  bibliography: string[];
  /** How the style lays its bibliography out (hanging indent, label column, spacing). */
  layout: BibliographyLayout;
  /**
   * Per cluster, a text citation's author as the text shows it in a note style ("LeCun and
   * Bottou", the citation itself being the note); '' for every other cluster.
   */
  authors: string[];
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
 * Each entry's CSL item and that item's JSON, by the entry's key, kept with the JSON of the entry
 * they were made from: a render converts only the entries that changed (converting all 200 of a
 * paper took about 10 ms of every render, most of a render after one citation more).
 */
export type CslItemCache = Map<string, { source: string; item: CslItem | null; json: string }>;

/**
 * The entries' CSL items and their JSON (keyed by `key`, the document's id of the entry), converted
 * where new; an entry the converter cannot read is left out. `sources`: each entry's JSON when the
 * caller has it already (the editor's worker receives them so), not made again per render.
 */
function cachedCslItems(
  entries: ReadonlyMap<string, EntryData>,
  memo: CslItemCache,
  sources?: ReadonlyMap<string, string>,
): { item: CslItem; json: string }[] {
  const changed: { key: string; source: string; entry: EntryData }[] = [];
  for (const [key, entry] of entries) {
    const source = sources?.get(key) ?? JSON.stringify(entry);
    if (memo.get(key)?.source !== source) changed.push({ key, source, entry: { ...entry, entry_key: key } });
  }
  if (changed.length) {
    const made = new Map(cslItems(changed.map(({ entry }) => entry)).map((item) => [item.id, item]));
    for (const { key, source } of changed) {
      const item = made.get(key) ?? null;
      memo.set(key, { source, item, json: JSON.stringify(item) });
    }
  }
  for (const key of memo.keys()) if (!entries.has(key)) memo.delete(key);
  return [...entries.keys()].flatMap((key) => {
    const known = memo.get(key);
    return known?.item ? [{ item: known.item, json: known.json }] : [];
  });
}

/**
 * A citeproc engine kept between renders of one document (in its worker): building one costs
 * seconds for a large style, and its registry then only takes in what changed. It is rebuilt when
 * the style, the language or an entry already known changes. In-text styles also keep what they
 * formatted: a citation's text and a bibliography entry are formatted again only when the
 * registry reports one of their items changed (citeproc's tainted items: disambiguation, numbers).
 */
export interface EngineCache {
  key: string;
  engine: InstanceType<typeof CSL.Engine>;
  byId: Map<string, CslItem>;
  json: Map<string, string>;
  /** The ids the registry holds, in order of first citation ('' before the first update). */
  cited: string;
  /** Cluster key -> its text and items (in-text styles). */
  clusters: Map<string, { text: string; ids: string[] }>;
  /** Item id -> its bibliography entry and its place in the bibliography. */
  entries: Map<string, { text: string; seq: number }>;
  /** The whole bibliography of `cited` (note styles, and styles that need every entry at once). */
  bibliography: { cited: string; entries: string[] } | null;
  /** The entries carry their number: a moved entry is formatted again. */
  numbered: boolean;
  /** An entry depends on the one before it or on the style's exclusions: format all at once. */
  whole: boolean;
  /** The bibliography's layout, read from the last makeBibliography. */
  layout: BibliographyLayout;
}

interface EngineInternals {
  tmp: { taintedItemIDs: Record<string, boolean> };
  registry: { getSortedIds(): string[] };
  bibliography: { opt: Record<string, unknown> };
}

/** The items citeproc marked as changed since the last call (and forgets them). */
function takeTainted(engine: InstanceType<typeof CSL.Engine>): Set<string> {
  const internals = engine as unknown as EngineInternals;
  const tainted = new Set(Object.keys(internals.tmp.taintedItemIDs ?? {}));
  internals.tmp.taintedItemIDs = {};
  return tainted;
}

function newEngine(
  style: CslJson,
  locales: Record<string, CslJson>,
  locale: string,
  format: 'html' | 'text',
  key: string,
): EngineCache {
  const byId = new Map<string, CslItem>();
  const sys = {
    retrieveLocale: (lang: string) => locales[lang] ?? locales[locale] ?? locales['en-US'],
    retrieveItem: (id: string) => byId.get(id),
  };
  const engine = new CSL.Engine(sys, style, locale, true);
  engine.setOutputFormat(format);
  const text = JSON.stringify(style);
  const options = (engine as unknown as EngineInternals).bibliography.opt;
  return {
    key,
    engine,
    byId,
    json: new Map(),
    cited: '',
    clusters: new Map(),
    entries: new Map(),
    bibliography: null,
    layout: DEFAULT_LAYOUT,
    numbered: text.includes('"citation-number"'),
    whole: Boolean(
      text.includes('subsequent-author-substitute') || options.exclude_types || options.exclude_with_fields,
    ),
  };
}

/** The bibliography of the registry's items, formatting only the entries not known yet. */
function makeBibliography(current: EngineCache, tainted: ReadonlySet<string>): string[] {
  const { engine } = current;
  const whole = () => {
    const made = engine.makeBibliography();
    if (made) current.layout = readLayout(made[0]);
    return made ? made[1].map((entry: string) => entry.trim()) : [];
  };
  if (current.whole) {
    if (current.bibliography?.cited !== current.cited || tainted.size)
      current.bibliography = { cited: current.cited, entries: whole() };
    return current.bibliography.entries;
  }
  const sorted = (engine as unknown as EngineInternals).registry.getSortedIds();
  const missing = sorted.filter((id, seq) => {
    const known = current.entries.get(id);
    return !known || tainted.has(id) || (current.numbered && known.seq !== seq);
  });
  if (missing.length) {
    // The first bibliography of an engine is all of it: citeproc's filter for each of the ids
    // costs about an eighth more.
    const made =
      missing.length === sorted.length
        ? engine.makeBibliography()
        : engine.makeBibliography({ include: missing.map((id) => ({ field: 'id', value: id })) });
    if (!made) return [];
    // maxoffset is the widest label of the entries formatted: keep the widest seen.
    const layout = readLayout(made[0]);
    current.layout =
      missing.length === sorted.length
        ? layout
        : { ...layout, maxOffset: Math.max(layout.maxOffset, current.layout.maxOffset) };
    const ids = (made[0] as { entry_ids: string[][] }).entry_ids;
    made[1].forEach((entry: string, index: number) => {
      const id = ids[index][0];
      current.entries.set(id, { text: entry.trim(), seq: sorted.indexOf(id) });
    });
  }
  return sorted.flatMap((id) => {
    const entry = current.entries.get(id);
    return entry ? [entry.text] : [];
  });
}

/**
 * What citeproc-js prints for a cluster that renders to nothing (a text citation's author in a
 * style whose citations name none), instead of throwing.
 */
const NO_PRINTED_FORM = '[NO_PRINTED_FORM]';

/** A cluster's text, '' when it renders to nothing. */
const printed = (text: string) => (text === NO_PRINTED_FORM ? '' : text);

/** A term of a CSL locale ("and", "et-al") in its long form, or `fallback`. */
function localeTerm(locale: CslJson | undefined, name: string, fallback: string): string {
  let found: string | undefined;
  const walk = (node: unknown) => {
    if (found !== undefined || !node || typeof node !== 'object') return;
    const { name: tag, attrs, children } = node as CslJson;
    if (tag === 'term' && attrs?.name === name && (!attrs.form || attrs.form === 'long')) {
      if (typeof children?.[0] === 'string') found = children[0];
      return;
    }
    for (const child of children ?? []) walk(child);
  };
  walk(locale);
  return found ?? fallback;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&#38;').replace(/</g, '&#60;').replace(/>/g, '&#62;');

/**
 * The authors a text citation names in a style whose citations name none (numeric: IEEE,
 * Vancouver), as pandoc writes them: "LeCun", "LeCun and Bottou", "Vaswani et al.", then the
 * number ("LeCun and Bottou [2]"). Editors, or the title, for an item without authors.
 */
function namesOf(items: CslItem[], locale: CslJson | undefined, format: 'html' | 'text'): string {
  const and = localeTerm(locale, 'and', 'and');
  const etAl = localeTerm(locale, 'et-al', 'et al.');
  const one = (item: CslItem) => {
    type Name = { family?: string; literal?: string };
    const people = ((item.author ?? item.editor ?? []) as Name[]).map(
      (name) => name.family ?? name.literal ?? '',
    );
    const names = people.filter(Boolean);
    if (!names.length) return String(item.title ?? '');
    if (names.length === 1) return names[0];
    if (names.length === 2) return `${names[0]} ${and} ${names[1]}`;
    return `${names[0]} ${etAl}`;
  };
  const text = items.map(one).filter(Boolean).join('; ');
  return format === 'html' ? escapeHtml(text) : text;
}

export function renderDocumentCitations(
  style: CslJson,
  locales: Record<string, CslJson>,
  locale: string,
  entries: ReadonlyMap<string, EntryData>,
  clusters: readonly Cluster[],
  format: 'html' | 'text' = 'html',
  cache?: { current?: EngineCache; key: string; items?: CslItemCache },
  sources?: ReadonlyMap<string, string>,
): RenderedCitations {
  // The document's key (owner-entry) is the item id, whatever the entry's own BibTeX key.
  if (cache) cache.items ??= new Map();
  const memo: CslItemCache = cache?.items ?? new Map();
  const converted = cachedCslItems(entries, memo, sources);
  const styleClass = style.attrs.class ?? 'in-text';
  const key = `${cache?.key ?? ''}|${locale}|${format}`;
  let current = cache?.current;
  const json = new Map(converted.map(({ item, json }) => [item.id, json]));
  if (
    !current ||
    current.key !== key ||
    [...current.json].some(([id, text]) => json.has(id) && json.get(id) !== text)
  ) {
    current = newEngine(style, locales, locale, format, key);
    if (cache) cache.current = current;
  }
  for (const { item } of converted) current.byId.set(item.id, item);
  current.json = new Map([...current.json, ...json]);
  const { engine } = current;
  const note = styleClass === 'note';
  const composite = (cluster: Cluster) => cluster.format === 'textcite' && !note;
  // Note styles: a citation outside the footnotes is a note of its own, numbered with them; one
  // inside a footnote belongs to that note.
  let ownNotes = 0;
  const citations = clusters.map((cluster, index) => {
    const citationItems = cluster.references
      .filter((ref) => json.has(ref.id))
      .map((ref) => ({
        id: ref.id,
        // A text citation's prefix goes in front of the author in the text ("see LeCun (1998)",
        // "see LeCun¹"), not inside the parentheses or the note.
        ...(ref.prefix && cluster.format !== 'textcite' ? { prefix: `${ref.prefix} ` } : {}),
        ...(ref.locator ? { locator: ref.locator, label: 'page' } : {}),
      }));
    const footnotes = cluster.footnotes ?? 0;
    if (note && citationItems.length && !cluster.inFootnote) ownNotes++;
    return {
      citationID: `c${index}`,
      citationItems,
      properties: {
        noteIndex: note ? footnotes + ownNotes : 0,
        // "Author (Year)" in author-date styles; note styles keep their note.
        ...(composite(cluster) ? { mode: 'composite' } : {}),
      },
    };
  });
  const authors = clusters.map(() => '');
  const output = new Map<string, string>();
  const usable = citations.filter((citation) => citation.citationItems.length > 0);
  // Cited entries in order of first citation: numeric styles number them so.
  const cited = [...new Set(usable.flatMap((citation) => citation.citationItems.map((item) => item.id)))];
  const citedKey = JSON.stringify(cited);
  let tainted = new Set<string>();
  if (note) {
    // Note styles depend on each citation's position (ibid., short forms): the whole sequence.
    if (usable.length)
      for (const [id, , text] of engine.rebuildProcessorState(usable, format) as [string, number, string][])
        output.set(id, printed(text));
    // A text citation names its author in the text, the citation being its note ("LeCun and
    // Bottou¹"): without it the sentence loses its subject.
    citations.forEach((citation, index) => {
      if (clusters[index].format !== 'textcite' || !citation.citationItems.length) return;
      authors[index] = printed(
        engine.makeCitationCluster(citation.citationItems.map((item) => ({ ...item, 'author-only': true }))),
      );
      const prefix = clusters[index].references[0]?.prefix;
      if (authors[index] && prefix) authors[index] = `${prefix} ${authors[index]}`;
    });
    if (current.cited !== citedKey) current.bibliography = null;
    current.cited = citedKey;
    current.whole = true;
  } else if (cited.length) {
    // In-text styles: the registry of all cited entries settles disambiguation and numbers;
    // each distinct cluster is then formatted once (a long paper cites the same ones again and
    // again), which is far faster than tracking every citation's position. Only what the
    // registry update changed is formatted again on the next render.
    if (current.cited !== citedKey) {
      engine.updateItems(cited);
      current.cited = citedKey;
      tainted = takeTainted(engine);
      for (const [clusterKey, known] of current.clusters)
        if (known.ids.some((id) => tainted.has(id))) current.clusters.delete(clusterKey);
    }
    citations.forEach((citation, index) => {
      if (!citation.citationItems.length) return;
      const clusterKey = JSON.stringify([clusters[index].format, citation.citationItems]);
      let known = current.clusters.get(clusterKey);
      if (known === undefined) {
        let author = composite(clusters[index])
          ? printed(
              engine.makeCitationCluster(
                citation.citationItems.map((item) => ({ ...item, 'author-only': true })),
              ),
            )
          : '';
        // A style whose citations name no author (numeric ones: IEEE) names them from the
        // entries, before the plain citation: "LeCun and Bottou [2]".
        const numeric = composite(clusters[index]) && !author;
        if (numeric)
          author = namesOf(
            citation.citationItems.flatMap((item) => current.byId.get(item.id) ?? []),
            locales[locale] ?? locales['en-US'],
            format,
          );
        // MLA's "LeCun and Bottou" without a page has nothing after the author.
        const rest = printed(
          engine.makeCitationCluster(
            author && !numeric
              ? citation.citationItems.map((item) => ({ ...item, 'suppress-author': true }))
              : citation.citationItems,
          ),
        );
        // A superscript number follows the name directly: "LeCun and Bottou²".
        const text = [author, rest].filter(Boolean).join(rest.startsWith('<sup>') ? '' : ' ');
        known = { text, ids: citation.citationItems.map((item) => item.id) };
        current.clusters.set(clusterKey, known);
      }
      output.set(citation.citationID, known.text);
    });
  }
  const bibliography = cited.length ? makeBibliography(current, tainted) : [];
  return {
    styleClass,
    citations: citations.map((citation, index) => {
      const text = output.get(citation.citationID) ?? '';
      const prefix = clusters[index].references[0]?.prefix;
      return text && prefix && composite(clusters[index]) ? `${prefix} ${text}` : text;
    }),
    bibliography,
    layout: current.layout,
    authors,
  };
}
