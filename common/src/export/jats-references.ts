import type { CslItem } from '../bibliography/export';
import type { EntryData, RichText } from '../bibliography/types';
import { escapeXml } from './text';

/**
 * A reference as a JATS element-citation (issue 53): structured fields (person-group, article-
 * or chapter-title, source, year, volume, issue, fpage/lpage, publisher, pub-id), the titles as
 * the entry holds them. The CSL item (exportCslItems) gives the type, names and numbers; titles
 * come from the entry's own rich text, because the CSL item's are sentence-cased HTML strings
 * for citeproc (`<span class="nocase">`), which a repository must not get.
 */

/** The entry's marks as JATS inline elements; nocase is the case kept, which JATS always keeps. */
const MARKS: Record<string, [string, string]> = {
  em: ['<italic>', '</italic>'],
  strong: ['<bold>', '</bold>'],
  sup: ['<sup>', '</sup>'],
  sub: ['<sub>', '</sub>'],
  smallcaps: ['<sc>', '</sc>'],
  enquote: ['\u201c', '\u201d'],
};

/** Rich text as JATS markup: each text node's marks opened and closed around it. */
export function richTextToJats(value: RichText): string {
  return value
    .map((node) => {
      if (node.type !== 'text') return escapeXml(node.attrs.variable);
      let out = escapeXml(node.text);
      for (const mark of [...(node.marks ?? [])].reverse()) {
        const tags = MARKS[mark.type];
        if (tags) out = `${tags[0]}${out}${tags[1]}`;
      }
      return out;
    })
    .join('');
}

function richField(entry: EntryData, field: string): string {
  const value = entry.fields[field];
  return Array.isArray(value) && value.length && typeof value[0] === 'object' && 'type' in value[0]
    ? richTextToJats(value as RichText)
    : '';
}

/** Title and subtitle (and its addition) as one title, "Title: Subtitle". */
function fullTitle(entry: EntryData, title: string, subtitle: string): string {
  const main = richField(entry, title);
  const sub = richField(entry, subtitle);
  return main && sub ? `${main}: ${sub}` : main || sub;
}

type CslName = { family?: string; given?: string; literal?: string };

function personGroup(names: unknown, type: string): string {
  if (!Array.isArray(names) || !names.length) return '';
  return `<person-group person-group-type="${type}">${(names as CslName[])
    .map((name) =>
      name.literal || !name.family
        ? `<collab>${escapeXml(name.literal ?? name.given ?? '')}</collab>`
        : `<name><surname>${escapeXml(name.family)}</surname>${name.given ? `<given-names>${escapeXml(name.given)}</given-names>` : ''}</name>`,
    )
    .join('')}</person-group>`;
}

function publicationType(type: string): string {
  if (type.startsWith('article')) return 'journal';
  if (type === 'book' || type === 'chapter') return 'book';
  if (type === 'paper-conference') return 'confproc';
  if (type === 'thesis') return 'thesis';
  if (type === 'report') return 'report';
  if (type === 'webpage') return 'web';
  return 'other';
}

/** One entry as an element-citation; `item` is its CSL item. */
export function elementCitation(entry: EntryData, item: CslItem): string {
  const type = String(item.type);
  const field = (value: unknown) => escapeXml(String(value ?? ''));
  const title = fullTitle(entry, 'title', 'subtitle');
  const container =
    fullTitle(entry, 'journaltitle', 'journalsubtitle') || fullTitle(entry, 'booktitle', 'booksubtitle');
  const containerText = container || (item['container-title'] ? field(item['container-title']) : '');
  let titles = '';
  if (type === 'book' || (!containerText && type !== 'article-journal' && type !== 'chapter'))
    titles = title ? `<source>${title}</source>` : '';
  else
    titles = `${title ? (type === 'chapter' ? `<chapter-title>${title}</chapter-title>` : `<article-title>${title}</article-title>`) : ''}${containerText ? `<source>${containerText}</source>` : ''}`;
  const date = (item.issued as { 'date-parts'?: (number | string)[][] } | undefined)?.['date-parts']?.[0];
  const [first, last] = String(item.page ?? '').split(/[-–]/);
  const parts = [
    personGroup(item.author, 'author'),
    personGroup(item.editor, 'editor'),
    titles,
    date?.[0] ? `<year>${field(date[0])}</year>` : '',
    item.volume ? `<volume>${field(item.volume)}</volume>` : '',
    item.issue ? `<issue>${field(item.issue)}</issue>` : '',
    first ? `<fpage>${escapeXml(first.trim())}</fpage>` : '',
    last ? `<lpage>${escapeXml(last.trim())}</lpage>` : '',
    item['publisher-place'] ? `<publisher-loc>${field(item['publisher-place'])}</publisher-loc>` : '',
    item.publisher ? `<publisher-name>${field(item.publisher)}</publisher-name>` : '',
    item.DOI ? `<pub-id pub-id-type="doi">${field(item.DOI)}</pub-id>` : '',
    item.URL && !item.DOI
      ? `<ext-link ext-link-type="uri" xlink:href="${field(item.URL)}">${field(item.URL)}</ext-link>`
      : '',
  ];
  return `<element-citation publication-type="${publicationType(type)}">${parts.join('')}</element-citation>`;
}
