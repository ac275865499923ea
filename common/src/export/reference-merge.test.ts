import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { attr, child, children, descendants, elements, parseXml, type XmlElement } from '../import/xml';
import { exportDocx } from './docx';
import { referenceNumbering, referenceSettings, referenceStyles } from './docx-reference';
import { prepareDocument } from './model';
import { exportOdt } from './odt';
import { ODF_NS, ODF_PAGES, referenceOdfStyles } from './odt-reference';
import { mergeDocxNumbering, mergeDocxSettings, mergeDocxStyles, mergeOdfStyles } from './reference-merge';

/** Issue 21: a template's reference document styles our exports; styles it lacks come from ours. */

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A German Word's styles: Heading 1 under a localised id, in a named font and colour. */
const GERMAN_STYLES = `<?xml version="1.0" encoding="UTF-8"?>
<w:styles ${W}><w:style w:type="paragraph" w:default="1" w:styleId="Standard"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:basedOn w:val="Standard"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr><w:rPr><w:rFonts w:ascii="Gentium Distinct" w:hAnsi="Gentium Distinct"/><w:color w:val="7B2D26"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:rPr><w:sz w:val="60"/></w:rPr></w:style></w:styles>`;

/** The files of a document's DOCX export with `reference` as its reference document. */
function docxFiles(doc: PMNode, reference: Uint8Array) {
  return unzipSync(
    exportDocx(
      prepareDocument({
        content: doc.toJSON(),
        threads: [],
        images: {},
        csl: null,
        reference: { docx: reference },
      }),
    ),
  );
}

function styleById(xml: string, id: string) {
  return children(parseXml(xml), 'w:style').filter((style) => attr(style, 'w:styleId') === id);
}

describe('DOCX style merge', () => {
  const ours = referenceStyles('en-US');
  const { styles, renames } = mergeDocxStyles(ours, GERMAN_STYLES);

  it("keeps the reference's styles and maps our ids to its ids of the same style name", () => {
    expect(renames.get('Heading1')).toBe('berschrift1');
    expect(renames.get('Normal')).toBe('Standard');
    expect(styleById(styles, 'Heading1')).toHaveLength(0);
    const heading = styleById(styles, 'berschrift1')[0];
    expect(attr(child(child(heading, 'w:rPr') as XmlElement, 'w:rFonts'), 'w:ascii')).toBe(
      'Gentium Distinct',
    );
    const title = styleById(styles, 'Title');
    expect(title).toHaveLength(1);
    expect(attr(child(child(title[0], 'w:rPr') as XmlElement, 'w:sz'), 'w:val')).toBe('60');
  });

  it('adds every style of ours the reference lacks, based on its renamed ids, and one default only', () => {
    for (const id of ['Heading2', 'Caption', 'Bibliography', 'FootnoteReference', 'TableGrid', 'Abstract']) {
      expect(styleById(styles, id), id).toHaveLength(1);
    }
    const caption = styleById(styles, 'Caption')[0];
    expect(attr(child(caption, 'w:basedOn'), 'w:val')).toBe('Standard');
    const defaults = children(parseXml(styles), 'w:style').filter(
      (style) => attr(style, 'w:type') === 'paragraph' && attr(style, 'w:default') === '1',
    );
    expect(defaults.map((style) => attr(style, 'w:styleId'))).toEqual(['Standard']);
    // Our document defaults when the reference has none.
    expect(child(parseXml(styles), 'w:docDefaults')).not.toBeNull();
  });

  it('answers our styles for a reference that is no styles part', () => {
    expect(mergeDocxStyles(ours, 'not xml <').styles).toBe(ours);
    expect(mergeDocxStyles(ours, `<w:numbering ${W}/>`).styles).toBe(ours);
  });

  it("puts our lists after the reference's numbering, abstract definitions first", () => {
    const theirs = `<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"/></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
    const { numbering, numIdShift } = mergeDocxNumbering(
      referenceNumbering([{ id: 1, ordered: true, start: 3 }]),
      theirs,
    );
    expect(numIdShift).toBe(1);
    const root = parseXml(numbering);
    expect(children(root, 'w:abstractNum').map((node) => attr(node, 'w:abstractNumId'))).toEqual([
      '0',
      '1',
      '2',
    ]);
    const nums = children(root, 'w:num');
    expect(nums.map((node) => attr(node, 'w:numId'))).toEqual(['1', '2']);
    expect(attr(child(nums[1], 'w:abstractNumId'), 'w:val')).toBe('2');
    const names = Array.from({ length: root.childNodes.length }, (_, i) => root.childNodes[i].nodeName);
    expect(names.lastIndexOf('w:abstractNum')).toBeLessThan(names.indexOf('w:num'));
  });

  it('exports a document with the reference: renamed style ids, its page, theme and numbering', () => {
    const reference = zipSync({
      'word/styles.xml': strToU8(GERMAN_STYLES),
      'word/numbering.xml': strToU8(
        `<w:numbering ${W}><w:abstractNum w:abstractNumId="0"/><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
      ),
      'word/theme/theme1.xml': strToU8(
        '<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"/>',
      ),
      'word/document.xml': strToU8(
        `<w:document ${W}><w:body><w:p/><w:sectPr><w:pgSz w:w="10000" w:h="14000"/><w:pgMar w:top="1000" w:right="1000" w:bottom="1000" w:left="1000"/></w:sectPr></w:body></w:document>`,
      ),
    });
    const doc = createDocument(schema, standardArticle, { title: 'Styled', language: 'en-US' });
    const files = docxFiles(doc, reference);
    const document = strFromU8(files['word/document.xml']);
    expect(document).toContain('<w:pStyle w:val="Title"/>');
    expect(document).toContain('<w:pgSz w:w="10000" w:h="14000"/>');
    expect(strFromU8(files['word/styles.xml'])).toContain('Gentium Distinct');
    expect(files['word/theme/theme1.xml']).toBeDefined();
    expect(strFromU8(files['word/_rels/document.xml.rels'])).toContain('Target="theme/theme1.xml"');
    expect(strFromU8(files['[Content_Types].xml'])).toContain('/word/theme/theme1.xml');
    // A reference that is no DOCX leaves our own styles.
    const plain = docxFiles(doc, strToU8('junk'));
    expect(strFromU8(plain['word/styles.xml'])).toBe(referenceStyles('en-US'));
  });
});

describe('DOCX headers, footers and settings of the reference', () => {
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const part = (root: string, text: string) =>
    strToU8(`<w:${root} ${W} xmlns:r="${REL}"><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:${root}>`);
  /** A reference as Word saves one: its header and footer under ids our document uses too. */
  const reference = zipSync({
    '[Content_Types].xml': strToU8(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="emf" ContentType="image/x-emf"/><Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/><Override PartName="/word/header2.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/></Types>',
    ),
    'word/styles.xml': strToU8(GERMAN_STYLES),
    'word/document.xml': strToU8(
      `<w:document ${W} xmlns:r="${REL}"><w:body><w:p/><w:sectPr><w:headerReference w:type="default" r:id="rId101"/><w:headerReference w:type="first" r:id="rIdFooter"/><w:footerReference w:type="default" r:id="rId8"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/><w:titlePg/></w:sectPr></w:body></w:document>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId101" Type="${REL}/header" Target="header1.xml"/><Relationship Id="rIdFooter" Type="${REL}/header" Target="header2.xml"/><Relationship Id="rId8" Type="${REL}/footer" Target="/word/footer1.xml"/></Relationships>`,
    ),
    'word/header1.xml': part('hdr', 'Journal of Tests'),
    'word/_rels/header1.xml.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/image" Target="media/image1.emf"/><Relationship Id="rId2" Type="${REL}/hyperlink" Target="https://example.org" TargetMode="External"/></Relationships>`,
    ),
    'word/media/image1.emf': new Uint8Array([1, 2, 3]),
    'word/header2.xml': part('hdr', 'First page'),
    'word/footer1.xml': part('ftr', 'Footer text'),
    'word/settings.xml': strToU8(
      `<w:settings ${W} xmlns:r="${REL}" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"><w:zoom w:percent="100"/><w:attachedTemplate r:id="rId1"/><w:mailMerge><w:mainDocumentType w:val="formLetters"/></w:mailMerge><w:documentProtection w:edit="readOnly" w:enforcement="1"/><w:defaultTabStop w:val="567"/><w:evenAndOddHeaders/><w:footnotePr><w:footnote w:id="-1"/></w:footnotePr><w:endnotePr><w:endnote w:id="-1"/></w:endnotePr><w:compat><w:doNotExpandShiftReturn/></w:compat><w:rsids><w:rsidRoot w:val="00A1B2C3"/></w:rsids><w:themeFontLang w:val="de-DE"/><w14:docId w14:val="1A2B3C4D"/></w:settings>`,
    ),
  });
  const doc = createDocument(schema, standardArticle, { title: 'Headed', language: 'en-US' });
  const files = docxFiles(doc, reference);
  const rels = parseXml(strFromU8(files['word/_rels/document.xml.rels']));
  const types = strFromU8(files['[Content_Types].xml']);
  const section = descendants(parseXml(strFromU8(files['word/document.xml'])), 'w:sectPr')[0];

  it('names its headers and footers in our section under new relationship ids, with its first-page setting', () => {
    const ids = children(rels, 'Relationship').map((rel) => attr(rel, 'Id'));
    expect(new Set(ids).size).toBe(ids.length);
    const targetOf = (id: string) =>
      attr(children(rels, 'Relationship').find((rel) => attr(rel, 'Id') === id) ?? null, 'Target');
    const named = elements(section)
      .filter((node) => /^w:(header|footer)Reference$/.test(node.nodeName))
      .map((node) => [
        node.nodeName,
        attr(node, 'w:type'),
        strFromU8(files[`word/${targetOf(attr(node, 'r:id'))}`]),
      ]);
    expect(named.map(([name, type, xml]) => [name, type, /<w:t>([^<]*)/.exec(xml)?.[1]])).toEqual([
      ['w:headerReference', 'default', 'Journal of Tests'],
      ['w:headerReference', 'first', 'First page'],
      ['w:footerReference', 'default', 'Footer text'],
    ]);
    // Our own page number footer gives way to the reference's footer.
    expect(files['word/footer1.xml']).toBeUndefined();
    expect(ids).not.toContain('rIdFooter');
    // The schema's order: references first, titlePg after the page.
    const names = elements(section).map((node) => node.nodeName);
    expect(names.slice(3)).toEqual(['w:footnotePr', 'w:pgSz', 'w:pgMar', 'w:titlePg']);
  });

  it('brings the pictures of its headers and lists every new part in the content types', () => {
    const headerRels = strFromU8(files['word/_rels/reference-header1.xml.rels']);
    expect(headerRels).toContain('Target="media/reference-image1.emf"');
    expect(headerRels).toContain('Target="https://example.org"');
    expect(files['word/media/reference-image1.emf']).toEqual(new Uint8Array([1, 2, 3]));
    expect(types).toContain('<Default Extension="emf" ContentType="image/x-emf"/>');
    for (const name of ['reference-header1.xml', 'reference-header2.xml'])
      expect(types).toContain(
        `<Override PartName="/word/${name}" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>`,
      );
    // A footer its content types forgot is typed as a footer all the same.
    expect(types).toContain(
      '<Override PartName="/word/reference-footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/>',
    );
    expect(types).not.toContain('/word/footer1.xml');
  });

  it('takes its settings but what would lock or re-link the document, with our footnotes and language', () => {
    const settings = strFromU8(files['word/settings.xml']);
    const root = parseXml(settings);
    expect(elements(root).map((node) => node.nodeName)).toEqual([
      'w:zoom',
      'w:defaultTabStop',
      'w:evenAndOddHeaders',
      'w:footnotePr',
      'w:compat',
      'w:rsids',
      'm:mathPr',
      'w:themeFontLang',
      'w14:docId',
    ]);
    expect(attr(child(root, 'w:defaultTabStop'), 'w:val')).toBe('567');
    expect(attr(child(root, 'w:themeFontLang'), 'w:val')).toBe('en-US');
    expect(children(child(root, 'w:footnotePr') as XmlElement, 'w:footnote')).toHaveLength(2);
    const ours = referenceSettings('en-US', false);
    expect(mergeDocxSettings(ours, 'junk')).toBe(ours);
  });

  it('keeps our footer and settings for a reference without headers or settings', () => {
    const plain = docxFiles(doc, zipSync({ 'word/styles.xml': strToU8(GERMAN_STYLES) }));
    expect(strFromU8(plain['word/document.xml'])).toContain(
      '<w:footerReference w:type="default" r:id="rIdFooter"/>',
    );
    expect(plain['word/footer1.xml']).toBeDefined();
    expect(strFromU8(plain['word/settings.xml'])).toBe(referenceSettings('en-US', false));
  });
});

describe('ODT style merge', () => {
  const ours = referenceOdfStyles('en-US', ODF_PAGES.A4);
  const theirs = `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ODF_NS} office:version="1.3"><office:font-face-decls><style:font-face style:name="Gentium Distinct" svg:font-family="'Gentium Distinct'"/></office:font-face-decls><office:styles><style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph"><style:text-properties style:font-name="Gentium Distinct" fo:color="#7b2d26"/></style:style><style:style style:name="Standard" style:family="paragraph"/></office:styles><office:automatic-styles><style:page-layout style:name="Mpm1"><style:page-layout-properties fo:page-width="17cm" fo:page-height="24cm"/></style:page-layout></office:automatic-styles><office:master-styles><style:master-page style:name="Standard" style:page-layout-name="Mpm1"/></office:master-styles></office:document-styles>`;
  const merged = mergeOdfStyles(ours, theirs);
  const root = parseXml(merged);
  const styles = children(child(root, 'office:styles') as never, 'style:style');
  const named = (name: string) => styles.filter((style) => attr(style, 'style:name') === name);

  it("keeps the reference's styles and page, and adds ours it lacks with their fonts", () => {
    expect(named('Heading_20_1')).toHaveLength(1);
    expect(attr(child(named('Heading_20_1')[0], 'style:text-properties'), 'fo:color')).toBe('#7b2d26');
    for (const name of [
      'Heading_20_2',
      'Caption',
      'Bibliography',
      'Footnote_20_anchor',
      'Preformatted_20_Text',
    ])
      expect(named(name), name).toHaveLength(1);
    expect(named('Standard')).toHaveLength(1);
    expect(
      descendants(root, 'style:page-layout-properties').map((node) => attr(node, 'fo:page-width')),
    ).toEqual(['17cm']);
    const faces = descendants(root, 'style:font-face').map((face) => attr(face, 'style:name'));
    expect(faces).toEqual(['Gentium Distinct', 'Liberation Serif', 'Liberation Mono']);
    expect(descendants(root, 'text:outline-style')).toHaveLength(1);
  });

  it('exports an ODT with the merged styles; a reference that is no ODT changes nothing', () => {
    const doc = createDocument(schema, standardArticle, { title: 'Styled', language: 'en-US' });
    const input = { content: doc.toJSON(), threads: [], images: {}, csl: null };
    const styled = unzipSync(
      exportOdt(
        prepareDocument({ ...input, reference: { odt: zipSync({ 'styles.xml': strToU8(theirs) }) } }),
      ),
    );
    expect(strFromU8(styled['styles.xml'])).toContain('#7b2d26');
    const plain = unzipSync(exportOdt(prepareDocument({ ...input, reference: { odt: strToU8('junk') } })));
    // Our styles, with the outline numbering of the document's headings (decimal by default).
    expect(strFromU8(plain['styles.xml'])).toBe(referenceOdfStyles('en-US', ODF_PAGES.A4, 'decimal'));
    expect(mergeOdfStyles(ours, 'junk')).toBe(ours);
  });
});
