import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { checkDocument } from '../editor/templates';
import { contentsDefinition, documentWithSections } from '../plugins/template-testing';
import { exportDocx } from './docx';
import { exportEpub } from './epub';
import { exportHtml } from './html';
import { exportLatex } from './latex';
import { prepareDocument } from './model';
import { exportOdt } from './odt';

/** Issue 21: table-of-contents and separator parts in documents and in every export. */

/** A document of the template with a title and two headings in its body. */
const documentWithHeadings = () =>
  documentWithSections(contentsDefinition([1], ['en-US']), 'Collected', [
    [1, 'H1', 'Method', 'Text.'],
    [2, 'H2', 'Sample', 'More.'],
  ]);

const input = () => ({ content: documentWithHeadings().toJSON(), threads: [], images: {}, csl: null });

describe('table of contents and separator parts', () => {
  it('are template part kinds a new document has in their place, leaves that pass the template rules', () => {
    const doc = documentWithHeadings();
    const kinds: string[] = [];
    doc.forEach((node) => {
      kinds.push(node.type.name);
    });
    expect(kinds).toEqual(['title', 'contributors_part', 'toc_part', 'separator_part', 'richtext_part']);
    expect(doc.child(2).attrs).toMatchObject({ id: 'contents', title: 'Contents' });
    expect(checkDocument(doc)).toEqual([]);
    expect(schema.nodeFromJSON(doc.toJSON()).eq(doc)).toBe(true);
  });

  it('HTML: a nav of the headings with links, and a thematic break', async () => {
    const files = unzipSync(await exportHtml(prepareDocument(input())));
    const html = strFromU8(files[Object.keys(files).find((name) => name.endsWith('.html')) as string]);
    expect(html).toContain(
      '<nav class="toc" id="contents"><h2>Contents</h2><ol><li class="toc-level-1"><a href="#H1">Method</a></li><li class="toc-level-2"><a href="#H2">Sample</a></li></ol></nav>',
    );
    expect(html.indexOf('<nav class="toc"')).toBeLessThan(html.indexOf('<hr/>'));
    expect(html.indexOf('<hr/>')).toBeLessThan(html.indexOf('Method</h'));
  });

  it('EPUB: the same nav in the text', async () => {
    const files = unzipSync(await exportEpub(prepareDocument(input())));
    const text = strFromU8(files[Object.keys(files).find((name) => name.endsWith('text.xhtml')) as string]);
    expect(text).toContain('<a href="#H2">Sample</a>');
    expect(text).toContain('<hr/>');
  });

  it('DOCX: a TOC field filled with linked entries in TOC styles, and a bordered paragraph', () => {
    const files = unzipSync(exportDocx(prepareDocument(input())));
    const document = strFromU8(files['word/document.xml']);
    expect(document).toContain('<w:instrText xml:space="preserve"> TOC \\o "1-3" \\h \\z \\u </w:instrText>');
    expect(document).toContain(
      '<w:p><w:pPr><w:pStyle w:val="TOC2"/></w:pPr><w:hyperlink w:anchor="ref_H2"><w:r><w:t xml:space="preserve">Sample</w:t></w:r></w:hyperlink></w:p>',
    );
    expect(document).toContain('<w:pBdr><w:bottom w:val="single"');
    const styles = strFromU8(files['word/styles.xml']);
    for (const id of ['TOCHeading', 'TOC1', 'TOC2', 'TOC3']) expect(styles).toContain(`w:styleId="${id}"`);
  });

  it('ODT: a table of contents with the entries, and a horizontal line', () => {
    const files = unzipSync(exportOdt(prepareDocument(input())));
    const content = strFromU8(files['content.xml']);
    expect(content).toContain('<text:table-of-content-source text:outline-level="3">');
    expect(content).toContain('<text:p text:style-name="Contents_20_1">Method</text:p>');
    expect(content).toContain('<text:p text:style-name="Contents_20_2">Sample</text:p>');
    expect(content).toContain('<text:p text:style-name="Horizontal_20_Line"/>');
    expect(strFromU8(files['styles.xml'])).toContain('style:name="Contents_20_Heading"');
  });

  it('LaTeX: \\tableofcontents and a rule', async () => {
    const files = unzipSync(await exportLatex(prepareDocument(input())));
    const tex = strFromU8(files[Object.keys(files).find((name) => name.endsWith('.tex')) as string]);
    expect(tex).toContain('\\tableofcontents\n');
    expect(tex.indexOf('\\tableofcontents')).toBeLessThan(
      tex.indexOf('\\noindent\\rule{\\linewidth}{0.4pt}'),
    );
    expect(tex.indexOf('\\noindent\\rule')).toBeLessThan(tex.indexOf('\\section'));
  });

  it('hidden parts stay out of the exports', () => {
    const doc = documentWithHeadings();
    const parts: PMNode[] = [];
    doc.forEach((part) => {
      parts.push(part.type.name === 'toc_part' ? part.type.create({ ...part.attrs, hidden: true }) : part);
    });
    const hidden = doc.type.create(doc.attrs, parts);
    const files = unzipSync(exportDocx(prepareDocument({ ...input(), content: hidden.toJSON() })));
    expect(strFromU8(files['word/document.xml'])).not.toContain(' TOC ');
  });
});
