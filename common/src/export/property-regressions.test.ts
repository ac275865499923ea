import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { importDocument } from '../import/index';
import { bundledCsl } from '../testing/bundled-csl';
import { buildDocument, RANDOM_IMAGES, randomInput } from './random-document';
import { type ExportFormatName, exportDocument } from './registry';

/**
 * The smallest documents with which export-properties.test.ts found a writer's bug (issue 53,
 * item 7), one test each, so that each fix stays.
 */

const s = schema.nodes;

function article(body: PMNode[]): PMNode {
  return withBody(createDocument(schema, standardArticle, { title: 'Found', language: 'en-US' }), body);
}

async function exported(format: ExportFormatName, doc: PMNode, file = ''): Promise<string> {
  const { data } = await exportDocument(format, {
    content: doc.toJSON(),
    threads: [],
    images: {},
    csl: null,
  });
  return strFromU8(file ? unzipSync(data)[file] : data);
}

describe('exports of the documents the property test found', () => {
  it('JATS keeps a display equation caption (a fig of the equation kind around the disp-formula)', async () => {
    const doc = article([
      s.figure.create({ id: 'E1', category: 'equation', equation: 'E = mc^2', caption: 'Energy' }),
    ]);
    const xml = await exported('jats', doc, 'article.xml');
    expect(xml).toMatch(
      /<p><fig fig-type="equation"><caption><p>Energy<\/p><\/caption><disp-formula id="E1"><label>\(1\)<\/label><alternatives><mml:math display="block">/,
    );
  });

  it('Markdown keeps a display equation caption (a paragraph after the display math)', async () => {
    const doc = article([
      s.figure.create({ id: 'E1', category: 'equation', equation: 'E = mc^2', caption: 'Energy & mass' }),
    ]);
    expect(await exported('markdown', doc)).toContain('$$E = mc^2$$\n\nEnergy & mass\n');
  });

  it('LaTeX keeps a display equation caption (centred after the equation environment)', async () => {
    const doc = article([
      s.figure.create({ id: 'E1', category: 'equation', equation: 'E = mc^2', caption: 'Energy & mass' }),
    ]);
    expect(await exported('latex', doc, 'document.tex')).toMatch(
      /\\begin\{equation\}\\label\{E1\}\nE = mc\^2\n\\end\{equation\}\n\n\\begin\{center\}Energy \\& mass\\end\{center\}/,
    );
  });

  it('JATS keeps the blocks of a table cell that are no paragraph (a nested table, a quote, code, a list)', async () => {
    const p = (text: string) => s.paragraph.create(null, schema.text(text));
    const cell = (...blocks: PMNode[]) => s.table_cell.create(null, blocks);
    const inner = s.table.create({ id: 'T2', caption: 'Inner' }, [
      s.table_row.create(null, [cell(p('deep'))]),
    ]);
    const doc = article([
      s.table.create({ id: 'T1', caption: 'Outer' }, [
        s.table_row.create(null, [
          cell(p('one'), inner),
          cell(s.blockquote.create(null, p('quoted'))),
          cell(
            s.code_block.create(null, schema.text('x < 1')),
            s.bullet_list.create(null, s.list_item.create(null, p('item'))),
          ),
        ]),
      ]),
    ]);
    const xml = await exported('jats', doc, 'article.xml');
    expect(xml).toContain(
      '<tr><td><p>one</p><p><table-wrap id="T2"><caption><p>Inner</p></caption><table><tbody><tr><td>deep</td></tr></tbody></table></table-wrap></p></td><td><p><disp-quote><p>quoted</p></disp-quote></p></td><td><p><preformat>x &lt; 1</preformat></p><list list-type="bullet"><list-item><p>item</p></list-item></list></td></tr>',
    );
  });

  it('Markdown marks a cross-reference to a target that is gone with "??", not its bare id', async () => {
    const doc = article([
      s.paragraph.create(null, [
        schema.text('See '),
        s.cross_reference.create({ id: 'gone' }),
        schema.text('.'),
      ]),
    ]);
    expect(await exported('markdown', doc)).toContain('See ??.');
  });

  it("Markdown keeps the abstract's footnotes (numbered before the body's, their texts after it)", async () => {
    const note = (text: string) => s.footnote.create(null, s.paragraph.create(null, schema.text(text)));
    const base = createDocument(schema, standardArticle, { title: 'Found', language: 'en-US' });
    const parts: PMNode[] = [];
    base.forEach((part) => {
      if (part.attrs.id === 'abstract')
        parts.push(
          part.type.create(
            part.attrs,
            s.paragraph.create(null, [schema.text('Short'), note('In the abstract.')]),
          ),
        );
      else if (part.attrs.id === 'body')
        parts.push(
          part.type.create(part.attrs, s.paragraph.create(null, [schema.text('Long'), note('In the body.')])),
        );
      else parts.push(part);
    });
    const markdown = await exported('markdown', base.type.create(base.attrs, parts));
    expect(markdown).toContain('abstract: |\n  Short[^1]\n');
    expect(markdown).toContain('\n\nLong[^2]\n\n[^1]: In the abstract.\n\n[^2]: In the body.\n');
  });

  it('Markdown ends a textual citation key that text follows at once with braces (pandoc would read the text as key)', async () => {
    const entry = {
      entry_key: 'lovelace',
      bib_type: 'book',
      fields: { title: [{ type: 'text', text: 'T' }] },
      cats: [],
    };
    const cite = s.citation.create({
      format: 'textcite',
      references: [{ id: '1-0', prefix: '', locator: '' }],
    });
    const base = article([
      s.paragraph.create(null, [cite, schema.text('s work and '), cite, schema.text(' more')]),
    ]);
    const parts: PMNode[] = [];
    base.forEach((part) => {
      parts.push(part);
    });
    parts.push(s.bibliography_part.create(null, s.bib_entry.create({ id: '1-0', data: entry })));
    const markdown = await exported('markdown', base.type.create(base.attrs, parts));
    expect(markdown).toContain('\n\n@{lovelace}s work and @lovelace more\n');
  });

  it('LaTeX for APA 7 keeps the subtitle (after the title and a colon)', async () => {
    const base = createDocument(schema, standardArticle, { title: 'Main & more', language: 'en-US' });
    const parts: PMNode[] = [];
    base.forEach((part) => {
      parts.push(
        part.attrs.id === 'subtitle'
          ? part.type.create({ ...part.attrs, hidden: false }, schema.text('A 50% study'))
          : part,
      );
    });
    for (const latex_class of ['apa7-student', 'apa7-professional']) {
      const doc = base.type.create({ ...base.attrs, latex_class }, parts);
      expect(await exported('latex', doc, 'document.tex')).toContain(
        '\\title{Main \\& more: A 50\\% study}\n',
      );
    }
  });

  it('JATS is valid where the DTD says: line breaks only in titles and cells, list items of p and lists, every xref to an id', async () => {
    const p = (...content: PMNode[]) => s.paragraph.create(null, content);
    const doc = article([
      s.heading.create({ level: 1, id: 'h1' }, [
        schema.text('Top'),
        s.hard_break.create(),
        schema.text('line'),
      ]),
      p(schema.text('One'), s.hard_break.create(), schema.text('two')),
      s.bullet_list.create(null, [
        s.list_item.create(null, [p(schema.text('item')), s.code_block.create(null, schema.text('x'))]),
        s.list_item.create(null, [p(), s.heading.create({ level: 2, id: 'h2' }, schema.text('Inner'))]),
      ]),
      s.table.create(null, [
        s.table_row.create(
          null,
          s.table_cell.create(null, p(schema.text('a'), s.hard_break.create(), schema.text('b'))),
        ),
      ]),
      p(
        s.cross_reference.create({ id: 'h2' }),
        schema.text(' and '),
        schema.text('gone', [schema.marks.link.create({ href: '#nothing' })]),
        schema.text(' and '),
        schema.text('top', [schema.marks.link.create({ href: '#h1' })]),
      ),
    ]);
    const xml = await exported('jats', doc, 'article.xml');
    expect(xml).toContain('<sec id="h1"><label>1</label><title>Top<break/>line</title><p>One\ntwo</p>');
    expect(xml).toContain(
      '<list list-type="bullet"><list-item><p>item</p><p><preformat>x</preformat></p></list-item><list-item><p></p><p id="h2"><bold>Inner</bold></p></list-item></list>',
    );
    expect(xml).toContain('<td>a<break/>b</td>');
    expect(xml).toContain(
      '<p><xref ref-type="sec" rid="h2">Section 1.1</xref> and gone and <xref rid="h1">top</xref></p>',
    );
  });

  it('EPUB: an empty abstract writes no empty dc:description; HTML and EPUB link no cross-reference into nothing', async () => {
    const doc = article([
      s.paragraph.create(null, [schema.text('See '), s.cross_reference.create({ id: 'gone' })]),
    ]);
    expect(await exported('epub', doc, 'EPUB/content.opf')).not.toContain('dc:description');
    expect(await exported('html', doc, 'index.html')).toContain(
      '<p>See <span class="cross-reference">??</span></p>',
    );
  });

  it('LaTeX: IEEEtran has no \\subparagraph (level 6 is its \\paragraph); a line break opening a paragraph has a line to end', async () => {
    const base = article([
      s.heading.create({ level: 6 }, schema.text('Deep')),
      s.paragraph.create(null, [s.hard_break.create(), schema.text('after')]),
    ]);
    const doc = base.type.create({ ...base.attrs, latex_class: 'ieee-conference' }, base.content);
    const tex = await exported('latex', doc, 'document.tex');
    expect(tex).toMatch(/\\paragraph\*?\{Deep\}/);
    expect(tex).not.toContain('subparagraph');
    expect(tex).toContain('\\leavevmode\\newline{}after');
  });

  it('EPUB: an author without a name is no empty dc:creator', async () => {
    const base = createDocument(schema, standardArticle, { title: 'Found', language: 'en-US' });
    const parts: PMNode[] = [];
    base.forEach((part) => {
      if (part.attrs.id === 'authors')
        parts.push(part.type.create(part.attrs, s.contributor.create({ email: 'a@b.org' })));
      else if (part.attrs.id === 'body')
        parts.push(
          part.type.create(
            part.attrs,
            s.paragraph.create(
              null,
              schema.text('link', [schema.marks.link.create({ href: 'https://example.org/a?c=<2> d' })]),
            ),
          ),
        );
      else parts.push(part);
    });
    const doc = base.type.create(base.attrs, parts);
    expect(await exported('epub', doc, 'EPUB/content.opf')).not.toContain('<dc:creator>');
  });

  it('EPUB and HTML write a link target as a valid URI (epubcheck: "<" and ">" in a query)', async () => {
    const href = 'https://example.org/a?b=1&c=<2>';
    const doc = article([
      s.paragraph.create(null, schema.text('link', [schema.marks.link.create({ href })])),
    ]);
    expect(await exported('html', doc, 'index.html')).toContain(
      '<a href="https://example.org/a?b=1&amp;c=%3C2%3E">link</a>',
    );
  });

  it('LaTeX for APA 7: an author with no name but an institution is that institution (a group author)', async () => {
    const base = createDocument(schema, standardArticle, { title: 'Found', language: 'en-US' });
    const parts: PMNode[] = [];
    base.forEach((part) => {
      parts.push(
        part.attrs.id === 'authors'
          ? part.type.create(part.attrs, s.contributor.create({ email: 'a@b.org', institution: 'Lab' }))
          : part,
      );
    });
    const doc = base.type.create({ ...base.attrs, latex_class: 'apa7-student' }, parts);
    const tex = await exported('latex', doc, 'document.tex');
    expect(tex).toContain('\\shorttitle{Found}\n\\authorsnames{Lab}\n\\authorsaffiliations{{Lab}}\n');
  });

  it('LaTeX for APA 7 with no author at all writes no author lines (an empty one ends no line)', async () => {
    const base = createDocument(schema, standardArticle, { title: 'Found', language: 'en-US' });
    const parts: PMNode[] = [];
    base.forEach((part) => {
      parts.push(
        part.attrs.id === 'authors'
          ? part.type.create(part.attrs, s.contributor.create({ email: 'a@b.org' }))
          : part,
      );
    });
    const doc = base.type.create({ ...base.attrs, latex_class: 'apa7-professional' }, parts);
    const tex = await exported('latex', doc, 'document.tex');
    expect(tex).not.toContain('\\authorsnames');
    expect(tex).not.toContain('\\authorsaffiliations');
    expect(tex).toContain('\\shorttitle{Found}\n\\abstract{}\n');
  });

  it('Markdown: a nested table escapes its pipes once (a doubled backslash made the pipe a cell end, and the notes after it were lost)', async () => {
    const p = (...content: PMNode[]) => s.paragraph.create(null, content);
    const inner = s.table.create({ id: 'T2', caption: '' }, [
      s.table_row.create(null, [s.table_cell.create(null, p(schema.text('a | b')))]),
    ]);
    const doc = article([
      s.table.create({ id: 'T1', caption: '' }, [
        s.table_row.create(null, [
          s.table_cell.create(null, [
            inner,
            p(schema.text('c'), s.footnote.create(null, p(schema.text('note')))),
          ]),
        ]),
      ]),
    ]);
    // pandoc reads one cell and its note; with `a \\| b` it read two and lost the note.
    expect(await exported('markdown', doc)).toContain(
      '| \\| a \\| b \\| \\| --- \\| c[^1] |\n| --- |\n\n[^1]: note\n',
    );
  });

  it('LaTeX: a table or figure in a table cell is a minipage with \\captionof (no float in a cell), blocks apart by \\par, & in a link escaped', async () => {
    const p = (...content: PMNode[]) => s.paragraph.create(null, content);
    const link = schema.marks.link.create({ href: 'https://example.org/a?b=1&c=2' });
    const inner = s.table.create({ id: 'T2', caption: 'Inner' }, [
      s.table_row.create(null, [s.table_cell.create(null, p(schema.text('deep', [link])))]),
    ]);
    const doc = article([
      s.table.create({ id: 'T1', caption: 'Outer' }, [
        s.table_row.create(null, [
          s.table_cell.create(null, [inner, s.figure.create({ id: 'F1', src: '', caption: 'Pic' })]),
        ]),
      ]),
    ]);
    expect(await exported('latex', doc, 'document.tex')).toContain(
      '\\begin{table}[htbp]\n\\centering\n\\caption{Outer}\\label{T1}\n\\begin{tabular}{|p{0.950\\linewidth}|}\n\\hline\n' +
        '\\begin{minipage}{\\linewidth}\n\\centering\n\\captionof{table}{Inner}\\label{T2}\n\\begin{tabular}{|p{0.950\\linewidth}|}\n\\hline\n' +
        '\\href{https://example.org/a?b=1\\&c=2}{deep} \\\\ \\hline\n\\end{tabular}\n\\end{minipage} \\par ' +
        '\\begin{minipage}{\\linewidth}\n\\centering\n\\captionof*{figure}{Pic}\n\\end{minipage} \\\\ \\hline\n\\end{tabular}\n\\end{table}\n',
    );
  });

  it('Markdown keeps side-by-side equations apart and a dollar inside an equation inside it', async () => {
    const doc = article([
      s.paragraph.create(null, [
        s.equation.create({ equation: 'a' }),
        s.equation.create({ equation: 'b $' }),
        schema.text(' end'),
      ]),
    ]);
    expect(await exported('markdown', doc)).toContain('$a$[]{}$b \\$$ end');
  });

  it('Markdown writes an empty equation as nothing ("$$" opened display math and pandoc lost the note after it)', async () => {
    const p = (...content: PMNode[]) => s.paragraph.create(null, content);
    const doc = article([
      p(
        s.equation.create({ equation: ' ' }),
        schema.text('x'),
        s.footnote.create(null, p(schema.text('note'))),
      ),
      s.figure.create({ id: 'E1', category: 'equation', equation: '', caption: 'Empty' }),
    ]);
    expect(await exported('markdown', doc)).toContain('---\n\nx[^1]\n\nEmpty\n\n[^1]: note\n');
  });

  it('DOCX writes an unnumbered figure\'s caption without a SEQ field (its name was empty: "SEQ  \\* ARABIC")', async () => {
    const doc = article([
      s.figure.create({ id: 'F1', category: 'none', src: '/media/gone.png', caption: 'Plain' }),
    ]);
    const xml = await exported('docx', doc, 'word/document.xml');
    expect(xml).not.toContain('SEQ');
    expect(xml).toContain(
      '<w:pStyle w:val="Caption"/></w:pPr><w:bookmarkStart w:id="200000" w:name="ref_F1"/><w:r><w:t xml:space="preserve">Plain</w:t></w:r><w:bookmarkEnd w:id="200000"/></w:p>',
    );
  });

  it('LaTeX drops control characters TeX refuses (a vertical tab in an e-mail address)', async () => {
    const base = createDocument(schema, standardArticle, { title: 'Found', language: 'en-US' });
    const parts: PMNode[] = [];
    base.forEach((part) => {
      parts.push(
        part.attrs.id === 'authors'
          ? part.type.create(
              part.attrs,
              s.contributor.create({ firstname: 'Ada', lastname: 'L\u000bovelace', email: 'a\u000b@b.org' }),
            )
          : part,
      );
    });
    const tex = await exported('latex', base.type.create(base.attrs, parts), 'document.tex');
    expect(tex).not.toContain('\u000b');
    expect(tex).toContain('Lovelace');
  });

  it('LaTeX writes math the editor cannot read as text (a stray &, an unknown command), so it compiles', async () => {
    const doc = article([
      s.paragraph.create(null, [
        s.equation.create({ equation: 'x < y & z > w' }),
        s.equation.create({ equation: '\\unknowncommand{x}' }),
      ]),
    ]);
    const tex = await exported('latex', doc, 'document.tex');
    expect(tex).toContain('\\texttt{x < y \\& z > w}');
    expect(tex).toContain('\\texttt{\\textbackslash{}unknowncommand\\{x\\}}');
    expect(tex).not.toContain('\\(x < y');
  });

  it('LaTeX: a subtitle without a title has no line break before it; elsarticle with APA shares the author counter', async () => {
    const base = createDocument(schema, standardArticle, { title: '', language: 'en-US' });
    const parts: PMNode[] = [];
    base.forEach((part) => {
      parts.push(
        part.attrs.id === 'subtitle'
          ? part.type.create({ ...part.attrs, hidden: false }, schema.text('Sub'))
          : part,
      );
    });
    const plain = await exported('latex', base.type.create(base.attrs, parts), 'document.tex');
    expect(plain).not.toMatch(/\\title\{\\\\/);
    const elsevier = base.type.create(
      { ...base.attrs, latex_class: 'elsevier', citationstyle: 'apa' },
      parts,
    );
    const tex = await exported('latex', elsevier, 'document.tex');
    expect(tex).toContain('style=apa');
    expect(tex).toContain('\\let\\c@author\\relax');
  });
});

/** The property test's document of nothing: its fields, each test sets what it needs. */
const EMPTY_SPEC = {
  title: 'Found',
  titleMarks: [],
  language: 'en-US',
  paperSize: 'A4',
  numbering: 'none',
  latexClass: 'article',
  hidden: { subtitle: false, authors: false, abstract: false, keywords: false },
  subtitle: '',
  authors: [],
  abstract: [],
  keywords: [],
  leaf: 'none',
  body: [],
  entries: 0,
};

describe('round trips of the documents the property test found (issue 54)', () => {
  const back = async (format: 'docx' | 'odt', doc: PMNode) =>
    schema.nodeFromJSON(
      importDocument((await exportDocument(format, input(doc))).data, `found.${format}`).content,
    );
  const input = (doc: PMNode) => ({ content: doc.toJSON(), threads: [], images: RANDOM_IMAGES, csl: null });
  const src = Object.keys(RANDOM_IMAGES)[0];

  it.each(['docx', 'odt'] as const)(
    '%s keeps an unnumbered figure unnumbered (its caption has no number)',
    async (format) => {
      const doc = article([
        s.figure.create({ id: 'F1', category: 'none', image: 1, src, caption: 'Without a number' }),
        s.paragraph.create(null, schema.text('After it.')),
      ]);
      const figures: string[] = [];
      (await back(format, doc)).descendants((node) => {
        if (node.type === s.figure) figures.push(`${node.attrs.category}: ${node.attrs.caption}`);
      });
      expect(figures).toEqual(['none: Without a number']);
    },
  );

  it.each(['docx', 'odt'] as const)(
    '%s keeps a citation "[1]" (IEEE) and an equation in one paragraph inline',
    async (format) => {
      const spec = {
        ...EMPTY_SPEC,
        abstract: [
          {
            kind: 'paragraph',
            inline: [
              { kind: 'citation', textual: false, refs: [0], locator: '' },
              { kind: 'equation', equation: 0 },
            ],
          },
        ],
        entries: 5,
      };
      const doc = buildDocument(spec as never);
      const { data } = await exportDocument(format, randomInput(doc, bundledCsl('ieee')));
      const inline: string[] = [];
      schema.nodeFromJSON(importDocument(data, `found.${format}`).content).descendants((node) => {
        if (node.type === s.figure || node.type === s.equation || node.type === s.citation)
          inline.push(node.type.name);
      });
      expect(inline).toEqual(['citation', 'equation']);
    },
  );
});
