import { strToU8, zipSync } from 'fflate';
import { pandocFrom } from '../../testing/office-tools';

/**
 * Office files made by real tools at test time (pandoc, LibreOffice), so that the import is tested
 * on markup we did not write. The Markdown holds what a paper holds: headings, lists, a table,
 * footnotes, inline and display math, a Zotero citation field, a comment and tracked changes.
 */

const ZOTERO_CITATION = JSON.stringify({
  citationID: 'a1',
  citationItems: [
    {
      id: 7,
      uris: ['http://zotero.org/users/1/items/ABCD'],
      itemData: {
        id: 7,
        type: 'article-journal',
        title: 'Deep Things',
        'container-title': 'Journal of Tests',
        author: [{ family: 'Doe', given: 'Jane' }],
        issued: { 'date-parts': [[2020]] },
      },
      locator: '12',
      label: 'page',
    },
  ],
})
  .replace(/&/g, '&amp;')
  .replace(/</g, '&lt;');

/** A Zotero field as Word stores it: begin, instruction, separate, the rendered text, end. */
export const zoteroField = (rendered: string) =>
  '`<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ADDIN ZOTERO_ITEM CSL_CITATION ' +
  `${ZOTERO_CITATION} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${rendered}</w:t></w:r>` +
  '<w:r><w:fldChar w:fldCharType="end"/></w:r>`{=openxml}';

export const PAPER_MARKDOWN = `---
title: A Paper on Things
---

# Introduction

Some *emphasis* and **strong** text with inline math $a^2 + b^2 = c^2$ and a footnote.[^1]

$$\\frac{\\alpha}{\\sqrt{x+1}} = \\sum_{i=1}^{n} x_i$$

## Lists

- one
- two
  - two a
- three

1. first
2. second

| Name | Value |
|------|-------|
| alpha | 1 |
| beta | 2 |

[^1]: The footnote text.
`;

export const REVIEW_MARKDOWN = `# Results

As shown ${zoteroField('(Doe 2020, 12)')} the energy is $E = mc^2$ and again ${zoteroField('(Doe 2020)')}.

[Please look again.]{.comment-start id="0" author="Ann Reviewer" date="2024-01-02T10:00:00Z"}Checked text[]{.comment-end id="0"} and [added words]{.insertion author="Bob" date="2024-01-03T10:00:00Z"} and [removed words]{.deletion author="Bob" date="2024-01-03T10:00:00Z"}.
`;

export const paperDocx = () => pandocFrom(PAPER_MARKDOWN, 'docx');
export const paperOdt = () => pandocFrom(PAPER_MARKDOWN, 'odt');
export const reviewDocx = () => pandocFrom(REVIEW_MARKDOWN, 'docx');

/** A zip whose one entry inflates 2,000 times: what a zip bomb looks like from the outside. */
export function zipBomb(): Uint8Array {
  return zipSync({ 'word/document.xml': [new Uint8Array(4 * 1024 * 1024), { level: 9 }] });
}

/** The start of what Word writes for a password-protected .docx: an OLE compound file. */
export function encryptedDocx(): Uint8Array {
  const bytes = new Uint8Array(4096);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  bytes.set(strToU8('EncryptionInfo'), 1024);
  return bytes;
}
