import { importCslJson } from '../bibliography/import-bibtex';
import type { EntryData } from '../bibliography/types';
import type { ImportReport } from './problems';
import { child, descendants, parseXml, type XmlElement } from './xml';

/**
 * Citations that reference managers leave in office files, read into bibliography entries:
 * - Zotero: field `ADDIN ZOTERO_ITEM CSL_CITATION {json}` (CSL-JSON in `citationItems[].itemData`);
 * - Mendeley Desktop: field `ADDIN CSL_CITATION {json}` (the same shape); Mendeley Cite: a content
 *   control tagged `MENDELEY_CITATION_v3_<base64 json>`;
 * - EndNote: field `ADDIN EN.CITE <EndNote><Cite><record>...` (EndNote XML);
 * - Citavi: field `ADDIN CitaviPlaceholder{<base64 json>}` (its `Entries[].Reference`).
 * Entries are keyed by the manager's own id, so the same source cited twice becomes one entry.
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

  /** A field instruction; null when it is not a citation we know. */
  fromField(instruction: string): CitedReference[] | null {
    const text = instruction.trim();
    const csl = /^ADDIN\s+(?:ZOTERO_ITEM\s+)?CSL_CITATION\s+([\s\S]*)$/.exec(text);
    if (csl) return this.fromCslCitation(csl[1], 'Zotero/Mendeley');
    const endnote = /^ADDIN\s+EN\.CITE\s+([\s\S]*)$/.exec(text);
    if (endnote) return this.fromEndNote(endnote[1]);
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

  private fromCslCitation(json: string, manager: string): CitedReference[] | null {
    let data: { citationItems?: unknown };
    try {
      // Zotero may leave text after the JSON (older versions): take the outer object.
      data = JSON.parse(json.slice(json.indexOf('{'), json.lastIndexOf('}') + 1));
    } catch {
      this.report.note('citation_unreadable', manager);
      return null;
    }
    const items = Array.isArray(data.citationItems) ? (data.citationItems as Record<string, unknown>[]) : [];
    const refs: CitedReference[] = [];
    for (const item of items) {
      const itemData = item.itemData as Record<string, unknown> | undefined;
      const uris = (
        Array.isArray(item.uris) ? item.uris : Array.isArray(item.uri) ? item.uri : []
      ) as string[];
      const id = String(uris[0] ?? item.id ?? itemData?.id ?? '');
      const key = itemData && id ? this.add(`cite:${id}`, itemData) : null;
      if (!key) {
        this.report.note('citation_unreadable', manager);
        continue;
      }
      const label = typeof item.label === 'string' && item.label !== 'page' ? `${item.label} ` : '';
      refs.push({
        id: key,
        prefix: typeof item.prefix === 'string' ? item.prefix : '',
        locator: item.locator === undefined ? '' : `${label}${String(item.locator)}`,
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
      if (!record) continue;
      const text = (name: string) => (descendants(record, name)[0]?.textContent ?? '').trim();
      const number = text('rec-number') || text('RecNum');
      const authors = descendants(record, 'author').map((a) => nameToCsl(a.textContent ?? ''));
      const type = descendants(record, 'ref-type')[0]?.getAttribute('name') ?? '';
      const csl: Record<string, unknown> = {
        type: type === 'Book' ? 'book' : type === 'Book Section' ? 'chapter' : 'article-journal',
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
      const key = this.add(`endnote:${number || csl.title}`, csl);
      if (key)
        refs.push({
          id: key,
          prefix: '',
          locator: (descendants(cite, 'Pages')[0]?.textContent ?? '').trim(),
        });
      else this.report.note('citation_unreadable', 'EndNote');
    }
    return refs.length ? refs : null;
  }

  private fromCitavi(payload: string): CitedReference[] | null {
    const json = decodeBase64(payload.trim());
    let data: {
      Entries?: { Reference?: Record<string, unknown>; PageRange?: { OriginalString?: string } }[];
    };
    try {
      data = JSON.parse(json ?? '');
    } catch {
      this.report.note('citation_unreadable', 'Citavi');
      return null;
    }
    const refs: CitedReference[] = [];
    for (const entry of data.Entries ?? []) {
      const ref = entry.Reference;
      if (!ref) continue;
      const authors = (Array.isArray(ref.Authors) ? ref.Authors : []) as {
        FirstName?: string;
        LastName?: string;
      }[];
      const periodical = ref.Periodical as { Name?: string } | undefined;
      const csl: Record<string, unknown> = {
        type: periodical?.Name ? 'article-journal' : 'book',
        title: ref.Title,
        author: authors.map((a) => ({ family: a.LastName ?? '', given: a.FirstName ?? '' })),
        'container-title': periodical?.Name,
        volume: ref.Volume,
        page: (ref.PageRange as { OriginalString?: string } | undefined)?.OriginalString,
        DOI: ref.Doi,
        publisher: Array.isArray(ref.Publishers) ? (ref.Publishers[0] as { Name?: string })?.Name : undefined,
      };
      const year = String(ref.Year ?? '');
      if (/^\d{4}$/.test(year)) csl.issued = { 'date-parts': [[Number(year)]] };
      for (const [name, value] of Object.entries(csl))
        if (value === undefined || value === '') delete csl[name];
      const key =
        typeof ref.Title === 'string' ? this.add(`citavi:${String(ref.Id ?? ref.Title)}`, csl) : null;
      if (key) refs.push({ id: key, prefix: '', locator: entry.PageRange?.OriginalString ?? '' });
      else this.report.note('citation_unreadable', 'Citavi');
    }
    return refs.length ? refs : null;
  }
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
