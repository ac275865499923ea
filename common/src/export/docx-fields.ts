import type { CitationReference } from '../editor/academic-nodes';
import { escapeXml, htmlToRuns } from './text';

/**
 * Word's live fields in our DOCX (issue 54): Zotero's citation and bibliography fields (the shape
 * Zotero's Word plugin writes, so it refreshes them and knows their items), SEQ numbers of
 * captions and equations, REF cross-references to bookmarks. Each field's result is the text we
 * rendered, so a reader without Zotero, or before F9, sees the same paper.
 */

/** The schema URI Zotero writes in every citation field. */
export const CSL_CITATION_SCHEMA =
  'https://github.com/citation-style-language/schema/raw/master/csl-citation.json';

/**
 * A complex field (begin, instruction, separate, result runs, end) in runs of one paragraph.
 * `deleted`: inside a tracked deletion, where Word wants the instruction as w:delInstrText.
 */
export function complexField(instruction: string, result: string, deleted = false): string {
  return `${fieldBegin(instruction, deleted)}${result}${fieldEnd()}`;
}

/** The start of a complex field up to its result (a field may span paragraphs: the bibliography). */
export function fieldBegin(instruction: string, deleted = false): string {
  const tag = deleted ? 'w:delInstrText' : 'w:instrText';
  return `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><${tag} xml:space="preserve"> ${escapeXml(instruction)} </${tag}></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>`;
}

export function fieldEnd(): string {
  return '<w:r><w:fldChar w:fldCharType="end"/></w:r>';
}

/** Plain text of citeproc's HTML (Zotero's plainCitation). */
export function plainText(html: string): string {
  return htmlToRuns(html)
    .map((run) => run.text)
    .join('');
}

export interface ZoteroCitation {
  /** Unique in the document (Zotero's are 8 letters and digits). */
  citationID: string;
  references: readonly CitationReference[];
  /** CSL-JSON items by entry key. */
  items: ReadonlyMap<string, Record<string, unknown>>;
  /** citeproc's HTML of the citation ('' when unrendered). */
  rendered: string;
  /** The number of the note holding it (note styles), else 0. */
  noteIndex: number;
  /** Our citation format: a text citation is kept in a property Zotero carries along. */
  format: string;
  /** A note style's text citation: the author's name written before the note (citeproc HTML). */
  author?: string;
}

/** A citation locator's CSL label and value: "p. 5" or "5" is a page, "chapter 3" a chapter. */
function locatorOf(locator: string): { label: string; locator: string } {
  const match = /^(chapter|section|figure|table|volume|paragraph|line|note|verse|page)\s+(.+)$/i.exec(
    locator.trim(),
  );
  return match
    ? { label: match[1].toLowerCase(), locator: match[2] }
    : { label: 'page', locator: locator.trim() };
}

/** The instruction of a Zotero citation field: `ADDIN ZOTERO_ITEM CSL_CITATION {json}`. */
export function zoteroCitationInstruction(citation: ZoteroCitation): string {
  const citationItems = citation.references.map((ref) => {
    const itemData = citation.items.get(ref.id);
    const item: Record<string, unknown> = { id: ref.id };
    if (itemData) item.itemData = { ...itemData, id: ref.id };
    if (ref.locator) Object.assign(item, locatorOf(ref.locator));
    if (ref.prefix) item.prefix = ref.prefix;
    return item;
  });
  const plain = plainText(citation.rendered);
  const json = {
    citationID: citation.citationID,
    properties: {
      formattedCitation: citation.rendered || plain,
      plainCitation: plain,
      noteIndex: citation.noteIndex,
      ...(citation.format === 'textcite' ? { scriptoriumFormat: 'textcite' } : {}),
      ...(citation.author ? { scriptoriumAuthor: plainText(citation.author) } : {}),
    },
    citationItems,
    schema: CSL_CITATION_SCHEMA,
  };
  return `ADDIN ZOTERO_ITEM CSL_CITATION ${JSON.stringify(json)}`;
}

export const ZOTERO_BIBLIOGRAPHY_INSTRUCTION =
  'ADDIN ZOTERO_BIBL {"uncited":[],"omitted":[],"custom":[]} CSL_BIBLIOGRAPHY';

/** A Zotero citation ID: 8 characters of [a-z0-9] from a counter (deterministic exports). */
export function citationId(n: number): string {
  return `sc${n.toString(36).padStart(6, '0')}`;
}

/** Zotero's document preferences: the style, and that citations are fields (notes in a note style). */
export function zoteroPrefs(style: string, locale: string, noteStyle: boolean): string {
  const styleId = /^https?:/.test(style) ? style : `http://www.zotero.org/styles/${style}`;
  return `<data data-version="3" zotero-version="6.0.30"><session id="Scrptrm1"/><style id="${escapeXml(styleId)}" locale="${escapeXml(locale)}" hasBibliography="1" bibliographyStyleHasBeenSet="1"/><prefs><pref name="fieldType" value="Field"/>${noteStyle ? '<pref name="noteType" value="1"/>' : ''}</prefs></data>`;
}

/** The custom property (DOCX) or user-defined metadata (ODT) of piece n of Zotero's preferences. */
export const ZOTERO_PREF_PROPERTY = /^ZOTERO_PREF_(\d+)$/;

/**
 * Whether a file's notes hold its citations, from Zotero's preferences joined from their pieces
 * (by property name): a note style has noteType 1 (footnotes) or 2 (endnotes). Without
 * preferences: false for our own file (we write them whenever we render in a style), else
 * undefined (the file does not say).
 */
export function citationsInNotes(
  properties: readonly { name: string; value: string }[],
  ownFile: boolean,
): boolean | undefined {
  const pieces = properties
    .map(({ name, value }) => ({ index: Number(ZOTERO_PREF_PROPERTY.exec(name)?.[1] ?? 0), value }))
    .filter((piece) => piece.index > 0)
    .sort((a, b) => a.index - b.index);
  if (!pieces.length) return ownFile ? false : undefined;
  return /<pref\s+name="noteType"\s+value="[12]"/.test(pieces.map((piece) => piece.value).join(''));
}

/** Zotero's preferences as it stores them in a document's properties: ZOTERO_PREF_1, _2, ... of 255 characters. */
export function zoteroPrefPieces(prefs: string): [string, string][] {
  const pieces: [string, string][] = [];
  for (let i = 0; i < prefs.length; i += 255)
    pieces.push([`ZOTERO_PREF_${pieces.length + 1}`, prefs.slice(i, i + 255)]);
  return pieces;
}

/** The name of our custom document property that keeps each equation's LaTeX beside its OMML. */
export const EQUATIONS_PROPERTY = 'SCRIPTORIUM_EQUATIONS';

/**
 * The name of our custom document property (DOCX) and user-defined metadata (ODT) that keeps the
 * heading numbering where the numbering markup cannot tell it: "chapter" (numbered as "decimal",
 * cross-references say "Chapter").
 */
export const HEADING_NUMBERING_PROPERTY = 'SCRIPTORIUM_HEADING_NUMBERING';

/** The text Word shows of an OMML equation (its m:t runs): the key its LaTeX is kept under. */
export function ommlShownText(omml: string): string {
  let out = '';
  for (const match of omml.matchAll(/<m:t(?:\s[^>]*)?>([^<]*)<\/m:t>/g)) out += match[1];
  return out
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * docProps/custom.xml: Zotero's document preferences (ZOTERO_PREF_1, _2, ...: its XML in pieces
 * of at most 255 characters) and the LaTeX of our equations by the text of their OMML (the
 * import takes the LaTeX back while the equation reads the same; one edited in Word is read
 * from its OMML); the heading numbering when it is "chapter" (HEADING_NUMBERING_PROPERTY).
 */
export function customProperties(
  zoteroPrefs: string | null,
  equations: ReadonlyMap<string, string>,
  headingNumbering = '',
): string | null {
  const properties: [string, string][] = zoteroPrefs ? zoteroPrefPieces(zoteroPrefs) : [];
  if (equations.size) properties.push([EQUATIONS_PROPERTY, JSON.stringify([...equations])]);
  if (headingNumbering === 'chapter') properties.push([HEADING_NUMBERING_PROPERTY, headingNumbering]);
  if (!properties.length) return null;
  const xml = properties
    .map(
      ([name, value], index) =>
        `<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="${index + 2}" name="${name}"><vt:lpwstr>${escapeXml(value)}</vt:lpwstr></property>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">${xml}</Properties>`;
}

/** The SEQ identifier of a figure category (Word's caption label without spaces). */
export function sequenceName(category: string): string {
  const name = category === 'table' ? 'Table' : category === 'equation' ? 'Equation' : category;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A SEQ field numbering `category`, its result `number`. */
export function sequenceField(category: string, number: string, runProps = '', deleted = false): string {
  const tag = deleted ? 'w:delText' : 'w:t';
  return complexField(
    `SEQ ${sequenceName(category)} \\* ARABIC`,
    `<w:r>${runProps}<${tag} xml:space="preserve">${escapeXml(number)}</${tag}></w:r>`,
    deleted,
  );
}
