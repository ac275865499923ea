import { XMLSerializer } from '@xmldom/xmldom';
import { strFromU8, unzipSync } from 'fflate';
import { attr, child, children, descendants, elements, parseXml, type XmlElement } from '../import/xml';
import { escapeXml } from './text';

/**
 * A user's reference document (the export file of a document's template, issue 21) over our own
 * reference parts, as pandoc's --reference-doc does: its styles, theme, fonts and page setup, our
 * content. Every style our content names must exist in the result: a style the reference lacks is
 * added from ours (found by its id, else by its name, as Word localises ids but not names), so
 * the document never loses its formatting. A reference that cannot be read changes nothing.
 */

/** The parts of a reference DOCX the DOCX writer takes over. */
export interface DocxReference {
  styles: string;
  /** Our style ids renamed to the reference's ids of the same style name (Heading1 -> berschrift1). */
  renames: Map<string, string>;
  /** The reference's numbering with our list definitions added (ids shifted past its own). */
  numbering: ((ours: string) => { numbering: string; numIdShift: number }) | null;
  theme: Uint8Array | null;
  fontTable: Uint8Array | null;
  /** Its page size and margins, as w:pgSz and w:pgMar elements. */
  pageSetup: { pgSz: string; pgMar: string; width: number; left: number; right: number } | null;
  /** Its headers and footers, as parts of ours; null when its last section has none. */
  headersFooters: DocxHeadersFooters | null;
  /** Its document settings over ours (see mergeDocxSettings). */
  settings: ((ours: string) => string) | null;
}

/** A reference's headers and footers moved into our package under names and ids of their own. */
export interface DocxHeadersFooters {
  /** The w:headerReference and w:footerReference elements of our sectPr, then w:titlePg if set. */
  references: string;
  titlePg: boolean;
  /** Whether it has a footer (ours, the page number, is left out then). */
  footer: boolean;
  /** Relationship elements for word/_rels/document.xml.rels. */
  relationships: string;
  /** Content type elements (Override and Default) for [Content_Types].xml. */
  types: string;
  /** The parts themselves, their relationships and what those name (header logos). */
  files: Record<string, Uint8Array>;
}

function serialize(node: XmlElement | Document): string {
  return new XMLSerializer().serializeToString(
    node as unknown as Parameters<XMLSerializer['serializeToString']>[0],
  );
}

function tryParse(source: string | undefined): XmlElement | null {
  if (!source) return null;
  try {
    return parseXml(source);
  } catch {
    return null;
  }
}

function unzip(bytes: Uint8Array): Record<string, Uint8Array> | null {
  try {
    return unzipSync(bytes);
  } catch {
    return null;
  }
}

function text(files: Record<string, Uint8Array>, name: string): string | undefined {
  const file = files[name];
  return file ? strFromU8(file) : undefined;
}

function styleName(style: XmlElement): string {
  return attr(child(style, 'w:name'), 'w:val').toLowerCase();
}

/**
 * Our styles.xml into the reference's: the result is the reference's styles part, with each of
 * our styles it has neither by id nor by name appended. Answers the styles and the renames of our
 * ids whose style the reference has under another id.
 */
export function mergeDocxStyles(
  ours: string,
  reference: string,
): { styles: string; renames: Map<string, string> } {
  const renames = new Map<string, string>();
  const theirs = tryParse(reference);
  const own = tryParse(ours);
  if (!theirs || !own || theirs.nodeName !== 'w:styles') return { styles: ours, renames };
  const theirStyles = children(theirs, 'w:style');
  const byId = new Map(
    theirStyles.map((style) => [`${attr(style, 'w:type')}:${attr(style, 'w:styleId')}`, style]),
  );
  const byName = new Map(theirStyles.map((style) => [`${attr(style, 'w:type')}:${styleName(style)}`, style]));
  const defaults = new Set(
    theirStyles.filter((style) => attr(style, 'w:default') === '1').map((style) => attr(style, 'w:type')),
  );
  const missing: XmlElement[] = [];
  for (const style of children(own, 'w:style')) {
    const type = attr(style, 'w:type');
    const id = attr(style, 'w:styleId');
    if (byId.has(`${type}:${id}`)) continue;
    const named = byName.get(`${type}:${styleName(style)}`);
    if (named) renames.set(id, attr(named, 'w:styleId'));
    else missing.push(style);
  }
  const document = theirs.ownerDocument;
  if (!child(theirs, 'w:docDefaults')) {
    const ownDefaults = child(own, 'w:docDefaults');
    if (ownDefaults) theirs.insertBefore(document.importNode(ownDefaults, true), theirs.firstChild);
  }
  for (const style of missing) {
    const copy = document.importNode(style, true) as XmlElement;
    if (defaults.has(attr(copy, 'w:type'))) copy.removeAttribute('w:default');
    // Our styles are based on ours; those the reference has under another id are renamed.
    for (const link of [...children(copy, 'w:basedOn'), ...children(copy, 'w:next')]) {
      const renamed = renames.get(attr(link, 'w:val'));
      if (renamed) link.setAttribute('w:val', renamed);
    }
    theirs.appendChild(copy);
  }
  return { styles: serialize(document), renames };
}

/**
 * Our numbering (one abstract definition per list kind, one instance per list) after the
 * reference's own, whose styles may number headings through it: our ids move past its ids.
 */
export function mergeDocxNumbering(
  ours: string,
  reference: string,
): { numbering: string; numIdShift: number } {
  const theirs = tryParse(reference);
  const own = tryParse(ours);
  if (!theirs || !own || theirs.nodeName !== 'w:numbering') return { numbering: ours, numIdShift: 0 };
  const maxOf = (nodes: XmlElement[], name: string) =>
    nodes.reduce((max, node) => Math.max(max, Number(attr(node, name)) || 0), 0);
  const theirAbstract = children(theirs, 'w:abstractNum');
  const theirNums = children(theirs, 'w:num');
  const abstractShift = maxOf(theirAbstract, 'w:abstractNumId');
  const numIdShift = maxOf(theirNums, 'w:numId');
  const document = theirs.ownerDocument;
  // The schema's order: every abstractNum before the first num.
  const firstNum = theirNums[0] ?? elements(theirs).find((node) => node.nodeName !== 'w:abstractNum') ?? null;
  for (const abstract of children(own, 'w:abstractNum')) {
    const copy = document.importNode(abstract, true) as XmlElement;
    copy.setAttribute('w:abstractNumId', String(Number(attr(copy, 'w:abstractNumId')) + abstractShift));
    theirs.insertBefore(copy, firstNum);
  }
  const afterNums = elements(theirs).find(
    (node) => node.nodeName !== 'w:abstractNum' && node.nodeName !== 'w:num',
  );
  for (const num of children(own, 'w:num')) {
    const copy = document.importNode(num, true) as XmlElement;
    copy.setAttribute('w:numId', String(Number(attr(copy, 'w:numId')) + numIdShift));
    const abstractId = child(copy, 'w:abstractNumId');
    if (abstractId)
      abstractId.setAttribute('w:val', String(Number(attr(abstractId, 'w:val')) + abstractShift));
    theirs.insertBefore(copy, afterNums ?? null);
  }
  return { numbering: serialize(document), numIdShift };
}

/** An empty element again with its w: attributes only (no namespace declarations of its own). */
function wordElement(node: XmlElement): string {
  const attrs = Array.from({ length: node.attributes.length }, (_, i) => node.attributes[i])
    .filter((item) => item.name.startsWith('w:'))
    .map((item) => ` ${item.name}="${escapeXml(item.value)}"`)
    .join('');
  return `<${node.nodeName}${attrs}/>`;
}

/** The page setup of a document.xml: its last section's page size and margins. */
function pageSetup(documentXml: string | undefined): DocxReference['pageSetup'] {
  const root = tryParse(documentXml);
  const body = root && child(root, 'w:body');
  const sections = body ? children(body, 'w:sectPr') : [];
  const section = sections[sections.length - 1];
  const pgSz = section && child(section, 'w:pgSz');
  const pgMar = section && child(section, 'w:pgMar');
  const width = Number(attr(pgSz ?? null, 'w:w'));
  const left = Number(attr(pgMar ?? null, 'w:left'));
  const right = Number(attr(pgMar ?? null, 'w:right'));
  if (!pgSz || !pgMar || !(width > 0) || !(left >= 0) || !(right >= 0) || width <= left + right) return null;
  return { pgSz: wordElement(pgSz), pgMar: wordElement(pgMar), width, left, right };
}

const REL_HEADER = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/header';
const REL_FOOTER = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer';
const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A part path inside the package for a relationship target of a part in `folder`. */
function resolveTarget(folder: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : `${folder}/${target}`).split('/');
  const resolved: string[] = [];
  for (const part of parts) {
    if (part === '..') resolved.pop();
    else if (part && part !== '.') resolved.push(part);
  }
  return resolved.join('/');
}

/** The same path with `reference-` before its file name: no name of ours starts so. */
function referenceName(partPath: string): string {
  const slash = partPath.lastIndexOf('/');
  return `${partPath.slice(0, slash + 1)}reference-${partPath.slice(slash + 1)}`;
}

/** A relationships part's path for a part (word/header1.xml -> word/_rels/header1.xml.rels). */
function relsPath(partPath: string): string {
  const slash = partPath.lastIndexOf('/');
  return `${partPath.slice(0, slash)}/_rels/${partPath.slice(slash + 1)}.rels`;
}

/**
 * The headers and footers the last section of a reference's document.xml names (default,
 * first-page and even variants): each part copied under a `reference-` name with its own
 * relationships and the parts they name (pictures), new relationship ids for our document.
 */
function headersFooters(files: Record<string, Uint8Array>): DocxHeadersFooters | null {
  const root = tryParse(text(files, 'word/document.xml'));
  const body = root && child(root, 'w:body');
  const sections = body ? children(body, 'w:sectPr') : [];
  const section = sections[sections.length - 1];
  const rels = tryParse(text(files, 'word/_rels/document.xml.rels'));
  if (!section || !rels) return null;
  const targets = new Map(children(rels, 'Relationship').map((rel) => [attr(rel, 'Id'), rel] as const));
  const contentTypes = tryParse(text(files, '[Content_Types].xml'));
  const overrides = new Map(
    (contentTypes ? children(contentTypes, 'Override') : []).map(
      (node) => [attr(node, 'PartName'), attr(node, 'ContentType')] as const,
    ),
  );
  const defaults = new Map(
    (contentTypes ? children(contentTypes, 'Default') : []).map(
      (node) => [attr(node, 'Extension').toLowerCase(), attr(node, 'ContentType')] as const,
    ),
  );
  const copied: Record<string, Uint8Array> = {};
  const types: string[] = [];
  const extensions = new Set<string>();
  /** A part of the reference into ours under its new name, with what its relationships name. */
  const copy = (partPath: string, partType?: string): string => {
    const name = referenceName(partPath);
    if (copied[name]) return name;
    copied[name] = files[partPath];
    const type = overrides.get(`/${partPath}`) ?? partType;
    if (type) types.push(`<Override PartName="/${escapeXml(name)}" ContentType="${escapeXml(type)}"/>`);
    else extensions.add(partPath.slice(partPath.lastIndexOf('.') + 1).toLowerCase());
    const partRels = tryParse(text(files, relsPath(partPath)));
    if (partRels) {
      const folder = partPath.slice(0, partPath.lastIndexOf('/'));
      for (const rel of children(partRels, 'Relationship')) {
        if (attr(rel, 'TargetMode') === 'External') continue;
        const target = resolveTarget(folder, attr(rel, 'Target'));
        if (!files[target]) continue;
        const moved = copy(target);
        // Relative to the part's folder again (both are under word/ in practice).
        rel.setAttribute(
          'Target',
          moved.startsWith(`${folder}/`) ? moved.slice(folder.length + 1) : `/${moved}`,
        );
      }
      copied[relsPath(name)] = new TextEncoder().encode(serialize(partRels.ownerDocument));
    }
    return name;
  };
  const references: string[] = [];
  const relationships: string[] = [];
  let footer = false;
  for (const reference of elements(section)) {
    const kind =
      reference.nodeName === 'w:headerReference'
        ? 'header'
        : reference.nodeName === 'w:footerReference'
          ? 'footer'
          : null;
    const rel = kind && targets.get(reference.getAttributeNS(R_NS, 'id') ?? '');
    if (!kind || !rel || attr(rel, 'TargetMode') === 'External') continue;
    const target = resolveTarget('word', attr(rel, 'Target'));
    if (!files[target]) continue;
    // Word's own type for the part, should the reference's content types not list it.
    const name = copy(target, `application/vnd.openxmlformats-officedocument.wordprocessingml.${kind}+xml`);
    const id = `rIdReference${references.length + 1}`;
    const type = attr(reference, 'w:type') || 'default';
    references.push(`<w:${kind}Reference w:type="${escapeXml(type)}" r:id="${id}"/>`);
    relationships.push(
      `<Relationship Id="${id}" Type="${kind === 'header' ? REL_HEADER : REL_FOOTER}" Target="${escapeXml(name.slice('word/'.length))}"/>`,
    );
    if (kind === 'footer') footer = true;
  }
  if (!references.length) return null;
  const known = new Set(['rels', 'xml', 'png', 'jpg', 'gif']);
  for (const extension of extensions) {
    const type = defaults.get(extension);
    if (type && !known.has(extension))
      types.push(`<Default Extension="${escapeXml(extension)}" ContentType="${escapeXml(type)}"/>`);
  }
  const titlePg = child(section, 'w:titlePg');
  return {
    references: references.join(''),
    titlePg: !!titlePg && !['0', 'false', 'off'].includes(attr(titlePg, 'w:val')),
    footer,
    relationships: relationships.join(''),
    types: types.join(''),
    files: copied,
  };
}

/** The order of w:settings' children (ECMA-376 CT_Settings), for placing ours among the reference's. */
const SETTINGS_ORDER = [
  'w:writeProtection',
  'w:view',
  'w:zoom',
  'w:removePersonalInformation',
  'w:removeDateAndTime',
  'w:doNotDisplayPageBoundaries',
  'w:displayBackgroundShape',
  'w:printPostScriptOverText',
  'w:printFractionalCharacterWidth',
  'w:printFormsData',
  'w:embedTrueTypeFonts',
  'w:embedSystemFonts',
  'w:saveSubsetFonts',
  'w:saveFormsData',
  'w:mirrorMargins',
  'w:alignBordersAndEdges',
  'w:bordersDoNotSurroundHeader',
  'w:bordersDoNotSurroundFooter',
  'w:gutterAtTop',
  'w:hideSpellingErrors',
  'w:hideGrammaticalErrors',
  'w:activeWritingStyle',
  'w:proofState',
  'w:formsDesign',
  'w:attachedTemplate',
  'w:linkStyles',
  'w:stylePaneFormatFilter',
  'w:stylePaneSortMethod',
  'w:documentType',
  'w:mailMerge',
  'w:revisionView',
  'w:trackRevisions',
  'w:doNotTrackMoves',
  'w:doNotTrackFormatting',
  'w:documentProtection',
  'w:autoFormatOverride',
  'w:styleLockTheme',
  'w:styleLockQFSet',
  'w:defaultTabStop',
  'w:autoHyphenation',
  'w:consecutiveHyphenLimit',
  'w:hyphenationZone',
  'w:doNotHyphenateCaps',
  'w:showEnvelope',
  'w:summaryLength',
  'w:clickAndTypeStyle',
  'w:defaultTableStyle',
  'w:evenAndOddHeaders',
  'w:bookFoldRevPrinting',
  'w:bookFoldPrinting',
  'w:bookFoldPrintingSheets',
  'w:drawingGridHorizontalSpacing',
  'w:drawingGridVerticalSpacing',
  'w:displayHorizontalDrawingGridEvery',
  'w:displayVerticalDrawingGridEvery',
  'w:doNotUseMarginsForDrawingGridOrigin',
  'w:drawingGridHorizontalOrigin',
  'w:drawingGridVerticalOrigin',
  'w:doNotShadeFormData',
  'w:noPunctuationKerning',
  'w:characterSpacingControl',
  'w:printTwoOnOne',
  'w:strictFirstAndLastChars',
  'w:noLineBreaksAfter',
  'w:noLineBreaksBefore',
  'w:savePreviewPicture',
  'w:doNotValidateAgainstSchema',
  'w:saveInvalidXml',
  'w:ignoreMixedContent',
  'w:alwaysShowPlaceholderText',
  'w:doNotDemarcateInvalidXml',
  'w:saveXmlDataOnly',
  'w:useXSLTWhenSaving',
  'w:saveThroughXslt',
  'w:showXMLTags',
  'w:alwaysMergeEmptyNamespace',
  'w:updateFields',
  'w:hdrShapeDefaults',
  'w:footnotePr',
  'w:endnotePr',
  'w:compat',
  'w:docVars',
  'w:rsids',
  'm:mathPr',
  'w:attachedSchema',
  'w:themeFontLang',
  'w:clrSchemeMapping',
  'w:doNotIncludeSubdocsInStats',
  'w:doNotAutoCompressPictures',
  'w:forceUpgrade',
  'w:captions',
  'w:readModeInkLockDown',
  'w:smartTagType',
  'w:schemaLibrary',
  'w:shapeDefaults',
  'w:doNotEmbedSmartTags',
  'w:decimalSymbol',
  'w:listSeparator',
];

/**
 * Settings of a reference that would lock, re-link or mail-merge our document, or name parts we
 * do not carry (its template, its endnotes), and the revision tracking of whoever made it.
 */
const LEFT_OUT_SETTINGS = new Set([
  'w:writeProtection',
  'w:attachedTemplate',
  'w:linkStyles',
  'w:mailMerge',
  'w:documentProtection',
  'w:trackRevisions',
  'w:footnotePr',
  'w:endnotePr',
  'w:themeFontLang',
]);

/**
 * The reference's settings.xml (even-and-odd headers, tab stop, compatibility...) without what
 * would break our document (LEFT_OUT_SETTINGS, anything naming a relationship), with our
 * footnote separators, language and, when it has none, our math settings.
 */
export function mergeDocxSettings(ours: string, reference: string): string {
  const theirs = tryParse(reference);
  const own = tryParse(ours);
  if (!theirs || !own || theirs.nodeName !== 'w:settings') return ours;
  for (const node of elements(theirs))
    if (
      LEFT_OUT_SETTINGS.has(node.nodeName) ||
      [node, ...descendants(node, '*')].some((item) => item.hasAttributeNS(R_NS, 'id'))
    )
      theirs.removeChild(node);
  const document = theirs.ownerDocument;
  const place = (node: XmlElement) => {
    const rank = SETTINGS_ORDER.indexOf(node.nodeName);
    const present = elements(theirs);
    const after = present.find((item) => SETTINGS_ORDER.indexOf(item.nodeName) > rank);
    // Elements of later schemas (w14:, w15:) come after the known ones.
    const known = present.filter((item) => SETTINGS_ORDER.includes(item.nodeName));
    const before = after ?? known[known.length - 1]?.nextSibling ?? present[0] ?? null;
    theirs.insertBefore(document.importNode(node, true), before);
  };
  const hasMath = !!child(theirs, 'm:mathPr');
  for (const node of elements(own))
    if (
      ['w:footnotePr', 'w:themeFontLang'].includes(node.nodeName) ||
      (node.nodeName === 'm:mathPr' && !hasMath)
    )
      place(node);
  return serialize(document);
}

/** The parts of a reference DOCX over our styles.xml; null when it is no readable DOCX. */
export function readDocxReference(bytes: Uint8Array, ourStyles: string): DocxReference | null {
  const files = unzip(bytes);
  const styles = files && text(files, 'word/styles.xml');
  if (!files || !styles) return null;
  const merged = mergeDocxStyles(ourStyles, styles);
  if (merged.styles === ourStyles) return null;
  const numbering = text(files, 'word/numbering.xml');
  const settings = text(files, 'word/settings.xml');
  return {
    ...merged,
    numbering: numbering ? (ours) => mergeDocxNumbering(ours, numbering) : null,
    theme: files['word/theme/theme1.xml'] ?? null,
    fontTable: files['word/fontTable.xml'] ?? null,
    pageSetup: pageSetup(text(files, 'word/document.xml')),
    headersFooters: headersFooters(files),
    settings: settings ? (ours) => mergeDocxSettings(ours, settings) : null,
  };
}

/** Our style ids in content renamed to the reference's (pStyle, rStyle, tblStyle). */
export function renameStyleIds(xml: string, renames: Map<string, string>): string {
  if (!renames.size) return xml;
  return xml.replace(/<w:(pStyle|rStyle|tblStyle) w:val="([^"]*)"\/>/g, (whole, kind: string, id: string) => {
    const renamed = renames.get(id);
    return renamed ? `<w:${kind} w:val="${renamed}"/>` : whole;
  });
}

/** List instance ids of content moved past the reference's (see mergeDocxNumbering). */
export function shiftNumIds(xml: string, shift: number): string {
  if (!shift) return xml;
  return xml.replace(
    /<w:numId w:val="(\d+)"\/>/g,
    (_, id: string) => `<w:numId w:val="${Number(id) + shift}"/>`,
  );
}

// ODT -----------------------------------------------------------------------------------------

function odfKey(style: XmlElement): string {
  return `${style.nodeName}|${attr(style, 'style:family')}|${attr(style, 'style:name')}`;
}

/**
 * Our styles.xml into the reference's: its common styles, page layout and master pages; each of
 * our common styles (and the font faces they name) that it lacks is added, as are our outline
 * and footnote settings when it has none.
 */
export function mergeOdfStyles(ours: string, reference: string): string {
  const theirs = tryParse(reference);
  const own = tryParse(ours);
  if (!theirs || !own || theirs.nodeName !== 'office:document-styles') return ours;
  const document = theirs.ownerDocument;
  const theirCommon = child(theirs, 'office:styles');
  const ownCommon = child(own, 'office:styles');
  if (!ownCommon) return ours;
  let common = theirCommon;
  if (!common) {
    common = document.importNode(ownCommon, true) as XmlElement;
    const before = child(theirs, 'office:automatic-styles') ?? child(theirs, 'office:master-styles');
    theirs.insertBefore(common, before);
  } else {
    const present = new Set(elements(common).map(odfKey));
    const presentNames = new Set(
      elements(common)
        .filter((node) => node.nodeName === 'style:style')
        .map(
          (node) =>
            `${attr(node, 'style:family')}|${attr(node, 'style:display-name') || attr(node, 'style:name')}`,
        ),
    );
    for (const style of elements(ownCommon)) {
      const singleton = ['text:outline-style', 'text:notes-configuration', 'style:default-style'].includes(
        style.nodeName,
      );
      const has = singleton
        ? elements(common).some(
            (node) =>
              node.nodeName === style.nodeName && attr(node, 'style:family') === attr(style, 'style:family'),
          )
        : present.has(odfKey(style));
      if (has) continue;
      if (
        style.nodeName === 'style:style' &&
        presentNames.has(`${attr(style, 'style:family')}|${attr(style, 'style:name')}`)
      )
        continue;
      common.appendChild(document.importNode(style, true));
    }
  }
  // Font faces our added styles name.
  const ownFaces = child(own, 'office:font-face-decls');
  if (ownFaces) {
    let faces = child(theirs, 'office:font-face-decls');
    if (!faces) {
      faces = document.createElement('office:font-face-decls') as unknown as XmlElement;
      theirs.insertBefore(faces, elements(theirs)[0] ?? null);
    }
    const known = new Set(children(faces, 'style:font-face').map((face) => attr(face, 'style:name')));
    for (const face of children(ownFaces, 'style:font-face'))
      if (!known.has(attr(face, 'style:name'))) faces.appendChild(document.importNode(face, true));
  }
  // A reference without a page: ours.
  for (const name of ['office:automatic-styles', 'office:master-styles']) {
    const ownPart = child(own, name);
    if (!child(theirs, name) && ownPart) theirs.appendChild(document.importNode(ownPart, true));
  }
  return serialize(document);
}

/** The styles.xml of a reference ODT over ours, and the pictures it names (header logos). */
export function readOdtReference(
  bytes: Uint8Array,
  ourStyles: string,
): { styles: string; pictures: Record<string, Uint8Array> } | null {
  const files = unzip(bytes);
  const styles = files && text(files, 'styles.xml');
  if (!files || !styles) return null;
  const merged = mergeOdfStyles(ourStyles, styles);
  if (merged === ourStyles) return null;
  const pictures: Record<string, Uint8Array> = {};
  for (const [, path] of merged.matchAll(/xlink:href="(Pictures\/[^"]+)"/g))
    if (files[path]) pictures[path] = files[path];
  return { styles: merged, pictures };
}
