import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import { headingNumber, numberDocument } from '../editor/academic-numbering';
import { setHeadingNumbering } from '../editor/commands';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import type { HeadingNumbering } from '../editor/vocabulary';
import { type ExportFormatName, exportDocument } from './registry';

/**
 * Heading numbering (issue 53): one document setting, shown the same way by every format, with
 * cross-reference texts that follow it.
 */

const s = schema.nodes;

function heading(level: number, id: string, text: string): PMNode {
  return s.heading.create({ level, id }, schema.text(text));
}

/** Intro (1), Methods (2) with Data (2.1) and Cleaning (2.1.1) and a level-4 heading, a reference to Data. */
function paper(numbering: HeadingNumbering, language = 'en-US'): PMNode {
  const base = createDocument(schema, standardArticle, { title: 'Numbered', language });
  const doc = withBody(base, [
    heading(1, 'H-intro', 'Intro'),
    s.paragraph.create(null, [
      schema.text('See '),
      s.cross_reference.create({ id: 'H-data' }),
      schema.text('.'),
    ]),
    heading(1, 'H-methods', 'Methods'),
    heading(2, 'H-data', 'Data'),
    heading(3, 'H-clean', 'Cleaning'),
    heading(4, 'H-deep', 'Deep'),
    s.paragraph.create(null, schema.text('Text.')),
  ]);
  return doc.type.create({ ...doc.attrs, heading_numbering: numbering }, doc.content);
}

async function exported(format: ExportFormatName, doc: PMNode): Promise<Record<string, string>> {
  const { data } = await exportDocument(format, {
    content: doc.toJSON(),
    threads: [],
    images: {},
    csl: null,
  });
  if (format === 'markdown') return { 'document.md': strFromU8(data) };
  return Object.fromEntries(
    Object.entries(unzipSync(data))
      .filter(([name]) => /\.(x?html|xml|tex)$/.test(name))
      .map(([name, bytes]) => [name, strFromU8(bytes)]),
  );
}

const all = (files: Record<string, string>) => Object.values(files).join('\n');

describe('heading numbers', () => {
  it('numbers three levels: decimal, IEEE roman/alpha, none', () => {
    expect(headingNumber('decimal', [2, 1, 3])).toEqual({ number: '2.1.3', display: '2.1.3' });
    expect(headingNumber('decimal', [2, 0, 1])).toEqual({ number: '2.1.1', display: '2.1.1' });
    expect(headingNumber('decimal', [1, 1, 1, 1])).toEqual({ number: '', display: '' });
    expect(headingNumber('roman', [3])).toEqual({ number: 'III', display: 'III.' });
    expect(headingNumber('roman', [3, 1])).toEqual({ number: 'III-A', display: 'A.' });
    expect(headingNumber('roman', [14, 2, 4])).toEqual({ number: 'XIV-B4', display: '4)' });
    expect(headingNumber('none', [1])).toEqual({ number: '', display: '' });
  });

  it('gives cross-references the text of the numbering, in the document language', () => {
    const label = (numbering: HeadingNumbering, language?: string) =>
      numberDocument(paper(numbering, language)).byId.get('H-data')?.label;
    expect(label('decimal')).toBe('Section 2.1');
    expect(label('roman')).toBe('Section II-A');
    expect(label('none')).toBe('Section \u201cData\u201d');
    expect(label('decimal', 'de-DE')).toBe('Abschnitt 2.1');
    expect(label('none', 'de-DE')).toBe('Abschnitt \u201eData\u201c');
    expect(numberDocument(paper('chapter')).byId.get('H-methods')?.label).toBe('Chapter 2');
    expect(numberDocument(paper('chapter')).byId.get('H-data')?.label).toBe('Section 2.1');
    // Level 4 is never numbered; its heading is named.
    expect(numberDocument(paper('decimal')).byId.get('H-deep')?.label).toBe('Section \u201cDeep\u201d');
  });

  it('is a document setting changed by a command (unknown values refused)', () => {
    const state = EditorState.create({ doc: paper('decimal') });
    let next = state;
    expect(setHeadingNumbering('roman')(state, (tr) => (next = state.apply(tr)))).toBe(true);
    expect(next.doc.attrs.heading_numbering).toBe('roman');
    expect(setHeadingNumbering('roman')(next)).toBe(false);
    expect(setHeadingNumbering('bogus' as HeadingNumbering)(next)).toBe(false);
  });
});

describe('heading numbering in every export', () => {
  it('HTML and EPUB write the number as text before the heading, the reference as its text', async () => {
    for (const format of ['html', 'epub'] as const) {
      const text = all(await exported(format, paper('decimal')));
      expect(text, format).toMatch(/<h3 id="H-data"><span class="heading-number">2\.1<\/span> Data<\/h3>/);
      expect(text, format).toContain('<span class="heading-number">2.1.1</span> Cleaning');
      expect(text, format).toMatch(/<h5 id="H-deep">Deep<\/h5>/);
      expect(text, format).toContain('>Section 2.1</a>');
    }
    expect((await exported('epub', paper('decimal')))['EPUB/nav.xhtml']).toContain(
      '#H-methods">2 Methods</a>',
    );
    const none = all(await exported('html', paper('none')));
    expect(none).not.toContain('heading-number');
    expect(none).toContain('>Section \u201cData\u201d</a>');
  });

  it("DOCX and ODT number the headings with Word's numbering and LibreOffice's outline, text untouched", async () => {
    const docx = await exported('docx', paper('roman'));
    expect(docx['word/document.xml']).toContain(
      '<w:pStyle w:val="Heading2"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="9999"/></w:numPr>',
    );
    expect(docx['word/document.xml']).toMatch(/<w:pStyle w:val="Heading4"\/><\/w:pPr>/);
    expect(docx['word/document.xml']).toMatch(/<w:t[^>]*>Data<\/w:t>/);
    expect(docx['word/document.xml']).toContain('Section II-A');
    expect(docx['word/numbering.xml']).toContain('<w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/>');
    expect(docx['word/numbering.xml']).toContain(
      '<w:num w:numId="9999"><w:abstractNumId w:val="3"/></w:num>',
    );
    const none = await exported('docx', paper('none'));
    expect(none['word/document.xml']).not.toContain('<w:numId w:val="9999"/>');
    expect(none['word/numbering.xml']).not.toContain('w:abstractNumId="3"');

    const odt = await exported('odt', paper('decimal'));
    expect(odt['content.xml']).toMatch(
      /text:outline-level="2"><text:bookmark-start text:name="[^"]*"\/>Data/,
    );
    expect(odt['content.xml']).toContain('Section 2.1');
    expect(odt['styles.xml']).toContain(
      '<text:outline-level-style text:level="2" style:num-format="1" text:display-levels="2">',
    );
    expect(odt['styles.xml']).toContain('<text:outline-level-style text:level="4" style:num-format="">');
    expect((await exported('odt', paper('roman')))['styles.xml']).toContain(
      '<text:outline-level-style text:level="2" style:num-format="A" style:num-suffix=".">',
    );
    expect((await exported('odt', paper('none')))['styles.xml']).toContain(
      '<text:outline-level-style text:level="1" style:num-format="">',
    );
  });

  it('JATS labels its sections; Markdown writes the number in the heading', async () => {
    const jats = all(await exported('jats', paper('decimal')));
    expect(jats).toContain('<sec id="H-data"><label>2.1</label><title>Data</title>');
    expect(jats).toContain('<sec id="H-deep"><title>Deep</title>');
    expect(jats).toMatch(/<xref ref-type="sec" rid="H-data">Section 2.1<\/xref>/);
    expect(all(await exported('jats', paper('none')))).not.toContain('<label>');
    const markdown = all(await exported('markdown', paper('decimal')));
    expect(markdown).toContain('## 2.1 Data');
    expect(markdown).toContain('### 2.1.1 Cleaning');
    expect(markdown).toContain('#### Deep');
    expect(markdown).toContain('See Section 2.1.');
  });

  it('LaTeX: \\section for numbered headings, \\section* (with an anchor) for the others', async () => {
    const decimal = all(await exported('latex', paper('decimal')));
    expect(decimal).toContain('\\subsection{Data}\\label{H-data}');
    expect(decimal).toContain('\\phantomsection\\paragraph*{Deep}\\label{H-deep}');
    expect(decimal).toContain('See Section~\\ref{H-data}.');
    expect(decimal).toContain('\\setcounter{secnumdepth}{3}');
    const none = all(await exported('latex', paper('none')));
    expect(none).toContain('\\phantomsection\\subsection*{Data}\\label{H-data}');
    expect(none).toContain('See \\hyperref[H-data]{Section \u201cData\u201d}.');
    expect(none).not.toContain('secnumdepth');
    // IEEE's numbers in another class: the counters are redefined.
    expect(all(await exported('latex', paper('roman')))).toContain(
      '\\renewcommand\\thesubsection{\\thesection-\\Alph{subsection}}',
    );
  });

  it('LaTeX writes "Keywords" in the document language', async () => {
    const base = paper('decimal', 'de-DE');
    const parts: PMNode[] = [];
    base.forEach((part) => {
      parts.push(
        part.type.name === 'tags_part'
          ? part.type.create(part.attrs, s.keyword.create({ keyword: 'Daten' }))
          : part,
      );
    });
    const doc = base.type.create(base.attrs, parts);
    const tex = all(await exported('latex', doc));
    expect(tex).toContain('\\textbf{Schlüsselwörter:} Daten');
    expect(tex).not.toContain('Keywords:');
  });
});
