import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { pandocFrom, sofficeConvert, toolAvailable } from '../testing/office-tools';
import { importDocument } from './index';
import type { ImportedDocument } from './model';
import {
  docxOf,
  drawingDocxOf,
  emfHeader,
  emfTextBoxDocx,
  field,
  type JsonNode,
  nodesOfType,
  paragraph,
  run,
  textBox,
} from './testing/word';

/**
 * Issue 54: what other programs write that the reader lost. Files of python-docx and pandoc where
 * they write the construct; Word's own markup (text boxes, content controls in tables, drop caps,
 * EMF) written here by hand where no converter at hand writes it.
 */

type Json = JsonNode;

const folder = join(__dirname, 'testing', 'office');

function nodes(doc: ImportedDocument | Json, type: string): Json[] {
  return nodesOfType(('content' in doc && !('type' in doc) ? doc.content : doc) as Json, type);
}

const textOf = (node: Json): string =>
  node.type === 'text' ? (node.text ?? '') : (node.content ?? []).map(textOf).join('');

/** The body's blocks as [type, text]. */
function blocks(doc: ImportedDocument): [string, string][] {
  const body = ((doc.content as Json).content ?? []).find((part) => part.attrs?.id === 'body');
  return (body?.content ?? []).map((block) => [block.type, textOf(block)]);
}

/** A DOCX with some parts replaced or added. */
function withParts(bytes: Uint8Array, parts: Record<string, string | null>): Uint8Array {
  const files = unzipSync(bytes);
  for (const [name, content] of Object.entries(parts)) {
    if (content === null) delete files[name];
    else files[name] = strToU8(content);
  }
  return zipSync(files);
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const NS = `${W} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:v="urn:schemas-microsoft-com:vml"`;

const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const relationships = (...rels: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`;

describe('lists numbered through the paragraph style', () => {
  it('reads python-docx\'s "List Number" and "List Bullet" paragraphs as lists', () => {
    const doc = importDocument(new Uint8Array(readFileSync(join(folder, 'style-lists.docx'))), 'x.docx');
    expect(blocks(doc)).toEqual([
      ['paragraph', 'Steps in order:'],
      ['ordered_list', 'Mix the flourAdd the waterBake it'],
      ['paragraph', 'Things to bring:'],
      ['bullet_list', 'ApplesPears'],
      ['paragraph', 'The end.'],
    ]);
  });
});

describe.runIf(toolAvailable('pandoc'))('parts where Word puts them', () => {
  const markdown = 'A note.[^1]\n\n[^1]: See [the site](https://example.org/page#part).\n';

  it("resolves a footnote's link against the footnotes' own relationships", () => {
    // pandoc also copies the link into the main part's relationships; Word does not: without it,
    // and with the main part's rId taken by another target, only footnotes.xml.rels is right.
    const source = pandocFrom(markdown, 'docx');
    const files = unzipSync(source);
    const footRels = strFromU8(files['word/_rels/footnotes.xml.rels']);
    const id = /Id="(rId\d+)"/.exec(footRels)?.[1] ?? '';
    const mainRels = strFromU8(files['word/_rels/document.xml.rels'])
      .replace(/<Relationship[^>]*Target="https:\/\/example.org[^>]*\/>/, '')
      .replace(
        '</Relationships>',
        `<Relationship Id="${id}" Type="${RELS}/hyperlink" Target="https://wrong.example/" TargetMode="External"/></Relationships>`,
      );
    const doc = importDocument(withParts(source, { 'word/_rels/document.xml.rels': mainRels }), 'x.docx');
    const linked = nodes(doc, 'text').find((node) => node.text === 'the site');
    expect(linked?.marks).toEqual([
      { type: 'link', attrs: { href: 'https://example.org/page#part', title: '' } },
    ]);
  });

  it('reads a main part at another path (word/document2.xml, named by _rels/.rels)', () => {
    const source = pandocFrom('# Moved\n\nThe main part moved.[^1]\n\n[^1]: Its note.\n', 'docx');
    const files = unzipSync(source);
    const moved = {
      'word/document.xml': null,
      'word/document2.xml': strFromU8(files['word/document.xml']),
      'word/_rels/document.xml.rels': null,
      'word/_rels/document2.xml.rels': strFromU8(files['word/_rels/document.xml.rels']),
      '_rels/.rels': strFromU8(files['_rels/.rels']).replace('word/document.xml', 'word/document2.xml'),
      '[Content_Types].xml': strFromU8(files['[Content_Types].xml']).replace(
        '/word/document.xml',
        '/word/document2.xml',
      ),
    };
    const doc = importDocument(withParts(source, moved), 'moved.docx');
    expect(blocks(doc)).toEqual([
      ['heading', 'Moved'],
      ['paragraph', 'The main part moved.Its note.'],
    ]);
    expect(nodes(doc, 'footnote').map(textOf)).toEqual(['Its note.']);
  });
});

describe("Word's text boxes, content controls and drop caps", () => {
  it('keeps the text of a text box once (not its VML fallback too), after its paragraph, its label apart', () => {
    const body =
      paragraph(
        run('Before the box.'),
        textBox(paragraph(run('Figure 1')) + paragraph(run('Inside the box.'))),
      ) + paragraph(run('Next words.'));
    const doc = importDocument(drawingDocxOf(body), 'x.docx');
    expect(blocks(doc)).toEqual([
      ['paragraph', 'Before the box.'],
      ['paragraph', 'Figure 1'],
      ['paragraph', 'Inside the box.'],
      ['paragraph', 'Next words.'],
    ]);
  });

  it('keeps table rows and cells inside content controls', () => {
    const cell = (text: string) => `<w:tc>${paragraph(run(text))}</w:tc>`;
    const control = (content: string) =>
      `<w:sdt><w:sdtPr><w:id w:val="1"/></w:sdtPr><w:sdtContent>${content}</w:sdtContent></w:sdt>`;
    const body =
      `<w:tbl><w:tr>${cell('A')}${control(cell('B'))}</w:tr>${control(`<w:tr>${cell('C')}${cell('D')}</w:tr>`)}</w:tbl>` +
      control(paragraph(run('Controlled '), control(`${run('inline')}`), run(' text.')));
    const doc = importDocument(docxOf(body), 'x.docx');
    expect(nodes(doc, 'table_row').map(textOf)).toEqual(['AB', 'CD']);
    expect(blocks(doc)[1]).toEqual(['paragraph', 'Controlled inline text.']);
  });

  it('puts a drop cap back at the start of its paragraph', () => {
    const body =
      `<w:p><w:pPr><w:framePr w:dropCap="drop" w:lines="3" w:wrap="around" w:vAnchor="text" w:hAnchor="text"/></w:pPr>${run('O')}</w:p>` +
      paragraph(run('nce upon a time.'));
    expect(blocks(importDocument(docxOf(body), 'x.docx'))).toEqual([['paragraph', 'Once upon a time.']]);
  });

  it('makes an EMF picture in a text box a placeholder with its name, and notes it', () => {
    const doc = importDocument(emfTextBoxDocx(), 'x.docx');
    expect(blocks(doc)).toEqual([
      ['paragraph', 'Logo:'],
      ['paragraph', '[image1.emf]'],
    ]);
    expect(doc.images).toEqual([]);
    expect(doc.notes).toEqual([{ code: 'unsupported_element', detail: 'EMF image1.emf', count: 1 }]);
  });
});

/** pandoc's ODT with a LibreOffice text frame (label and text) in its first paragraph. */
function framedOdt(): Uint8Array {
  const files = unzipSync(pandocFrom('Before the frame.\n\nAfter the frame.\n', 'odt'));
  const frame =
    '<draw:frame draw:name="Frame1" text:anchor-type="paragraph" svg:width="5cm" svg:height="2cm"><draw:text-box>' +
    '<text:p>Illustration 1</text:p><text:p>Framed words here.</text:p></draw:text-box></draw:frame>';
  files['content.xml'] = strToU8(
    strFromU8(files['content.xml']).replace('Before the frame.', `Before the frame.${frame}`),
  );
  return zipSync(files);
}

describe.runIf(toolAvailable('pandoc') && toolAvailable('soffice'))('text frames LibreOffice writes', () => {
  const odt = framedOdt();
  const expected = [
    ['paragraph', 'Before the frame.'],
    ['paragraph', 'Illustration 1'],
    ['paragraph', 'Framed words here.'],
    ['paragraph', 'After the frame.'],
  ];

  it('reads the text box of its DOCX once, its label a paragraph of its own', () => {
    const doc = importDocument(sofficeConvert(odt, 'odt', 'docx'), 'frame.docx');
    expect(blocks(doc)).toEqual(expected);
    // LibreOffice's start, as the other conversions of import.test.ts.
  }, 180_000);

  it('reads the frame of the ODT the same way', () => {
    expect(blocks(importDocument(odt, 'frame.odt'))).toEqual(expected);
  });
});

describe.runIf(toolAvailable('pandoc'))('metafiles in an ODT', () => {
  it("takes LibreOffice's PNG replacement of an EMF, and names an EMF without one", () => {
    const files = unzipSync(
      pandocFrom('![Logo](logo.png)\n\nText.\n\n![Chart](chart.png)\n', 'odt', ['--resource-path', folder]),
    );
    const content = strFromU8(files['content.xml']);
    const frames = content.match(/<draw:image xlink:href="Pictures\/[^"]+"[^>]*\/>/g) ?? [];
    expect(frames).toHaveLength(2);
    const [first = '', second = ''] = frames;
    const logo = /Pictures\/([^"]+)"/.exec(first)?.[1];
    files['Pictures/logo.emf'] = emfHeader();
    files['Pictures/chart.emf'] = emfHeader();
    files['content.xml'] = strToU8(
      content
        .replace(first, `<draw:image xlink:href="Pictures/logo.emf"/>${first}`)
        .replace(second, '<draw:image xlink:href="Pictures/chart.emf"/>'),
    );
    const doc = importDocument(zipSync(files), 'x.odt');
    expect(doc.images.map((image) => image.name)).toEqual([logo]);
    expect(blocks(doc)).toEqual([
      ['figure', ''],
      ['paragraph', 'Text.'],
      ['paragraph', '[chart.emf]'],
      ['paragraph', 'Chart'],
    ]);
    expect(doc.notes).toEqual([{ code: 'unsupported_element', detail: 'EMF chart.emf', count: 1 }]);
  });
});

describe('nested emphasis and links', () => {
  it('reads emphasis in emphasis, a link in a link and sub with sup without refusing the file', () => {
    const body = paragraph(
      run('Plain '),
      `<w:hyperlink r:id="rId1" ${NS}>`,
      field(['HYPERLINK "https://inner.example/"'], 'inner'),
      '</w:hyperlink>',
      run(' both', '<w:vertAlign w:val="superscript"/><w:i/><w:i/>'),
    );
    // The w:hyperlink's relationship.
    const files = unzipSync(
      docxOf(body.replace(`<w:hyperlink r:id="rId1" ${NS}>`, '<w:hyperlink r:id="rId1">')),
    );
    files['word/document.xml'] = strToU8(
      strFromU8(files['word/document.xml']).replace('<w:document ', `<w:document xmlns:r="${RELS}" `),
    );
    files['word/_rels/document.xml.rels'] = strToU8(
      relationships(
        `<Relationship Id="rId1" Type="${RELS}/hyperlink" Target="https://outer.example/" TargetMode="External"/>`,
      ),
    );
    const doc = importDocument(zipSync(files), 'x.docx');
    const inner = nodes(doc, 'text').find((node) => node.text === 'inner');
    expect(inner?.marks).toEqual([{ type: 'link', attrs: { href: 'https://inner.example/', title: '' } }]);
  });

  it.runIf(toolAvailable('pandoc'))('reads an ODT whose italic spans are nested', () => {
    const source = pandocFrom('Text *one* end.\n', 'odt');
    const files = unzipSync(source);
    const content = strFromU8(files['content.xml']);
    const style = /<text:span text:style-name="([^"]+)">one<\/text:span>/.exec(content)?.[1] ?? '';
    files['content.xml'] = strToU8(
      content.replace(
        `<text:span text:style-name="${style}">one</text:span>`,
        `<text:span text:style-name="${style}">o<text:span text:style-name="${style}">n</text:span>e</text:span>`,
      ),
    );
    const doc = importDocument(zipSync(files), 'x.odt');
    const body = nodes(doc, 'richtext_part').find((part) => part.attrs?.id === 'body') as Json;
    expect(
      nodes(body, 'text').map((node) => [node.text, node.marks?.map((mark) => mark.type) ?? []]),
    ).toEqual([
      ['Text ', []],
      ['one', ['em']],
      [' end.', []],
    ]);
  });
});

describe('PAGEREF fields', () => {
  it('makes a PAGEREF to a heading or caption bookmark a cross-reference', () => {
    const body =
      `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:bookmarkStart w:id="1" w:name="_Ref11"/>${run('Methods')}<w:bookmarkEnd w:id="1"/></w:p>` +
      paragraph(run('See page '), field(['PAGEREF _Ref11 \\h'], '3'), run('.'));
    const doc = importDocument(docxOf(body), 'x.docx');
    expect(nodes(doc, 'cross_reference').map((node) => node.attrs?.id)).toEqual(['_Ref11']);
    expect(nodes(doc, 'heading')[0].attrs?.id).toBe('_Ref11');
    // Word's "page {PAGEREF}" is the page form: the word "page " goes into it, "See " stays.
    expect(nodes(doc, 'cross_reference')[0].attrs?.form).toBe('page');
    const texts = nodes(doc, 'text').map((node) => node.text);
    expect(texts).toContain('See ');
    expect(texts.join('|')).not.toContain('page');
  });

  it('reads "{REF} on page {PAGEREF}" to one target as the number and page form, in German too', () => {
    const body =
      `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:bookmarkStart w:id="1" w:name="_Ref12"/>${run('Methoden')}<w:bookmarkEnd w:id="1"/></w:p>` +
      paragraph(
        run('Siehe '),
        field(['REF _Ref12 \\h'], 'Abschnitt 1'),
        run(' auf Seite '),
        field(['PAGEREF _Ref12 \\h'], '3'),
        run(' und Seite '),
        field(['PAGEREF _Ref12 \\h'], '3'),
        run('.'),
      );
    const doc = importDocument(docxOf(body), 'x.docx');
    expect(nodes(doc, 'cross_reference').map((node) => `${node.attrs?.id}:${node.attrs?.form}`)).toEqual([
      '_Ref12:number-page',
      '_Ref12:page',
    ]);
    expect(nodes(doc, 'text').map((node) => node.text)).toEqual(['x', 'Methoden', 'Siehe ', ' und ', '.']);
  });
});
