import { type HeadingNumbering, NUMBERED_HEADING_LEVELS } from '../editor/vocabulary';
import { type HeadingLook, HOUSE_STYLES, type HouseStyle } from './house-styles';
import { escapeXml } from './text';

/**
 * The default reference document of the DOCX export, written by our own code: the styles,
 * numbering and settings parts that the exporter fills its content into. A journal's own
 * reference document can later replace these parts (the content names only these style ids).
 */

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function paragraphStyle(
  id: string,
  name: string,
  props: string,
  runProps = '',
  basedOn = 'Normal',
  next = 'Normal',
): string {
  return `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="${basedOn}"/><w:next w:val="${next}"/><w:qFormat/><w:pPr>${props}</w:pPr><w:rPr>${runProps}</w:rPr></w:style>`;
}

/** A heading's run properties in Word's terms (half-points). */
function headingRun(look: HeadingLook): string {
  const caps = { none: '', small: '<w:smallCaps/>', all: '<w:caps/>' }[look.caps];
  return `${look.bold ? '<w:b/>' : ''}${look.italic ? '<w:i/>' : ''}${caps}<w:sz w:val="${look.size * 2}"/><w:szCs w:val="${look.size * 2}"/>`;
}

/** Our styles in a template's house style (house-styles.ts; the Standard article's by default). */
export function referenceStyles(language: string, house: HouseStyle = HOUSE_STYLES.article): string {
  const headings = [1, 2, 3, 4, 5, 6]
    .map((level) => {
      const look = house.headings[Math.min(level, 3) - 1];
      return paragraphStyle(
        `Heading${level}`,
        `heading ${level}`,
        `<w:keepNext/><w:spacing w:before="${level === 1 ? 360 : 240}" w:after="120"/>${look.center ? '<w:jc w:val="center"/>' : ''}<w:outlineLvl w:val="${level - 1}"/>`,
        headingRun(look),
      );
    })
    .join('');
  const font = escapeXml(house.font);
  const size = Math.round(house.size * 2);
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${W}"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}" w:eastAsia="${font}" w:cs="${font}"/><w:sz w:val="${size}"/><w:szCs w:val="${size}"/><w:lang w:val="${escapeXml(language)}"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="${Math.round(240 * house.line)}" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>
${paragraphStyle('Title', 'Title', '<w:jc w:val="center"/><w:spacing w:after="240"/>', '<w:b/><w:sz w:val="40"/>')}
${paragraphStyle('Subtitle', 'Subtitle', '<w:jc w:val="center"/>', '<w:sz w:val="30"/>')}
${paragraphStyle('Author', 'Author', '<w:jc w:val="center"/>')}
${paragraphStyle('AbstractTitle', 'Abstract Title', '<w:keepNext/><w:jc w:val="center"/>', '<w:b/>')}
${paragraphStyle('Abstract', 'Abstract', '<w:ind w:left="567" w:right="567"/>', '<w:sz w:val="22"/>')}
${paragraphStyle('Keywords', 'Keywords', '<w:ind w:left="567" w:right="567"/>', '<w:sz w:val="22"/>')}
${headings}
${paragraphStyle('BlockText', 'Block Text', '<w:ind w:left="567" w:right="567"/>')}
${paragraphStyle('SourceCode', 'Source Code', '<w:spacing w:after="0"/>', '<w:rFonts w:ascii="Liberation Mono" w:hAnsi="Liberation Mono"/><w:sz w:val="20"/>')}
${paragraphStyle('Caption', 'caption', '<w:jc w:val="center"/><w:spacing w:after="240"/>', '<w:i/><w:sz w:val="20"/>')}
${paragraphStyle('Figure', 'Figure', '<w:keepNext/><w:jc w:val="center"/>')}
${paragraphStyle('Equation', 'Equation', '<w:jc w:val="center"/>')}
${paragraphStyle('ListParagraph', 'List Paragraph', '<w:spacing w:after="60"/>')}
${paragraphStyle('FootnoteText', 'footnote text', '<w:spacing w:after="0"/>', '<w:sz w:val="20"/>')}
${paragraphStyle('CommentText', 'annotation text', '', '<w:sz w:val="20"/>')}
${paragraphStyle('Bibliography', 'Bibliography', '<w:ind w:left="567" w:hanging="567"/>')}
${paragraphStyle('TableContents', 'Table Contents', '<w:spacing w:after="0"/>')}
${paragraphStyle('TOCHeading', 'TOC Heading', '<w:keepNext/><w:spacing w:before="240" w:after="120"/>', '<w:b/><w:sz w:val="28"/>')}
${[1, 2, 3].map((level) => paragraphStyle(`TOC${level}`, `toc ${level}`, `<w:spacing w:after="60"/><w:ind w:left="${(level - 1) * 240}"/>`)).join('')}
<w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="CommentReference"><w:name w:val="annotation reference"/><w:rPr><w:sz w:val="16"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="VerbatimChar"><w:name w:val="Verbatim Char"/><w:rPr><w:rFonts w:ascii="Liberation Mono" w:hAnsi="Liberation Mono"/></w:rPr></w:style>
<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>
<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:left w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:right w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="000000"/></w:tblBorders></w:tblPr></w:style>
</w:styles>`;
}

/** The list instance the numbered headings use (past any list's: lists count from 1). */
export const HEADINGS_NUM_ID = 9999;

/** The headings' numbers (abstract 3) in a heading numbering: Word's format and text per level. */
function headingLevels(numbering: HeadingNumbering): string {
  const formats: [string, string][] =
    numbering === 'roman'
      ? [
          ['upperRoman', '%1.'],
          ['upperLetter', '%2.'],
          ['decimal', '%3)'],
        ]
      : [
          ['decimal', '%1'],
          ['decimal', '%1.%2'],
          ['decimal', '%1.%2.%3'],
        ];
  return formats
    .slice(0, NUMBERED_HEADING_LEVELS)
    .map(
      ([format, text], level) =>
        `<w:lvl w:ilvl="${level}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/><w:suff w:val="space"/><w:pPr><w:ind w:left="0" w:firstLine="0"/></w:pPr></w:lvl>`,
    )
    .join('');
}

/**
 * Bullets (abstract 1) and decimal numbers (abstract 2) on nine levels; `nums` adds one instance
 * per list. With a heading numbering, abstract 3 and instance HEADINGS_NUM_ID number the headings.
 */
export function referenceNumbering(
  nums: { id: number; ordered: boolean; start: number }[],
  headings: HeadingNumbering = 'none',
): string {
  const levels = (ordered: boolean) =>
    Array.from({ length: 9 }, (_, level) => {
      const indent = 720 * (level + 1);
      const format = ordered ? '<w:numFmt w:val="decimal"/>' : '<w:numFmt w:val="bullet"/>';
      const text = ordered ? `%${level + 1}.` : ['•', '◦', '▪'][level % 3];
      return `<w:lvl w:ilvl="${level}"><w:start w:val="1"/>${format}<w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${indent}" w:hanging="360"/></w:pPr></w:lvl>`;
    }).join('');
  const instances = nums
    .map(
      (num) =>
        `<w:num w:numId="${num.id}"><w:abstractNumId w:val="${num.ordered ? 2 : 1}"/>${num.ordered ? `<w:lvlOverride w:ilvl="0"><w:startOverride w:val="${num.start}"/></w:lvlOverride>` : ''}</w:num>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="${W}"><w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="hybridMultilevel"/>${levels(false)}</w:abstractNum><w:abstractNum w:abstractNumId="2"><w:multiLevelType w:val="hybridMultilevel"/>${levels(true)}</w:abstractNum>${
    headings === 'none'
      ? ''
      : `<w:abstractNum w:abstractNumId="3"><w:multiLevelType w:val="multilevel"/>${headingLevels(headings)}</w:abstractNum>`
  }${instances}${headings === 'none' ? '' : `<w:num w:numId="${HEADINGS_NUM_ID}"><w:abstractNumId w:val="3"/></w:num>`}</w:numbering>`;
}

export function referenceSettings(language: string, tracked: boolean): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:settings xmlns:w="${W}" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math">${tracked ? '' : ''}<w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/><w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr><m:mathPr><m:mathFont m:val="Cambria Math"/></m:mathPr><w:themeFontLang w:val="${escapeXml(language)}"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>`;
}
