import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { importDocument } from '../import/index';
import { sofficeConvert, toolAvailable } from '../testing/office-tools';
import { pageReferencePaper } from '../testing/page-reference-paper';
import { exportDocx } from './docx';
import { htmlPage } from './html';
import { exportJats } from './jats';
import { exportLatex } from './latex';
import { exportMarkdown } from './markdown';
import { prepareDocument } from './model';
import { exportOdt } from './odt';

/**
 * Cross-references in their page forms (issues 53 and 54): "page 4" and "Figure 2 on page 4" in
 * every format, and back from DOCX (PAGEREF) and ODT (bookmark-ref of format "page").
 */

const paper = pageReferencePaper();
const prepared = () => prepareDocument(paper.input);
const file = (zip: Uint8Array, name: string) => strFromU8(unzipSync(zip)[name]);

type Json = { type: string; attrs?: Record<string, unknown>; content?: Json[]; text?: string };
function references(node: Json, out: string[] = []): string[] {
  if (node.type === 'cross_reference') out.push(`${node.attrs?.id}:${node.attrs?.form}`);
  for (const inner of node.content ?? []) references(inner, out);
  return out;
}
function text(node: Json): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'cross_reference') return '{ref}';
  return (node.content ?? []).map(text).join('');
}

const FORMS = ['Fmark:page', 'Tmark:number-page', 'Hlater:number-page', 'Hintro:page', 'Fmark:number'];

describe('cross-references with page numbers', () => {
  it('HTML: the number form with a link; the page forms marked for the typeset PDF', () => {
    const html = htmlPage(prepared(), { imageUrl: () => '', trackChanges: 'accepted', epub: false }, '');
    expect(html).toContain(
      '<p>See <a class="cross-reference" data-form="page" href="#Fmark"><span class="cross-reference-number">Figure 1</span></a>, ' +
        '<a class="cross-reference" data-form="number-page" href="#Tmark"><span class="cross-reference-number">Table 1</span></a>, ' +
        '<a class="cross-reference" data-form="number-page" href="#Hlater"><span class="cross-reference-number">Section 2</span></a> and ' +
        '<a class="cross-reference" data-form="page" href="#Hintro"><span class="cross-reference-number">Section 1</span></a>. ' +
        'Plainly <a class="cross-reference" href="#Fmark">Figure 1</a>.</p>',
    );
  });

  it('DOCX: the words, then a PAGEREF field to the bookmark (dirty: computed on opening)', () => {
    const xml = file(exportDocx(prepared()), 'word/document.xml');
    const pageRef = (name: string) =>
      `<w:r><w:fldChar w:fldCharType="begin" w:dirty="true"/></w:r><w:r><w:instrText xml:space="preserve"> PAGEREF ${name} \\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t xml:space="preserve">#</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    const run = (value: string) => `<w:r><w:t xml:space="preserve">${value}</w:t></w:r>`;
    const ref = (name: string, value: string) =>
      `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> REF ${name} \\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${run(value)}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    expect(xml).toContain(
      `${run('See ')}${run('page ')}${pageRef('ref_Fmark')}${run(', ')}${ref('ref_Tmark', 'Table 1')}${run(' on page ')}${pageRef('ref_Tmark')}${run(', ')}<w:hyperlink w:anchor="ref_Hlater">${run('Section 2')}</w:hyperlink>${run(' on page ')}${pageRef('ref_Hlater')}${run(' and ')}${run('page ')}${pageRef('ref_Hintro')}`,
    );
    // Each target holds its bookmark.
    for (const name of ['ref_Fmark', 'ref_Tmark', 'ref_Hlater', 'ref_Hintro'])
      expect(xml).toMatch(new RegExp(`<w:bookmarkStart w:id="\\d+" w:name="${name}"/>`));
  });

  it('ODT: the words, then a bookmark reference of format "page"', () => {
    const xml = file(exportOdt(prepared()), 'content.xml');
    const pageRef = (name: string) =>
      `<text:bookmark-ref text:reference-format="page" text:ref-name="${name}">#</text:bookmark-ref>`;
    expect(xml).toContain(
      `See page ${pageRef('ref_Fmark')}, <text:bookmark-ref text:reference-format="text" text:ref-name="ref_Tmark">Table 1</text:bookmark-ref><text:s text:c="1"/>on page ${pageRef('ref_Tmark')}, <text:a xlink:type="simple" xlink:href="#ref_Hlater">Section 2</text:a><text:s text:c="1"/>on page ${pageRef('ref_Hlater')}<text:s text:c="1"/>and page ${pageRef('ref_Hintro')}`,
    );
  });

  it('LaTeX: \\pageref with the label, tied to its words', () => {
    const tex = file(exportLatex(prepared()), 'document.tex');
    expect(tex).toContain(
      'See page~\\pageref{Fmark}, Table~\\ref{Tmark} on page~\\pageref{Tmark}, Section~\\ref{Hlater} on page~\\pageref{Hlater} and page~\\pageref{Hintro}. Plainly Figure~\\ref{Fmark}.',
    );
  });

  it('JATS and Markdown have no pages: the number form', () => {
    const jats = file(exportJats(prepared()), 'article.xml');
    expect(jats).toContain(
      'See <xref ref-type="fig" rid="Fmark">Figure 1</xref>, <xref ref-type="table" rid="Tmark">Table 1</xref>, <xref ref-type="sec" rid="Hlater">Section 2</xref> and <xref ref-type="sec" rid="Hintro">Section 1</xref>.',
    );
    const markdown = strFromU8(exportMarkdown(prepared()));
    expect(markdown).toContain('See Figure 1, Table 1, Section 2 and Section 1. Plainly Figure 1.');
  });

  it.each([
    ['docx', exportDocx],
    ['odt', exportOdt],
  ] as const)(
    '%s round trip: each cross-reference comes back in its form, no word added',
    (format, write) => {
      const back = importDocument(write(prepared()), `paper.${format}`).content as Json;
      expect(references(back)).toEqual(FORMS);
      const first = (back.content ?? [])
        .flatMap((part) => part.content ?? [])
        .find((block) => block.type === 'paragraph' && text(block).startsWith('See'));
      expect(first && text(first)).toBe('See {ref}, {ref}, {ref} and {ref}. Plainly {ref}.');
    },
  );
});

/** The text of each page of a PDF (pdftotext), whitespace folded. */
function pdfPages(pdf: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-pages-'));
  try {
    const path = join(dir, 'in.pdf');
    writeFileSync(path, pdf);
    return execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' })
      .split('\f')
      .map((page) => page.replace(/\s+/g, ' ').trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page (from 1) whose text contains `needle`. */
function pageOf(pages: string[], needle: string): number {
  const index = pages.findIndex((page) => page.includes(needle));
  expect(index, needle).toBeGreaterThanOrEqual(0);
  return index + 1;
}

describe.runIf(toolAvailable('soffice'))('LibreOffice computes the page fields', () => {
  it.each([
    ['docx', exportDocx],
    ['odt', exportOdt],
  ] as const)(
    '%s converted to PDF names the pages the targets are on',
    (format, write) => {
      const pages = pdfPages(sofficeConvert(write(prepared()), format, 'pdf'));
      const figure = pageOf(pages, 'Figure 1: Marker figure');
      const table = pageOf(pages, 'Table 1: Marker table');
      const heading = pageOf(pages, 'Later results');
      expect(new Set([figure, table, heading]).size).toBeGreaterThan(1);
      expect(pages[0]).toContain(
        `See page ${figure}, Table 1 on page ${table}, Section 2 on page ${heading} and page 1. Plainly Figure 1.`,
      );
    },
    240_000,
  );
});
