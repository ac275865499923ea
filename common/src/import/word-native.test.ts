import { describe, expect, it } from 'vitest';
import { importDocument } from './index';
import { docxOf, field, type JsonNode, nodesOfType, paragraph, run } from './testing/word';

/** Issue 54: what Word writes for captions and cross-references comes back as ours. */

type Json = JsonNode;

const nodes = nodesOfType;

const bookmark = (name: string, id: number, content: string) =>
  `<w:bookmarkStart w:id="${id}" w:name="${name}"/>${content}<w:bookmarkEnd w:id="${id}"/>`;
const cell = (text: string) => `<w:tc>${paragraph(run(text))}</w:tc>`;

describe('Word captions and cross-references', () => {
  const body = [
    `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${bookmark('_Ref1', 1, run('Introduction'))}</w:p>`,
    paragraph(
      run('See '),
      field(['REF _Ref1 \\h'], 'Introduction'),
      run(', '),
      `<w:hyperlink w:anchor="_Ref2">${run('Table 1')}</w:hyperlink>`,
      run(', '),
      field(['HYPERLINK "https://example.org/doc" \\l "synopsis"'], 'the synopsis'),
      run(' and '),
      field(['REF _Ref9 \\h'], 'a lost target'),
      run('.'),
    ),
    paragraph(
      bookmark('_Ref2', 2, `${run('Table ')}${field(['SEQ Table \\* ARABIC'], '1')}`),
      run(': Measured values'),
    ),
    `<w:tbl><w:tr>${cell('A')}${cell('B')}</w:tr></w:tbl>`,
  ].join('');
  const imported = importDocument(docxOf(body), 'word.docx');
  const doc = imported.content as Json;

  it('makes REF fields and links to bookmarks on headings and captions cross-references', () => {
    const heading = nodes(doc, 'heading')[0];
    const table = nodes(doc, 'table')[0];
    expect(heading.attrs?.id).toBe('_Ref1');
    expect(table.attrs?.id).toBe('_Ref2');
    expect(nodes(doc, 'cross_reference').map((node) => node.attrs?.id)).toEqual(['_Ref1', '_Ref2']);
  });

  it('gives the SEQ caption to its table, without its label and number', () => {
    expect(nodes(doc, 'table')[0].attrs?.caption).toBe('Measured values');
    const texts = nodes(doc, 'text').map((node) => node.text);
    expect(texts.join('')).not.toContain('Measured');
  });

  it('keeps the fragment of a HYPERLINK \\l field and the text of a reference to a lost bookmark', () => {
    const linked = nodes(doc, 'text').find((node) => node.text === 'the synopsis');
    expect(linked?.marks?.[0]?.attrs?.href).toBe('https://example.org/doc#synopsis');
    expect(nodes(doc, 'text').some((node) => node.text?.includes('a lost target'))).toBe(true);
  });
});
