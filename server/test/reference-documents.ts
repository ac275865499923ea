import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { expect } from 'vitest';
import { run } from './export-tools';

/** Export files (reference documents) for the template export tests: pandoc's own, one style changed. */

export const FONT = 'Gentium Distinct';
export const COLOUR = '7B2D26';

/** pandoc's own reference document of `kind` with Heading 1 in our font and colour. */
export async function referenceWithHeading(kind: 'docx' | 'odt', folder: string): Promise<Uint8Array> {
  const file = path.join(folder, `reference.${kind}`);
  await run('pandoc', ['-o', file, '--print-default-data-file', `reference.${kind}`]);
  const files = unzipSync(new Uint8Array(await readFile(file)));
  if (kind === 'docx') {
    const styles = strFromU8(files['word/styles.xml']);
    const heading = `<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="Heading 1"/><w:basedOn w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:rFonts w:ascii="${FONT}" w:hAnsi="${FONT}"/><w:color w:val="${COLOUR}"/><w:sz w:val="36"/></w:rPr></w:style>`;
    const changed = styles.replace(
      /<w:style w:type="paragraph" w:styleId="Heading1">[\s\S]*?<\/w:style>/,
      heading,
    );
    expect(changed).not.toBe(styles);
    files['word/styles.xml'] = strToU8(changed);
  } else {
    const styles = strFromU8(files['styles.xml']);
    const heading = `<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="1" style:class="text"><style:text-properties fo:font-family="'${FONT}'" fo:color="#${COLOUR.toLowerCase()}" fo:font-weight="bold"/></style:style>`;
    const changed = styles.replace(/<style:style style:name="Heading_20_1"[\s\S]*?<\/style:style>/, heading);
    expect(changed).not.toBe(styles);
    files['styles.xml'] = strToU8(changed);
  }
  return zipSync(files);
}

export const HEADER_TEXT = 'Journal of Tests';
export const EVEN_HEADER_TEXT = 'Even Pages of the Journal';

const W_NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';
const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** A 1×1 PNG: the journal's logo in its header. */
const LOGO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function paragraph(style: string, runs: string): string {
  return `<w:p><w:pPr><w:pStyle w:val="${style}"/><w:jc w:val="center"/></w:pPr>${runs}</w:p>`;
}

const logo = `<w:r><w:drawing><wp:inline><wp:extent cx="95250" cy="95250"/><wp:docPr id="1" name="Logo"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="logo.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rId1"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="95250" cy="95250"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
const pageField =
  '<w:r><w:t xml:space="preserve">Page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>';

/**
 * `reference` (a DOCX) with the pages of a journal, as Word saves them: a header "Journal of
 * Tests" with a logo (its own relationship to word/media), another one on even pages, a footer
 * with a PAGE field, even-and-odd headers in its settings, and settings that must not come along
 * (protection, an attached template, a mail merge).
 */
export function withHeaderFooter(reference: Uint8Array): Uint8Array {
  const files = unzipSync(reference);
  const header = (text: string, extra = '') =>
    strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr ${W_NS}>${paragraph('Header', `${extra}<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`)}</w:hdr>`,
    );
  files['word/header1.xml'] = header(HEADER_TEXT, logo);
  files['word/_rels/header1.xml.rels'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/image" Target="media/image1.png"/></Relationships>`,
  );
  files['word/media/image1.png'] = new Uint8Array(LOGO);
  files['word/header2.xml'] = header(EVEN_HEADER_TEXT);
  files['word/footer1.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr ${W_NS}>${paragraph('Footer', pageField)}</w:ftr>`,
  );
  // Ids a generated document uses too (rId1...) and that Word gives its headers.
  const rels = strFromU8(files['word/_rels/document.xml.rels']).replace(
    '</Relationships>',
    `<Relationship Id="rId20" Type="${RELS}/header" Target="header1.xml"/><Relationship Id="rId21" Type="${RELS}/header" Target="header2.xml"/><Relationship Id="rId22" Type="${RELS}/footer" Target="footer1.xml"/><Relationship Id="rId23" Type="${RELS}/attachedTemplate" Target="file:///C:/Templates/Journal.dotm" TargetMode="External"/></Relationships>`,
  );
  files['word/_rels/document.xml.rels'] = strToU8(rels);
  const types = strFromU8(files['[Content_Types].xml']).replace(
    '</Types>',
    '<Default Extension="png" ContentType="image/png"/><Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/><Override PartName="/word/header2.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/><Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>',
  );
  files['[Content_Types].xml'] = strToU8(types);
  const document = strFromU8(files['word/document.xml']);
  const section =
    '<w:sectPr><w:headerReference w:type="default" r:id="rId20"/><w:headerReference w:type="even" r:id="rId21"/><w:footerReference w:type="default" r:id="rId22"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>';
  const changed = document.replace(/<w:sectPr\s*\/>|<w:sectPr>[\s\S]*?<\/w:sectPr>/, section);
  expect(changed).not.toBe(document);
  files['word/document.xml'] = strToU8(changed);
  const settings = strFromU8(files['word/settings.xml']);
  const withEven = settings
    .replace(
      '<w:stylePaneFormatFilter',
      '<w:attachedTemplate r:id="rId23"/><w:mailMerge><w:mainDocumentType w:val="formLetters"/><w:dataType w:val="textFile"/><w:query w:val="SELECT * FROM list"/></w:mailMerge><w:documentProtection w:edit="readOnly" w:enforcement="1"/><w:stylePaneFormatFilter',
    )
    .replace('<w:defaultTabStop w:val="720" />', '<w:defaultTabStop w:val="567"/><w:evenAndOddHeaders/>');
  expect(withEven).toContain('<w:evenAndOddHeaders/>');
  expect(withEven).toContain('<w:mailMerge>');
  files['word/settings.xml'] = strToU8(withEven);
  return zipSync(files);
}
