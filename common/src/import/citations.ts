import { importCslJson } from '../bibliography/import-bibtex';
import type { EntryData } from '../bibliography/types';
import type { ImportReport } from './problems';
import { child, children, descendants, parseXml, type XmlElement } from './xml';

/**
 * Citations that reference managers leave in office files, read into bibliography entries:
 * - Zotero: field `ADDIN ZOTERO_ITEM CSL_CITATION {json}` (CSL-JSON in `citationItems[].itemData`);
 * - Mendeley Desktop: field `ADDIN CSL_CITATION {json}` (the same shape); Mendeley Cite: a content
 *   control tagged `MENDELEY_CITATION_v3_<base64 json>`;
 * - EndNote: field `ADDIN EN.CITE <EndNote><Cite><record>...` (EndNote XML, its `Cite`'s `Prefix`
 *   and `Pages` the prefix and locator), or `ADDIN EN.CITE` with the same XML in base64 in the
 *   field's w:fldData (and in that of an `ADDIN EN.CITE.DATA` field nested in its code);
 * - Citavi: field `ADDIN CitaviPlaceholder{<base64 json>}` in a content control tagged
 *   `CitaviPlaceholder#<id>`: Json.NET output whose objects carry `$id` and, met again, are only a
 *   `{"$ref": id}`; the works in `Entries[].Reference`, page ranges in Citavi's `<os>` markup.
 * Entries are keyed by the manager's own id, so the same source cited twice becomes one entry
 * (Mendeley Desktop numbers its items ITEM-1... per citation: there the work itself is the key).
 */

export interface CitedReference {
  id: string;
  prefix: string;
  locator: string;
}

export class CitationCollector {
  private readonly entries = new Map<string, EntryData>();

  constructor(private readonly report: ImportReport) {}

  list(): { key: string; data: EntryData }[] {
    return [...this.entries].map(([key, data]) => ({ key, data }));
  }

  private add(key: string, csl: Record<string, unknown>): string | null {
    if (this.entries.has(key)) return key;
    const { entries } = importCslJson(JSON.stringify([{ ...csl, id: readableKey(csl) }]));
    const entry = entries[0];
    if (!entry) return null;
    this.entries.set(key, { ...entry, cats: [] });
    return key;
  }

  /**
   * A field instruction; null when it is not a citation we know. `data`: the field's w:fldData
   * (base64), where EndNote may keep its XML.
   */
  fromField(instruction: string, data = ''): CitedReference[] | null {
    const text = instruction.trim();
    const csl = /^ADDIN\s+(?:ZOTERO_ITEM\s+)?CSL_CITATION\s+([\s\S]*)$/.exec(text);
    if (csl) return this.fromCslCitation(csl[1], 'Zotero/Mendeley');
    const endnote = /^ADDIN\s+EN\.CITE(?:\s+([\s\S]*))?$/.exec(text);
    if (endnote?.[1]?.includes('<')) return this.fromEndNote(endnote[1]);
    if (endnote) {
      // The XML in the field's data: base64, sometimes padded with NUL bytes.
      const xml = data.trim() ? decodeBase64(data)?.replace(/\0+$/, '') : null;
      if (xml?.includes('<')) return this.fromEndNote(xml);
      this.report.note('citation_unreadable', 'EndNote');
      return null;
    }
    const citavi = /^ADDIN\s+CitaviPlaceholder\s*\{([\s\S]*)\}\s*$/.exec(text);
    if (citavi) return this.fromCitavi(citavi[1]);
    return null;
  }

  /** Mendeley Cite's content-control tag; null when the tag is something else. */
  fromContentControlTag(tag: string): CitedReference[] | null {
    const match = /^MENDELEY_CITATION_v3_(.+)$/.exec(tag);
    if (!match) return null;
    return this.fromCslCitation(decodeBase64(match[1]) ?? '', 'Mendeley');
  }

  /** The format the last citation read asked for (our own text citations say so in a property). */
  lastFormat: 'autocite' | 'textcite' = 'autocite';
  /** The author name our note style's text citation wrote before its note. */
  lastAuthor = '';

  private fromCslCitation(json: string, manager: string): CitedReference[] | null {
    let data: {
      citationItems?: unknown;
      properties?: { scriptoriumFormat?: unknown; scriptoriumAuthor?: unknown };
    };
    this.lastFormat = 'autocite';
    this.lastAuthor = '';
    try {
      // Zotero may leave text after the JSON (older versions): take the outer object.
      data = JSON.parse(json.slice(json.indexOf('{'), json.lastIndexOf('}') + 1));
    } catch {
      this.report.note('citation_unreadable', manager);
      return null;
    }
    if (data.properties?.scriptoriumFormat === 'textcite') this.lastFormat = 'textcite';
    if (typeof data.properties?.scriptoriumAuthor === 'string')
      this.lastAuthor = data.properties.scriptoriumAuthor;
    const items = Array.isArray(data.citationItems) ? (data.citationItems as Record<string, unknown>[]) : [];
    const refs: CitedReference[] = [];
    for (const item of items) {
      const itemData = item.itemData as Record<string, unknown> | undefined;
      const uris = (
        Array.isArray(item.uris) ? item.uris : Array.isArray(item.uri) ? item.uri : []
      ) as string[];
      const own = String(uris[0] ?? item.id ?? itemData?.id ?? '');
      const id = /^ITEM-\d+$/.test(own) && itemData ? workKey(itemData) : own;
      const key = itemData && id ? this.add(`cite:${id}`, itemData) : null;
      if (!key) {
        this.report.note('citation_unreadable', manager);
        continue;
      }
      const label = typeof item.label === 'string' && item.label !== 'page' ? `${item.label} ` : '';
      const locator = item.locator === undefined || item.locator === '' ? '' : String(item.locator);
      refs.push({
        id: key,
        prefix: typeof item.prefix === 'string' ? item.prefix.trim() : '',
        locator: locator && `${label}${locator}`,
      });
    }
    return refs.length ? refs : null;
  }

  private fromEndNote(xml: string): CitedReference[] | null {
    let root: XmlElement;
    try {
      root = parseXml(xml.slice(xml.indexOf('<')));
    } catch {
      this.report.note('citation_unreadable', 'EndNote');
      return null;
    }
    const refs: CitedReference[] = [];
    for (const cite of descendants(root, 'Cite')) {
      const record = child(cite, 'record');
      if (!record) {
        this.report.note('citation_unreadable', 'EndNote');
        continue;
      }
      const text = (name: string) => (descendants(record, name)[0]?.textContent ?? '').trim();
      const number = text('rec-number') || (descendants(cite, 'RecNum')[0]?.textContent ?? '').trim();
      const authorList = descendants(record, 'authors')[0];
      const authors = (authorList ? descendants(authorList, 'author') : []).map((a) =>
        nameToCsl(a.textContent ?? ''),
      );
      const type = descendants(record, 'ref-type')[0]?.getAttribute('name') ?? '';
      const csl: Record<string, unknown> = {
        type: ENDNOTE_TYPES[type] ?? 'article-journal',
        title: text('title'),
        author: authors,
        'container-title': text('secondary-title') || text('full-title'),
        volume: text('volume'),
        issue: text('number'),
        page: text('pages'),
        DOI: text('electronic-resource-num'),
        publisher: text('publisher'),
      };
      const year = text('year');
      if (/^\d{4}$/.test(year)) csl.issued = { 'date-parts': [[Number(year)]] };
      for (const [name, value] of Object.entries(csl)) if (value === '') delete csl[name];
      const key = csl.title ? this.add(`endnote:${number || csl.title}`, csl) : null;
      // EndNote keeps the spaces of a prefix as backquotes.
      const own = (name: string) => (children(cite, name)[0]?.textContent ?? '').replace(/`/g, ' ').trim();
      if (key) refs.push({ id: key, prefix: own('Prefix'), locator: own('Pages') });
      else this.report.note('citation_unreadable', 'EndNote');
    }
    return refs.length ? refs : null;
  }

  private fromCitavi(payload: string): CitedReference[] | null {
    const json = decodeBase64(payload.trim());
    let data: { Entries?: unknown };
    try {
      data = resolveJsonRefs(JSON.parse(json ?? '')) as typeof data;
    } catch {
      this.report.note('citation_unreadable', 'Citavi');
      return null;
    }
    const refs: CitedReference[] = [];
    for (const entry of (Array.isArray(data.Entries) ? data.Entries : []) as CitaviObject[]) {
      const ref = entry.Reference as CitaviObject | undefined;
      const csl = ref ? citaviToCsl(ref) : null;
      const key = ref && csl ? this.add(`citavi:${String(ref.Id ?? csl.title)}`, csl) : null;
      if (key)
        refs.push({
          id: key,
          prefix: typeof entry.Prefix === 'string' ? entry.Prefix.trim() : '',
          locator: citaviRange(entry.PageRange),
        });
      else this.report.note('citation_unreadable', 'Citavi');
    }
    return refs.length ? refs : null;
  }
}

const ENDNOTE_TYPES: Record<string, string> = {
  'Journal Article': 'article-journal',
  Book: 'book',
  'Edited Book': 'book',
  'Book Section': 'chapter',
  'Conference Proceedings': 'paper-conference',
  'Conference Paper': 'paper-conference',
  Thesis: 'thesis',
  Report: 'report',
  'Web Page': 'webpage',
  'Newspaper Article': 'article-newspaper',
  'Magazine Article': 'article-magazine',
};

const CITAVI_TYPES: Record<string, string> = {
  JournalArticle: 'article-journal',
  NewspaperArticle: 'article-newspaper',
  Book: 'book',
  BookEdited: 'book',
  CollectedWorks: 'book',
  Contribution: 'chapter',
  ConferenceProceedings: 'book',
  Thesis: 'thesis',
  UnpublishedWork: 'report',
  InternetDocument: 'webpage',
};

type CitaviObject = Record<string, unknown>;

/**
 * Json.NET with references preserved writes an object once with `$id` and then `{"$ref": id}`
 * wherever it recurs (an author of two works, the same work cited twice): put them back.
 */
function resolveJsonRefs(root: unknown): unknown {
  const byId = new Map<string, unknown>();
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      if (typeof object.$id === 'string') byId.set(object.$id, object);
      Object.values(object).forEach(collect);
    }
  };
  collect(root);
  const seen = new Set<unknown>();
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (!value || typeof value !== 'object') return value;
    const object = value as Record<string, unknown>;
    if (typeof object.$ref === 'string') return byId.get(object.$ref) ?? null;
    if (seen.has(object)) return object;
    seen.add(object);
    for (const [name, inner] of Object.entries(object)) object[name] = resolve(inner);
    return object;
  };
  return resolve(root);
}

/** Citavi's page range: plain, or its markup (`<sp>..</sp><ep>..</ep><os>12-20</os>`, the last `os` the whole). */
function citaviRange(value: unknown): string {
  if (typeof value !== 'string') return '';
  const original = [...value.matchAll(/<os>([^<]*)<\/os>/g)].pop();
  return (original ? original[1] : value.includes('<') ? '' : value).trim();
}

function citaviToCsl(ref: CitaviObject): Record<string, unknown> | null {
  const string = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const title = string(ref.Title);
  if (!title) return null;
  const subtitle = string(ref.Subtitle);
  const people = (value: unknown) =>
    (Array.isArray(value) ? (value as (CitaviObject | null)[]) : [])
      .filter((person): person is CitaviObject => !!person)
      .map((person) =>
        string(person.LastName)
          ? {
              family: string(person.LastName),
              given: [string(person.FirstName), string(person.MiddleName)].filter(Boolean).join(' '),
            }
          : { literal: string(person.Name) },
      )
      .filter((name) => ('literal' in name ? name.literal : name.family));
  const periodical = ref.Periodical as CitaviObject | null | undefined;
  const parent = ref.ParentReference as CitaviObject | null | undefined;
  const type =
    CITAVI_TYPES[string(ref.ReferenceType)] ?? (string(periodical?.Name) ? 'article-journal' : 'book');
  const publishers = (Array.isArray(ref.Publishers) ? ref.Publishers : []) as (CitaviObject | null)[];
  const csl: Record<string, unknown> = {
    type,
    title: subtitle ? `${title}: ${subtitle}` : title,
    author: people(ref.Authors),
    editor: people(ref.Editors ?? parent?.Editors),
    'container-title': string(periodical?.Name) || string(parent?.Title),
    volume: string(ref.Volume),
    issue: string(ref.Number),
    page: citaviRange(ref.PageRange),
    DOI: string(ref.Doi),
    ISBN: string(ref.Isbn),
    publisher: string(publishers[0]?.Name),
    'publisher-place': string(ref.PlaceOfPublication),
  };
  const year = /\d{4}/.exec(string(ref.YearResolved) || string(ref.Year) || string(ref.Date))?.[0];
  if (year) csl.issued = { 'date-parts': [[Number(year)]] };
  for (const [name, value] of Object.entries(csl))
    if (value === '' || (Array.isArray(value) && !value.length)) delete csl[name];
  return csl;
}

/** A key for a work that has no id of its own: its DOI, or its first author, year and title. */
function workKey(csl: Record<string, unknown>): string {
  if (typeof csl.DOI === 'string' && csl.DOI) return `doi:${csl.DOI.toLowerCase()}`;
  return `${readableKey(csl)}:${String(csl.title ?? '').toLowerCase()}`;
}

/** An entry key like the ones people type (Doe2020); the library makes it unique. */
function readableKey(csl: Record<string, unknown>): string {
  const author = (Array.isArray(csl.author) ? csl.author[0] : null) as {
    family?: unknown;
    literal?: unknown;
  } | null;
  const name = String(author?.family ?? author?.literal ?? 'ref').replace(/[^\p{L}\p{N}]/gu, '');
  const parts = (csl.issued as { 'date-parts'?: unknown[][] } | undefined)?.['date-parts']?.[0];
  return `${name || 'ref'}${parts?.[0] ?? ''}`;
}

function nameToCsl(name: string): { family: string; given: string } {
  const [family, given = ''] = name.split(',').map((part) => part.trim());
  return { family, given };
}

function decodeBase64(value: string): string | null {
  try {
    const binary = atob(value.replace(/\s+/g, ''));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}
