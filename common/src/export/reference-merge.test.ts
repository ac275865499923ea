import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { attr, child, children, descendants, parseXml, type XmlElement } from '../import/xml';
import { exportDocx } from './docx';
import { referenceNumbering, referenceStyles } from './docx-reference';
import { prepareDocument } from './model';
import { exportOdt } from './odt';
import { ODF_NS, ODF_PAGES, referenceOdfStyles } from './odt-reference';
import { mergeDocxNumbering, mergeDocxStyles, mergeOdfStyles } from './reference-merge';

/** Issue 21: a template's reference document styles our exports; styles it lacks come from ours. */

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A German Word's styles: Heading 1 under a localised id, in a named font and colour. */
const GERMAN_STYLES = `<?xml version="1.0" encoding="UTF-8"?>
<w:styles ${W}><w:style w:type="paragraph" w:default="1" w:styleId="Standard"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:basedOn w:val="Standard"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr><w:rPr><w:rFonts w:ascii="Gentium Distinct" w:hAnsi="Gentium Distinct"/><w:color w:val="7B2D26"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:rPr><w:sz w:val="60"/></w:rPr></w:style></w:styles>`;

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
    const prepared = prepareDocument({
      content: doc.toJSON(),
      threads: [],
      images: {},
      csl: null,
      reference: { docx: reference },
    });
    const files = unzipSync(exportDocx(prepared));
    const document = strFromU8(files['word/document.xml']);
    expect(document).toContain('<w:pStyle w:val="Title"/>');
    expect(document).toContain('<w:pgSz w:w="10000" w:h="14000"/>');
    expect(strFromU8(files['word/styles.xml'])).toContain('Gentium Distinct');
    expect(files['word/theme/theme1.xml']).toBeDefined();
    expect(strFromU8(files['word/_rels/document.xml.rels'])).toContain('Target="theme/theme1.xml"');
    expect(strFromU8(files['[Content_Types].xml'])).toContain('/word/theme/theme1.xml');
    // A reference that is no DOCX leaves our own styles.
    const plain = unzipSync(
      exportDocx(
        prepareDocument({
          content: doc.toJSON(),
          threads: [],
          images: {},
          csl: null,
          reference: { docx: strToU8('junk') },
        }),
      ),
    );
    expect(strFromU8(plain['word/styles.xml'])).toBe(referenceStyles('en-US'));
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
    expect(strFromU8(plain['styles.xml'])).toBe(ours);
    expect(mergeOdfStyles(ours, 'junk')).toBe(ours);
  });
});
