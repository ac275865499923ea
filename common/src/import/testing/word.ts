import { strToU8, unzipSync, zipSync } from 'fflate';

/**
 * DOCX written in the test itself, the way Word and the reference managers' add-ins write theirs
 * (our own payloads of their shapes), for markup no converter at hand produces.
 */

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A DOCX whose body is `body` (w:p, w:tbl...); `numbering`: the w:abstractNum and w:num of word/numbering.xml. */
export function docxOf(body: string, numbering = ''): Uint8Array {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body}<w:sectPr/></w:body></w:document>`,
    ),
  };
  if (numbering) {
    files['word/numbering.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering xmlns:w="${W}">${numbering}</w:numbering>`,
    );
    // Word's list paragraphs are in its style "List Paragraph".
    files['word/styles.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/></w:pPr></w:style></w:styles>`,
    );
    files['word/_rels/document.xml.rels'] = strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
    );
  }
  return zipSync(files);
}

export const xmlText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const base64 = (text: string | Uint8Array) =>
  btoa(String.fromCharCode(...(typeof text === 'string' ? new TextEncoder().encode(text) : text)));

/** A run of text; `props`: its w:rPr content. */
export const run = (text: string, props = '') =>
  `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${xmlText(text)}</w:t></w:r>`;

export const paragraph = (...content: string[]) => `<w:p>${content.join('')}</w:p>`;

/** Cuts a string into pieces of `size` characters (Word splits long field instructions over runs). */
export const pieces = (text: string, size: number) =>
  text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];

/** A complex field: its instruction in pieces, its rendered text; `data`: the begin's w:fldData. */
export function field(instruction: string[], rendered: string, data = ''): string {
  const begin = data
    ? `<w:r><w:fldChar w:fldCharType="begin"><w:fldData xml:space="preserve">${data}</w:fldData></w:fldChar></w:r>`
    : '<w:r><w:fldChar w:fldCharType="begin"/></w:r>';
  return (
    begin +
    instruction
      .map((piece) => `<w:r><w:instrText xml:space="preserve">${xmlText(piece)}</w:instrText></w:r>`)
      .join('') +
    `<w:r><w:fldChar w:fldCharType="separate"/></w:r>${run(rendered)}<w:r><w:fldChar w:fldCharType="end"/></w:r>`
  );
}

/** A content control around `content`, tagged `tag`. */
export const contentControl = (tag: string, content: string) =>
  `<w:sdt><w:sdtPr><w:tag w:val="${xmlText(tag)}"/></w:sdtPr><w:sdtContent>${content}</w:sdtContent></w:sdt>`;

/**
 * A paper citing one work through each of Mendeley Cite, EndNote (its XML in base64 field data)
 * and Citavi: Ng 2021, Park 2010 and Muster 2017.
 */
export function referenceManagersDocx(): Uint8Array {
  const mendeley = {
    citationID: 'MENDELEY_CITATION_00000000-0000-4000-8000-000000000001',
    properties: { noteIndex: 0 },
    isEdited: false,
    manualOverride: { isManuallyOverridden: false, citeprocText: '(Ng, 2021)', manualOverrideText: '' },
    citationItems: [
      {
        id: '00000000-0000-4000-8000-0000000000a1',
        itemData: {
          type: 'article-journal',
          id: '00000000-0000-4000-8000-0000000000a1',
          title: 'Small Matters',
          author: [{ family: 'Ng', given: 'Ann' }],
          issued: { 'date-parts': [[2021]] },
        },
        isTemporary: false,
      },
    ],
  };
  const endnote =
    '<EndNote><Cite><Author>Park</Author><Year>2010</Year><RecNum>7</RecNum><record><rec-number>7</rec-number>' +
    '<ref-type name="Journal Article">17</ref-type><contributors><authors><author>Park, Jin</author></authors>' +
    '</contributors><titles><title>Fast Things</title></titles><dates><year>2010</year></dates></record></Cite></EndNote>';
  const citavi = {
    $id: '1',
    $type: 'SwissAcademic.Citavi.Citations.WordPlaceholder, SwissAcademic.Citavi',
    Entries: [
      {
        $id: '2',
        Id: '00000000-0000-4000-8000-0000000000e1',
        ReferenceId: '00000000-0000-4000-8000-0000000000r1',
        Reference: {
          $id: '3',
          Id: '00000000-0000-4000-8000-0000000000r1',
          ReferenceType: 'Book',
          Authors: [{ $id: '4', FirstName: 'Eva', LastName: 'Muster' }],
          Title: 'Ein Buch',
          Year: '2017',
        },
      },
    ],
  };
  const endnoteField =
    `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE </w:instrText></w:r>` +
    `<w:r><w:fldChar w:fldCharType="begin"><w:fldData xml:space="preserve">${base64(endnote)}</w:fldData></w:fldChar></w:r>` +
    '<w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE.DATA </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>' +
    `<w:r><w:fldChar w:fldCharType="separate"/></w:r>${run('(Park 2010)')}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
  return docxOf(
    paragraph(
      run('Three sources '),
      contentControl(`MENDELEY_CITATION_v3_${base64(JSON.stringify(mendeley))}`, run('(Ng, 2021)')),
      run(', '),
      endnoteField,
      run(' and '),
      contentControl(
        'CitaviPlaceholder#00000000-0000-4000-8000-0000000000c1',
        field(pieces(`ADDIN CitaviPlaceholder{${base64(JSON.stringify(citavi))}}`, 100), '(Muster 2017)'),
      ),
      run('.'),
    ),
  );
}

/**
 * One Zotero citation field that cites `works` different works of one author in one year (the
 * denial-of-service file of issue 50: every work's entry key is Doe2020 before the library makes
 * it unique). Work n is titled "Study n".
 */
export function oneAuthorCitationsDocx(works: number): Uint8Array {
  const citationItems = Array.from({ length: works }, (_, index) => ({
    id: index + 1,
    uris: [`http://zotero.org/users/1/items/W${index + 1}`],
    itemData: {
      id: index + 1,
      type: 'article-journal',
      title: `Study ${index + 1}`,
      author: [{ family: 'Doe', given: 'Jane' }],
      issued: { 'date-parts': [[2020]] },
    },
  }));
  const json = JSON.stringify({ citationID: 'many', citationItems });
  return docxOf(
    paragraph(
      run('Everything '),
      field(pieces(` ADDIN ZOTERO_ITEM CSL_CITATION ${json}`, 250), '(Doe, 2020a, 2020b, ...)'),
      run('.'),
    ),
  );
}

const DRAWING_NS =
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:v="urn:schemas-microsoft-com:vml"';

/** A run with a text box as Word writes it: a DrawingML shape, and the same box in VML as the fallback. */
export const textBox = (content: string) =>
  '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:docPr id="1" name="Text Box 1"/>' +
  '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx>' +
  `<w:txbxContent>${content}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>` +
  `<mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>${content}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>`;

/** A DOCX whose body may hold shapes and pictures; `parts`: further files (relationships, media). */
export function drawingDocxOf(body: string, parts: Record<string, Uint8Array> = {}): Uint8Array {
  const files = unzipSync(docxOf(''));
  files['word/document.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" ${DRAWING_NS}><w:body>${body}<w:sectPr/></w:body></w:document>`,
  );
  return zipSync({ ...files, ...parts });
}

/** The first 88 bytes of an EMF file (a header record: type 1, " EMF" at byte 40). */
export function emfHeader(): Uint8Array<ArrayBuffer> {
  const emf = new Uint8Array(88);
  emf.set([1, 0, 0, 0, 88], 0);
  emf.set([0x20, 0x45, 0x4d, 0x46], 40);
  return emf;
}

/** A logo in EMF inside a text box (issue 54: such a file could be imported but never exported). */
export function emfTextBoxDocx(): Uint8Array {
  const picture =
    '<w:r><w:drawing><wp:inline><wp:docPr id="2" name="Picture 2"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">' +
    '<pic:pic><pic:blipFill><a:blip r:embed="rId9"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>';
  return drawingDocxOf(paragraph(run('Logo:'), textBox(paragraph(picture))), {
    'word/_rels/document.xml.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.emf"/></Relationships>',
    ),
    'word/media/image1.emf': emfHeader(),
  });
}

/** An imported document's node as JSON, for tests that look into the result. */
export type JsonNode = {
  type: string;
  attrs?: Record<string, unknown>;
  content?: JsonNode[];
  text?: string;
  marks?: JsonNode[];
};

/** Every node of `type` under `root`, in document order. */
export function nodesOfType(root: JsonNode, type: string): JsonNode[] {
  const out: JsonNode[] = [];
  const walk = (node: JsonNode) => {
    if (node.type === type) out.push(node);
    for (const inner of node.content ?? []) walk(inner);
  };
  walk(root);
  return out;
}
