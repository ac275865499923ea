import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { descendants, parseXml, type XmlElement } from '../import/xml';
import { sofficeConvert, toolAvailable } from '../testing/office-tools';
import { fixturePaper } from './fixture-paper';
import { exportDocument } from './registry';

/**
 * Issue 53: each journal template's DOCX and ODT carry its house style (house-styles.ts): body
 * font size and line spacing, headings, margins; read back from styles.xml and the section.
 */

function paper(latexClass: string, paperSize: 'A4' | 'US Letter'): PMNode {
  const { doc } = fixturePaper();
  return doc.type.create({ ...doc.attrs, latex_class: latexClass, paper_size: paperSize }, doc.content);
}

async function parts(doc: PMNode, format: 'docx' | 'odt'): Promise<Record<string, string>> {
  const { data } = await exportDocument(format, {
    content: doc.toJSON(),
    threads: [],
    images: {},
    csl: null,
  });
  const files = unzipSync(data);
  return Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

const attr = (node: XmlElement | undefined, name: string) => node?.getAttribute(name) ?? '';
const first = (node: XmlElement, name: string) => descendants(node, name)[0];

/** What Word reads of our DOCX: the default run and spacing, heading 1 and the page margins. */
function wordLook(files: Record<string, string>) {
  const styles = parseXml(files['word/styles.xml']);
  const defaults = first(styles, 'w:docDefaults');
  const heading = descendants(styles, 'w:style').find((style) => attr(style, 'w:styleId') === 'Heading1');
  const section = first(parseXml(files['word/document.xml']), 'w:pgMar');
  return {
    font: attr(first(defaults, 'w:rFonts'), 'w:ascii'),
    size: attr(first(defaults, 'w:sz'), 'w:val'),
    line: attr(first(defaults, 'w:spacing'), 'w:line'),
    heading1:
      (heading ? descendants(first(heading, 'w:rPr'), '*') : [])
        .map((node) => `${node.nodeName}${attr(node, 'w:val') ? `=${attr(node, 'w:val')}` : ''}`)
        .join(' ') + (heading && first(heading, 'w:jc') ? ' centred' : ''),
    margins: ['w:top', 'w:right', 'w:bottom', 'w:left'].map((name) => attr(section, name)).join(' '),
  };
}

/** What LibreOffice reads of our ODT's styles.xml. */
function odfLook(xml: string) {
  const styles = parseXml(xml);
  const text = first(first(styles, 'style:default-style'), 'style:text-properties');
  const standard = descendants(styles, 'style:style').find(
    (style) => attr(style, 'style:name') === 'Standard',
  );
  const heading = descendants(styles, 'style:style').find(
    (style) => attr(style, 'style:name') === 'Heading_20_1',
  );
  const headingText = heading ? first(heading, 'style:text-properties') : undefined;
  const layout = first(styles, 'style:page-layout-properties');
  return {
    size: attr(text, 'fo:font-size'),
    line: attr(first(standard as XmlElement, 'style:paragraph-properties'), 'fo:line-height'),
    heading1: ['fo:font-size', 'fo:font-weight', 'fo:font-style', 'fo:font-variant', 'fo:text-transform']
      .map((name) => attr(headingText, name))
      .filter(Boolean)
      .join(' '),
    page: ['fo:page-width', 'fo:page-height', 'fo:margin-top', 'fo:margin-right', 'fo:margin-left']
      .map((name) => attr(layout, name))
      .join(' '),
  };
}

describe('house styles of the journal templates', () => {
  it('DOCX: IEEE is Times 10 pt single spaced with small-capital centred sections; APA 12 pt double spaced, 1 inch margins', async () => {
    expect(wordLook(await parts(paper('ieee-conference', 'US Letter'), 'docx'))).toEqual({
      font: 'Liberation Serif',
      size: '20',
      line: '240',
      heading1: 'w:smallCaps w:sz=20 w:szCs=20 centred',
      margins: '1080 900 1440 900',
    });
    expect(wordLook(await parts(paper('apa7-student', 'US Letter'), 'docx'))).toEqual({
      font: 'Liberation Serif',
      size: '24',
      line: '480',
      heading1: 'w:b w:sz=24 w:szCs=24 centred',
      margins: '1440 1440 1440 1440',
    });
    expect(wordLook(await parts(paper('lncs', 'A4'), 'docx'))).toMatchObject({
      size: '20',
      margins: '2948 2494 2948 2494',
    });
  });

  it('ODT: the same looks in styles.xml, the page the document setting', async () => {
    expect(odfLook((await parts(paper('ieee-conference', 'US Letter'), 'odt'))['styles.xml'])).toEqual({
      size: '10pt',
      line: '100%',
      heading1: '10pt normal small-caps',
      page: '21.59cm 27.94cm 1.90cm 1.59cm 1.59cm',
    });
    expect(odfLook((await parts(paper('acm-sigconf', 'A4'), 'odt'))['styles.xml'])).toEqual({
      size: '9pt',
      line: '105%',
      heading1: '9pt bold uppercase',
      page: '21cm 29.7cm 1.90cm 1.90cm 1.90cm',
    });
  });

  it.runIf(toolAvailable('soffice'))(
    'LibreOffice opens the IEEE DOCX and ODT and keeps their styles (converted to ODT and DOCX, and to PDF)',
    async () => {
      const doc = paper('ieee-conference', 'US Letter');
      const fromDocx = unzipSync(
        sofficeConvert(
          (await exportDocument('docx', { content: doc.toJSON(), threads: [], images: {}, csl: null })).data,
          'docx',
          'odt',
        ),
      );
      expect(odfLook(strFromU8(fromDocx['styles.xml']))).toMatchObject({
        size: '10pt',
        heading1: expect.stringContaining('small-caps'),
      });
      const odt = (await exportDocument('odt', { content: doc.toJSON(), threads: [], images: {}, csl: null }))
        .data;
      const fromOdt = unzipSync(sofficeConvert(odt, 'odt', 'docx'));
      expect(
        wordLook(
          Object.fromEntries(Object.entries(fromOdt).map(([name, bytes]) => [name, strFromU8(bytes)])),
        ),
      ).toMatchObject({
        heading1: expect.stringContaining('w:smallCaps'),
        // LibreOffice's own rounding of 0.75 and 0.625 inch; the footer comes off the bottom.
        margins: expect.stringMatching(/^10[78]\d 90\d \d+ 90\d$/),
      });
      const pdf = sofficeConvert(odt, 'odt', 'pdf');
      expect(strFromU8(pdf.subarray(0, 5))).toBe('%PDF-');
    },
    240_000,
  );
});
