import { type HeadingNumbering, NUMBERED_HEADING_LEVELS } from '../editor/vocabulary';
import { type HeadingLook, HOUSE_STYLES, type HouseStyle } from './house-styles';
import { escapeXml } from './text';

/**
 * The default reference document of the ODT export, written by our own code: the styles.xml that
 * the exporter's content.xml names its paragraph and character styles from (the same roles as
 * docx-reference.ts), the page in the document's paper size with page numbers in the footer.
 */

export const ODF_NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
  'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:math="http://www.w3.org/1998/Math/MathML"',
  'xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"',
].join(' ');

export const ODF_XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Page geometry in cm: A4 or US Letter, margins as the DOCX export's. */
export interface OdfPage {
  width: number;
  height: number;
  margin: number;
}

export const ODF_PAGES: Record<'A4' | 'US Letter', OdfPage> = {
  A4: { width: 21, height: 29.7, margin: 2.5 },
  'US Letter': { width: 21.59, height: 27.94, margin: 2.54 },
};

/** fo:language and fo:country of a BCP 47 tag (en-US -> en, US). */
export function languageProps(language: string): string {
  const [lang, country] = language.split('-');
  return `fo:language="${escapeXml(lang || 'en')}"${country && /^[A-Za-z]{2}$/.test(country) ? ` fo:country="${escapeXml(country.toUpperCase())}"` : ''}`;
}

export const FONT_FACES =
  '<office:font-face-decls><style:font-face style:name="Liberation Serif" svg:font-family="\'Liberation Serif\'" style:font-family-generic="roman" style:font-pitch="variable"/><style:font-face style:name="Liberation Mono" svg:font-family="\'Liberation Mono\'" style:font-family-generic="modern" style:font-pitch="fixed"/></office:font-face-decls>';

/** A named style's attribute value from its display name ("Heading 1" -> "Heading_20_1"). */
export function styleName(display: string): string {
  return display.replace(/ /g, '_20_');
}

function paragraphStyle(
  display: string,
  paragraphProps: string,
  textProps = '',
  { parent = 'Standard', next = '', outline = 0, tabStops = '' } = {},
): string {
  const name = styleName(display);
  const nameAttr = name === display ? '' : ` style:display-name="${display}"`;
  return `<style:style style:name="${name}"${nameAttr} style:family="paragraph" style:parent-style-name="${parent}"${next ? ` style:next-style-name="${styleName(next)}"` : ''}${outline ? ` style:default-outline-level="${outline}"` : ''} style:class="text"><style:paragraph-properties ${paragraphProps}>${tabStops}</style:paragraph-properties>${textProps ? `<style:text-properties ${textProps}/>` : ''}</style:style>`;
}

function textStyle(display: string, textProps: string): string {
  return `<style:style style:name="${styleName(display)}" style:display-name="${display}" style:family="text"><style:text-properties ${textProps}/></style:style>`;
}

/** The outline's number format of a level (1-based) in a heading numbering: format, suffix, levels shown. */
function outlineLevel(numbering: HeadingNumbering, level: number): [string, string, number] {
  if (numbering === 'none' || level > NUMBERED_HEADING_LEVELS) return ['', '', 1];
  // IEEE: "I." / "A." / "1)".
  if (numbering === 'roman') return [['I', 'A', '1'][level - 1], level === 3 ? ')' : '.', 1];
  return ['1', '', level];
}

/**
 * The headings' outline numbering: the document's heading numbering (LibreOffice's own outline
 * numbers, so the headings' text stays theirs), or no numbers.
 */
function outlineStyle(numbering: HeadingNumbering): string {
  const levels = Array.from({ length: 10 }, (_, index) => {
    const [format, suffix, shown] = outlineLevel(numbering, index + 1);
    const attributes = `style:num-format="${format}"${suffix ? ` style:num-suffix="${suffix}"` : ''}${shown > 1 ? ` text:display-levels="${shown}"` : ''}`;
    return `<text:outline-level-style text:level="${index + 1}" ${attributes}><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="${format ? 'space' : 'nothing'}"/></style:list-level-properties></text:outline-level-style>`;
  }).join('');
  return `<text:outline-style style:name="Outline">${levels}</text:outline-style>`;
}

/** A heading's text properties in ODF's terms. */
function headingText(look: HeadingLook): string {
  const caps = { none: '', small: ' fo:font-variant="small-caps"', all: ' fo:text-transform="uppercase"' }[
    look.caps
  ];
  return `fo:font-size="${look.size}pt" fo:font-weight="${look.bold ? 'bold' : 'normal'}"${look.italic ? ' fo:font-style="italic"' : ''}${caps}`;
}

/** Our styles.xml in a template's house style (house-styles.ts; the Standard article's by default). */
export function referenceOdfStyles(
  language: string,
  page: OdfPage,
  numbering: HeadingNumbering = 'none',
  house: HouseStyle = HOUSE_STYLES.article,
): string {
  const headings = [1, 2, 3, 4, 5, 6]
    .map((level) => {
      const look = house.headings[Math.min(level, 3) - 1];
      return paragraphStyle(
        `Heading ${level}`,
        `fo:margin-top="${level === 1 ? '0.6cm' : '0.42cm'}" fo:margin-bottom="0.21cm" fo:keep-with-next="always"${look.center ? ' fo:text-align="center"' : ''}`,
        headingText(look),
        { next: 'Text body', outline: level },
      );
    })
    .join('');
  const margin = (mm: number) => `${(mm / 10).toFixed(2)}cm`;
  const textWidth = page.width - 2 * page.margin;
  return `${ODF_XML_HEAD}<office:document-styles ${ODF_NS} office:version="1.3">${FONT_FACES}<office:styles>
<style:default-style style:family="paragraph"><style:paragraph-properties fo:orphans="2" fo:widows="2" style:writing-mode="page"/><style:text-properties style:font-name="${escapeXml(house.font)}" fo:font-size="${house.size}pt" ${languageProps(language)}/></style:default-style>
<style:default-style style:family="graphic"><style:graphic-properties style:wrap="none"/></style:default-style>
<style:style style:name="Standard" style:family="paragraph" style:class="text"><style:paragraph-properties fo:margin-top="0cm" fo:margin-bottom="0.21cm" fo:line-height="${Math.round(house.line * 100)}%"/></style:style>
${paragraphStyle('Text body', 'fo:margin-bottom="0.21cm"')}
${paragraphStyle('Title', 'fo:text-align="center" fo:margin-bottom="0.42cm"', 'fo:font-size="20pt" fo:font-weight="bold"', { next: 'Subtitle' })}
${paragraphStyle('Subtitle', 'fo:text-align="center"', 'fo:font-size="15pt"')}
${paragraphStyle('Author', 'fo:text-align="center"')}
${paragraphStyle('Abstract Title', 'fo:text-align="center" fo:keep-with-next="always"', 'fo:font-weight="bold"', { next: 'Abstract' })}
${paragraphStyle('Abstract', 'fo:margin-left="1cm" fo:margin-right="1cm"', 'fo:font-size="11pt"')}
${paragraphStyle('Keywords', 'fo:margin-left="1cm" fo:margin-right="1cm"', 'fo:font-size="11pt"')}
${headings}
${paragraphStyle('Quotations', 'fo:margin-left="1cm" fo:margin-right="1cm"')}
${paragraphStyle('Preformatted Text', 'fo:margin-top="0cm" fo:margin-bottom="0cm"', 'style:font-name="Liberation Mono" fo:font-size="10pt"')}
${paragraphStyle('Caption', 'fo:text-align="center" fo:margin-bottom="0.42cm"', 'fo:font-size="10pt" fo:font-style="italic"')}
${paragraphStyle('Figure', 'fo:text-align="center" fo:keep-with-next="always"')}
${paragraphStyle('Equation', 'fo:text-align="center"', '', {
  // The number of a display equation sits at the right margin after a tab.
  tabStops: `<style:tab-stops><style:tab-stop style:position="${textWidth.toFixed(2)}cm" style:type="right"/></style:tab-stops>`,
})}
${paragraphStyle('List Paragraph', 'fo:margin-bottom="0.1cm"')}
${paragraphStyle('Footnote', 'fo:margin-left="0.5cm" fo:text-indent="-0.5cm" fo:margin-bottom="0cm"', 'fo:font-size="10pt"')}
${paragraphStyle('Bibliography', 'fo:margin-left="1cm" fo:text-indent="-1cm"')}
${paragraphStyle('Table Contents', 'fo:margin-bottom="0cm"')}
${paragraphStyle('Contents Heading', 'fo:margin-top="0.42cm" fo:margin-bottom="0.21cm" fo:keep-with-next="always"', 'fo:font-size="14pt" fo:font-weight="bold"')}
${[1, 2, 3].map((level) => paragraphStyle(`Contents ${level}`, `fo:margin-left="${((level - 1) * 0.5).toFixed(1)}cm" fo:margin-bottom="0.1cm"`)).join('')}
${paragraphStyle('Table Heading', 'fo:margin-bottom="0cm"', 'fo:font-weight="bold"', { parent: 'Table_20_Contents' })}
${paragraphStyle('Horizontal Line', 'fo:border-bottom="0.5pt solid #000000" fo:padding="0cm" fo:margin-bottom="0.5cm"', 'fo:font-size="6pt"')}
${paragraphStyle('Footer', 'fo:text-align="center"')}
${textStyle('Source Text', 'style:font-name="Liberation Mono"')}
${textStyle('Internet link', 'fo:color="#0563c1" style:text-underline-style="solid" style:text-underline-width="auto" style:text-underline-color="font-color"')}
${textStyle('Footnote Symbol', '')}
${textStyle('Footnote anchor', 'style:text-position="super 58%"')}
<style:style style:name="Formula" style:family="graphic"><style:graphic-properties style:vertical-pos="middle" style:vertical-rel="text" fo:margin-left="0.1cm" fo:margin-right="0.1cm"/></style:style>
<style:style style:name="Graphics" style:family="graphic"><style:graphic-properties style:vertical-pos="top" style:vertical-rel="baseline"/></style:style>
${outlineStyle(numbering)}
<text:notes-configuration text:note-class="footnote" text:citation-style-name="Footnote_20_Symbol" text:citation-body-style-name="Footnote_20_anchor" style:num-format="1" text:start-value="0" text:footnotes-position="page" text:start-numbering-at="document"/>
</office:styles><office:automatic-styles><style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="${page.width}cm" fo:page-height="${page.height}cm" style:print-orientation="portrait" fo:margin-top="${margin(house.margins.top)}" fo:margin-bottom="${margin(house.margins.bottom - 10)}" fo:margin-left="${margin(house.margins.left)}" fo:margin-right="${margin(house.margins.right)}"/><style:footer-style><style:header-footer-properties fo:min-height="0.5cm" fo:margin-top="0.5cm"/></style:footer-style></style:page-layout></office:automatic-styles><office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"><style:footer><text:p text:style-name="Footer"><text:page-number text:select-page="current">1</text:page-number></text:p></style:footer></style:master-page></office:master-styles></office:document-styles>`;
}
