import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { Fragment, type Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { importDocument } from '../import/index';
import { parseMarkdown } from '../import/markdown';
import { descendants, parseXml } from '../import/xml';
import { bundledCsl } from '../testing/bundled-csl';
import { sofficeConvert, toolAvailable } from '../testing/office-tools';
import { exportDocx } from './docx';
import { CSL_CITATION_SCHEMA, plainText } from './docx-fields';
import { fixturePaper } from './fixture-paper';
import { documentMarkdown } from './markdown';
import { prepareDocument } from './model';
import { exportOdt } from './odt';

/**
 * Issue 54: a document exported to DOCX or ODT and imported again has the same structure: parts,
 * headings, lists, tables with captions, equations, citations with the same items,
 * cross-references to the same targets, footnotes, figures; and the same words.
 */

const csl = bundledCsl;

type Json = {
  type: string;
  attrs?: Record<string, unknown>;
  content?: Json[];
  text?: string;
  marks?: { type: string }[];
};

function walk(node: Json, visit: (node: Json) => void): void {
  visit(node);
  for (const inner of node.content ?? []) walk(inner, visit);
}

/** What must come back: node counts and the attributes that carry structure. */
function shape(doc: Json) {
  const counts: Record<string, number> = {};
  const citations: string[] = [];
  const targets: string[] = [];
  const captions: string[] = [];
  const ids: string[] = [];
  const aligned: string[] = [];
  // The parts in order, with the title of each (the bibliography's is the export language's word).
  const parts = (doc.content ?? [])
    .filter((part) => part.type !== 'bibliography_part')
    .map(
      (part) => `${part.type}:${part.attrs?.id ?? ''}:${part.attrs?.title ?? ''}:${part.attrs?.hidden ?? ''}`,
    );
  walk(doc, (node) => {
    counts[node.type] = (counts[node.type] ?? 0) + 1;
    const attrs = node.attrs ?? {};
    if (node.type === 'citation')
      citations.push(
        (attrs.references as { id: string; locator: string }[])
          .map((ref) => `${String(ref.id).replace(/^cite:/, '')}@${ref.locator}`)
          .join(';') + String(attrs.format),
      );
    if (node.type === 'cross_reference') targets.push(String(attrs.id));
    if (node.type === 'table' || node.type === 'figure')
      captions.push(`${node.type}:${attrs.category ?? ''}:${attrs.caption}:${attrs.equation ?? ''}`);
    if ((node.type === 'heading' || node.type === 'table' || node.type === 'figure') && attrs.id)
      ids.push(String(attrs.id));
    if (node.type === 'figure' && attrs.category !== 'equation') aligned.push(String(attrs.aligned));
  });
  delete counts.text;
  const numbering = String(doc.attrs?.heading_numbering);
  return { counts, citations, targets, captions, ids, aligned, parts, numbering };
}

/** The words of the document's parts but its bibliography (which is drawn, not written). */
function words(doc: Json): string[] {
  const out: string[] = [];
  for (const part of doc.content ?? []) {
    if (part.type === 'bibliography_part') continue;
    walk(part, (node) => {
      if (node.text) out.push(...node.text.split(/\s+/).filter(Boolean));
      if (node.type === 'keyword') out.push(String(node.attrs?.keyword));
      if (node.type === 'contributor')
        out.push(
          ...[node.attrs?.firstname, node.attrs?.lastname, node.attrs?.institution]
            .join(' ')
            .split(/\s+/)
            .filter(Boolean),
        );
    });
  }
  return out;
}

/** Precision and recall of the words of `back` against `original` (as multisets). */
function agreement(original: string[], back: string[]): { precision: number; recall: number } {
  const left = new Map<string, number>();
  for (const word of original) left.set(word, (left.get(word) ?? 0) + 1);
  let common = 0;
  for (const word of back) {
    const n = left.get(word) ?? 0;
    if (n > 0) {
      common++;
      left.set(word, n - 1);
    }
  }
  return { precision: common / back.length, recall: common / original.length };
}

const FORMATS = { docx: exportDocx, odt: exportOdt } as const;

describe.each(['apa', 'ieee', 'chicago-note-bibliography'])('round trip in %s', (style) => {
  const paper = fixturePaper();
  const original = paper.doc.toJSON() as Json;
  const input = { ...paper.input, csl: csl(style) };

  it.each(Object.keys(FORMATS) as (keyof typeof FORMATS)[])('%s comes back whole', (format) => {
    const bytes = FORMATS[format](prepareDocument(input));
    const back = importDocument(bytes, `paper.${format}`);
    const expected = shape(original);
    const got = shape(back.content as Json);
    expect(got.counts).toEqual(expected.counts);
    expect(got.citations).toEqual(expected.citations);
    expect(got.targets).toEqual(expected.targets);
    expect(got.captions).toEqual(expected.captions);
    expect(got.ids).toEqual(expected.ids);
    expect(got.aligned).toEqual(expected.aligned);
    expect(got.parts).toEqual(expected.parts);
    expect(got.numbering).toEqual(expected.numbering);
    expect(back.bibliography).toHaveLength(paper.entries);
    expect(back.notes).toEqual([]);
    const { precision, recall } = agreement(words(original), words(back.content as Json));
    expect(recall).toBe(1);
    expect(precision).toBe(1);
    // Equations come back as written (`\,` too).
    const latex = (doc: Json) => {
      const out: string[] = [];
      walk(doc, (node) => {
        if (node.type === 'equation' || (node.type === 'figure' && node.attrs?.equation))
          out.push(String(node.attrs?.equation));
      });
      return out;
    };
    expect(latex(back.content as Json)).toEqual(latex(original));
  });
});

/**
 * The fixture paper with a table of contents before its body, headings numbered as `numbering`
 * says, its figures aligned left, right and centre in turn, and a paragraph of one inline equation.
 */
function settingsPaper(numbering: string) {
  const paper = fixturePaper();
  const alignments = ['left', 'right', 'center'];
  let figure = 0;
  const parts: PMNode[] = [];
  paper.doc.forEach((part) => {
    if (part.attrs.id !== 'body') {
      parts.push(part);
      return;
    }
    parts.push(
      schema.nodes.toc_part.create({
        id: 'contents',
        title: 'Table of contents',
        optional: true,
        hidden: false,
        elements: [],
        marks: [],
        help: '',
      }),
    );
    // A paragraph of one inline equation stays that (a display equation is a figure).
    const blocks: PMNode[] = [
      schema.nodes.paragraph.create(null, schema.nodes.equation.create({ equation: 'x^2 + y^2' })),
    ];
    part.forEach((block) => {
      blocks.push(
        block.type.name === 'figure' && block.attrs.category === 'figure'
          ? block.type.create({ ...block.attrs, aligned: alignments[figure++ % 3] })
          : block,
      );
    });
    parts.push(part.copy(Fragment.from(blocks)));
  });
  const doc = paper.doc.type.create({ ...paper.doc.attrs, heading_numbering: numbering }, parts);
  doc.check();
  return { ...paper, doc, input: { ...paper.input, content: doc.toJSON(), csl: csl('apa') } };
}

describe.each(['none', 'roman', 'chapter', 'decimal'])(
  'round trip with heading numbering %s, a table of contents and aligned figures',
  (numbering) => {
    const paper = settingsPaper(numbering);
    const original = paper.doc.toJSON() as Json;
    const expected = shape(original);
    const backs = new Map<string, Json>();
    const back = (format: keyof typeof FORMATS): Json => {
      let found = backs.get(format);
      if (!found) {
        found = importDocument(FORMATS[format](prepareDocument(paper.input)), `paper.${format}`)
          .content as Json;
        backs.set(format, found);
      }
      return found;
    };
    const formats = Object.keys(FORMATS) as (keyof typeof FORMATS)[];

    it.each(formats)(
      '%s: the table of contents is the contents part again, not paragraphs or cross-references',
      (format) => {
        const got = shape(back(format));
        expect(got.parts).toEqual(expected.parts);
        expect(got.parts).toContain('toc_part:contents:Table of contents:false');
        expect(got.targets).toEqual(expected.targets);
        const { precision, recall } = agreement(words(original), words(back(format)));
        expect([precision, recall]).toEqual([1, 1]);
      },
    );

    it.each(formats)('%s: the heading numbering is the document setting again', (format) => {
      expect(shape(back(format)).numbering).toBe(numbering);
    });

    it.each(formats)('%s: each figure keeps its alignment', (format) => {
      expect(shape(back(format)).aligned).toEqual(['left', 'right', 'center']);
    });

    it.each(formats)(
      '%s: a paragraph of one inline equation stays one, display equations stay figures',
      (format) => {
        const got = shape(back(format));
        expect([got.counts.equation, got.counts.figure]).toEqual([
          expected.counts.equation,
          expected.counts.figure,
        ]);
      },
    );

    it.each(formats)('%s: and the rest comes back whole', (format) => {
      const got = shape(back(format));
      expect(got.counts).toEqual(expected.counts);
      expect(got.citations).toEqual(expected.citations);
      expect(got.captions).toEqual(expected.captions);
      expect(got.ids).toEqual(expected.ids);
    });
  },
);

describe("Word's table of contents", () => {
  const paper = settingsPaper('decimal');
  const original = paper.doc.toJSON() as Json;
  // As Word writes one: the field begins in the first entry's paragraph; each entry links to a
  // _Toc bookmark and shows its page by a PAGEREF field.
  const entry = (n: number, text: string, first: boolean) =>
    `<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr>${first ? '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h \\z \\u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>' : ''}<w:hyperlink w:anchor="_Toc${n}" w:history="1"><w:r><w:t>${text}</w:t></w:r><w:r><w:tab/></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGEREF _Toc${n} \\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${n}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:hyperlink></w:p>`;
  const wordToc = (control: boolean) => {
    const inner = `<w:p><w:pPr><w:pStyle w:val="TOCHeading"/></w:pPr><w:r><w:t>Table of contents</w:t></w:r></w:p>${entry(1, 'Section 1 on structures', true)}${entry(2, 'Section 2 on structures', false)}<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
    return control
      ? `<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/><w:docPartUnique/></w:docPartObj></w:sdtPr><w:sdtContent>${inner}</w:sdtContent></w:sdt>`
      : inner;
  };

  it.each([
    ['in its content control', true],
    ['as a field alone', false],
  ])('%s is the contents part, its entries no text or cross-references', (_name, control) => {
    const files = unzipSync(exportDocx(prepareDocument(paper.input)));
    const document = strFromU8(files['word/document.xml']);
    const ours =
      /<w:p><w:pPr><w:pStyle w:val="TOCHeading"\/>[\s\S]*?<w:p><w:r><w:fldChar w:fldCharType="end"\/><\/w:r><\/w:p>/;
    expect(document).toMatch(ours);
    files['word/document.xml'] = strToU8(document.replace(ours, wordToc(control)));
    const back = importDocument(zipSync(files), 'word.docx');
    const got = shape(back.content as Json);
    const expected = shape(original);
    expect(got.parts).toEqual(expected.parts);
    expect(got.targets).toEqual(expected.targets);
    expect(got.ids).toEqual(expected.ids);
    const { precision, recall } = agreement(words(original), words(back.content as Json));
    expect([precision, recall]).toEqual([1, 1]);
  });
});

describe('ODT formulas as LibreOffice writes them', () => {
  const paper = fixturePaper();
  const original = paper.doc.toJSON() as Json;
  const equations = (doc: Json) => {
    const out: string[] = [];
    walk(doc, (node) => {
      if (node.type === 'equation') out.push(`inline ${node.attrs?.equation}`);
      if (node.type === 'figure' && node.attrs?.category === 'equation')
        out.push(`display ${node.attrs?.equation}`);
    });
    return out;
  };

  it('reads a formula with its replacement image, in a span, alone in its paragraph as the display equation', () => {
    const files = unzipSync(exportOdt(prepareDocument({ ...paper.input, csl: csl('apa') })));
    // LibreOffice saves a picture of each formula beside it (an SVM metafile) and keeps a formula
    // alone in its paragraph in a span of its own formatting.
    let content = strFromU8(files['content.xml']);
    content = content.replace(
      /<draw:frame [^>]*draw:name="Formula(\d+)"[^>]*>[\s\S]*?<\/draw:frame>/g,
      (frame: string, n: string) => {
        files[`ObjectReplacements/Object ${n}`] = strToU8('VCLMTF\u0001\u0000');
        const pictured = frame.replace(
          /(<draw:object [^>]*?)\/>/,
          `$1/><draw:image xlink:href="./ObjectReplacements/Object ${n}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>`,
        );
        return `<text:span text:style-name="T1">${pictured}</text:span>`;
      },
    );
    expect(content).toContain('ObjectReplacements/Object 1');
    files['content.xml'] = strToU8(content);
    const back = importDocument(zipSync(files), 'libreoffice.odt');
    expect(equations(back.content as Json)).toEqual(equations(original));
    expect(back.notes).toEqual([]);
  });
});

describe('Markdown citations in pandoc syntax', () => {
  const keys: Record<string, string> = {
    'doe:2020/a': '1-0',
    'roe_{x}': '1-1',
    other: '1-2',
    plain2019: '1-3',
  };
  const resolvers = { citation: (key: string) => keys[key] ?? null, image: () => null };
  const citations = (markdown: string) => {
    const out: unknown[] = [];
    parseMarkdown(markdown, resolvers).content.descendants((node) => {
      if (node.type.name === 'citation') out.push({ ...node.attrs });
      return true;
    });
    return out;
  };

  it('reads [@{key}], @{key} and [@key, p. 4; @other]', () => {
    expect(citations('As [@{doe:2020/a}] and [see @{doe:2020/a}, p. 2; -@other] show.')).toEqual([
      {
        format: 'autocite',
        references: [{ id: '1-0', prefix: '', locator: '' }],
      },
      {
        format: 'autocite',
        references: [
          { id: '1-0', prefix: 'see', locator: 'p. 2' },
          { id: '1-2', prefix: '', locator: '' },
        ],
      },
    ]);
    expect(citations("@{doe:2020/a}'s work and @{other}-based [p. 3] ones.")).toEqual([
      { format: 'textcite', references: [{ id: '1-0', prefix: '', locator: '' }] },
      { format: 'textcite', references: [{ id: '1-2', prefix: '', locator: '' }] },
    ]);
    expect(citations('Known [@plain2019, p. 4; @other].')).toEqual([
      {
        format: 'autocite',
        references: [
          { id: '1-3', prefix: '', locator: 'p. 4' },
          { id: '1-2', prefix: '', locator: '' },
        ],
      },
    ]);
  });

  it('reads back the citation our export writes as @{key} before text that would extend the key', () => {
    const paper = fixturePaper();
    const prepared = prepareDocument(
      {
        ...paper.input,
        content: {
          ...(paper.input.content as Json),
          content: (paper.input.content as Json).content?.map((part) =>
            part.attrs?.id === 'body'
              ? {
                  ...part,
                  content: [
                    {
                      type: 'paragraph',
                      content: [
                        {
                          type: 'citation',
                          attrs: { format: 'textcite', references: [{ id: '1-0', prefix: '', locator: '' }] },
                        },
                        { type: 'text', text: '-based work.' },
                      ],
                    },
                  ],
                }
              : part,
          ),
        },
      },
      undefined,
      { accepted: true },
    );
    const markdown = documentMarkdown(prepared);
    const body = markdown.slice(markdown.indexOf('\n---\n\n') + 6);
    expect(body).toMatch(/@\{[^}]+\}-based work\./);
    const key = /@\{([^}]+)\}/.exec(body)?.[1] ?? '';
    const read = parseMarkdown(body, {
      citation: (found) => (found === key ? '1-0' : null),
      image: () => null,
    });
    expect(read.unknownCitations).toEqual([]);
    expect(JSON.stringify(read.content.toJSON())).toContain('"text":"-based work."');
    const found: unknown[] = [];
    read.content.descendants((node) => {
      if (node.type.name === 'citation') found.push(node.attrs.references);
      return true;
    });
    expect(found).toEqual([[{ id: '1-0', prefix: '', locator: '' }]]);
  });
});

describe('DOCX live fields', () => {
  const paper = fixturePaper();
  const files = unzipSync(exportDocx(prepareDocument({ ...paper.input, csl: csl('apa') })));
  const document = parseXml(strFromU8(files['word/document.xml']));
  const instructions = descendants(document, 'w:instrText').map((node) => (node.textContent ?? '').trim());

  it("writes each citation as a Zotero field with its items' CSL-JSON and its rendered text", () => {
    const citations = instructions.filter((text) => text.startsWith('ADDIN ZOTERO_ITEM CSL_CITATION '));
    expect(citations).toHaveLength(20);
    const ids = new Set<string>();
    for (const text of citations) {
      const json = JSON.parse(text.slice('ADDIN ZOTERO_ITEM CSL_CITATION '.length));
      expect(json.schema).toBe(CSL_CITATION_SCHEMA);
      expect(json.citationID).toMatch(/^[a-z0-9]{8}$/);
      ids.add(json.citationID);
      expect(json.properties.formattedCitation).toMatch(/\d{4}/);
      expect(json.properties.plainCitation).toMatch(/\d{4}/);
      expect(json.properties.noteIndex).toBe(0);
      for (const item of json.citationItems) {
        expect(item.itemData.id).toBe(item.id);
        expect(typeof item.itemData.type).toBe('string');
        expect(typeof item.itemData.title).toBe('string');
        expect(Array.isArray(item.itemData.author)).toBe(true);
        expect(item.itemData.issued['date-parts'][0][0]).toBeGreaterThan(1900);
      }
    }
    expect(ids.size).toBe(20);
    const located = citations
      .map((text) => JSON.parse(text.slice(31)).citationItems[0])
      .filter((i) => i.locator);
    expect(located.every((item) => item.label === 'page')).toBe(true);
  });

  it('wraps the bibliography in ZOTERO_BIBL and keeps the style in docProps/custom.xml', () => {
    expect(instructions.filter((text) => text.startsWith('ADDIN ZOTERO_BIBL '))).toHaveLength(1);
    const custom = strFromU8(files['docProps/custom.xml']);
    expect(custom).toContain('name="ZOTERO_PREF_1"');
    const prefs = descendants(parseXml(custom), 'vt:lpwstr')
      .map((node) => node.textContent)
      .join('');
    expect(prefs).toContain('<style id="http://www.zotero.org/styles/apa"');
    expect(prefs).toContain('<pref name="fieldType" value="Field"/>');
    expect(strFromU8(files['[Content_Types].xml'])).toContain('/docProps/custom.xml');
    expect(strFromU8(files['_rels/.rels'])).toContain('docProps/custom.xml');
  });

  it('numbers captions and equations with SEQ fields and refers to them with REF fields to bookmarks', () => {
    expect(instructions.filter((text) => text.startsWith('SEQ Figure'))).toHaveLength(3);
    expect(instructions.filter((text) => text.startsWith('SEQ Table'))).toHaveLength(1);
    expect(instructions.filter((text) => text.startsWith('SEQ Equation')).length).toBeGreaterThan(0);
    const refs = instructions.filter((text) => text.startsWith('REF '));
    expect(refs).toEqual(['REF ref_F0 \\h', 'REF ref_T0 \\h']);
    const bookmarks = new Set(
      descendants(document, 'w:bookmarkStart').map((node) => node.getAttribute('w:name')),
    );
    expect(bookmarks.has('ref_F0') && bookmarks.has('ref_T0') && bookmarks.has('ref_H1')).toBe(true);
  });
});

describe('a footnote of nothing but a citation', () => {
  // In an author-date style it is the author's own note and comes back as one; in a note style
  // the note is the citation's (as Zotero writes it) and comes back as the citation alone.
  const paper = fixturePaper();
  const s = schema.nodes;
  const citation = s.citation.create({
    format: 'autocite',
    references: [{ id: '1-0', prefix: '', locator: '' }],
  });
  const noted = s.paragraph.create(null, [
    schema.text('A claim with its source in a note'),
    s.footnote.create(null, s.paragraph.create(null, [citation, schema.text('.')])),
  ]);
  const parts: PMNode[] = [];
  paper.doc.forEach((part) => {
    parts.push(part.attrs.id === 'body' ? part.copy(part.content.addToEnd(noted)) : part);
  });
  const doc = paper.doc.copy(Fragment.from(parts));
  const notes = (content: Json) => {
    let count = 0;
    walk(content, (node) => {
      if (node.type === 'footnote') count++;
    });
    return count;
  };
  const original = notes(doc.toJSON() as Json);

  it.each(Object.keys(FORMATS) as (keyof typeof FORMATS)[])('%s in APA keeps it a note', (format) => {
    const bytes = FORMATS[format](
      prepareDocument({ ...paper.input, content: doc.toJSON(), csl: csl('apa') }),
    );
    expect(notes(importDocument(bytes, `paper.${format}`).content as Json)).toBe(original);
  });

  // The same note deleted as a suggestion: the suggestion comes back on the note, or on the
  // citation a note style's note is.
  const deleted = (() => {
    const tr = new Transform(doc);
    const del = schema.marks.deletion.create({
      user: 3,
      username: 'Ada Lovelace',
      date: Date.UTC(2024, 0, 3),
    });
    doc.descendants((node, pos) => {
      if (node.type.name === 'footnote' && node.firstChild?.firstChild?.type.name === 'citation')
        tr.addNodeMark(pos, del);
    });
    return tr.doc;
  })();
  const deletedTypes = (content: Json) => {
    const types: string[] = [];
    walk(content, (node) => {
      const noteOrCitation = node.type === 'footnote' || node.type === 'citation';
      if (noteOrCitation && node.marks?.some((mark) => mark.type === 'deletion')) types.push(node.type);
    });
    return types;
  };

  it.each(Object.keys(FORMATS) as (keyof typeof FORMATS)[])(
    '%s keeps a deleted note deleted, in APA and Chicago notes',
    (format) => {
      const back = (style: string) =>
        importDocument(
          FORMATS[format](prepareDocument({ ...paper.input, content: deleted.toJSON(), csl: csl(style) })),
          `paper.${format}`,
        ).content as Json;
      expect(deletedTypes(deleted.toJSON() as Json)).toEqual(['footnote']);
      expect(deletedTypes(back('apa'))).toEqual(['footnote']);
      expect(deletedTypes(back('chicago-note-bibliography'))).toEqual(['citation']);
    },
  );

  it.each(Object.keys(FORMATS) as (keyof typeof FORMATS)[])(
    '%s in Chicago notes reads the citation',
    (format) => {
      const input = { ...paper.input, content: doc.toJSON(), csl: csl('chicago-note-bibliography') };
      const back = importDocument(FORMATS[format](prepareDocument(input)), `paper.${format}`).content as Json;
      expect(notes(back)).toBe(original - 1);
    },
  );
});

describe('DOCX fields inside a tracked deletion', () => {
  // The fixture paper with every paragraph that holds a citation or a cross-reference deleted as a
  // suggestion: Word wants the instruction of a deleted field as w:delInstrText and its result as
  // w:delText (w:instrText inside w:del shows the field code as deleted text in Word).
  const paper = fixturePaper();
  const del = schema.marks.deletion.create({ user: 3, username: 'Ada Lovelace', date: Date.UTC(2024, 0, 3) });
  const fields = new Set(['citation', 'cross_reference']);
  const tr = new Transform(paper.doc);
  let deletedFields = 0;
  let deletedCitations = 0;
  paper.doc.descendants((node, pos) => {
    if (node.type.name !== 'paragraph') return true;
    let count = 0;
    node.descendants((inner) => {
      if (fields.has(inner.type.name)) count++;
      if (inner.type.name === 'citation') deletedCitations++;
    });
    if (count) {
      deletedFields += count;
      tr.addMark(pos + 1, pos + node.nodeSize - 1, del);
    }
    return false;
  });
  const doc = tr.doc;
  const input = { ...paper.input, content: doc.toJSON(), csl: csl('apa') };
  const bytes = exportDocx(prepareDocument(input));
  const root = parseXml(strFromU8(unzipSync(bytes)['word/document.xml']));

  it('writes their instructions as w:delInstrText and their results as w:delText', () => {
    expect(deletedFields).toBeGreaterThan(2);
    const deletions = descendants(root, 'w:del').filter((node) => node.parentNode?.nodeName !== 'w:rPr');
    const inside = (name: string) => deletions.flatMap((node) => descendants(node, name));
    expect(inside('w:instrText')).toEqual([]);
    expect(inside('w:t')).toEqual([]);
    // Each citation is a field; a cross-reference to a figure, table or equation one or two (REF,
    // and PAGEREF in a page form), to a heading a link.
    const citations = inside('w:delInstrText').filter((node) => node.textContent?.includes('ZOTERO_ITEM'));
    expect(citations.length).toBe(deletedCitations);
    expect(inside('w:delInstrText').length).toBeGreaterThan(deletedCitations);
  });

  it('reads them back as the deleted citations and cross-references they were', () => {
    const back = importDocument(bytes, 'deleted.docx').content as Json;
    const deleted: string[] = [];
    walk(back, (node) => {
      if (fields.has(node.type) && node.marks?.some((mark) => mark.type === 'deletion'))
        deleted.push(node.type);
    });
    expect(deleted).toHaveLength(deletedFields);
  });
});

describe.skipIf(!toolAvailable('soffice'))('our DOCX and ODT in LibreOffice', () => {
  const paper = fixturePaper();
  const prepared = prepareDocument({ ...paper.input, csl: csl('apa') });
  const citations = [...prepared.citations.values()].map(plainText);

  it.each(Object.keys(FORMATS) as (keyof typeof FORMATS)[])(
    'opens the %s and shows every citation, caption number and cross-reference',
    (format) => {
      const text = strFromU8(sofficeConvert(FORMATS[format](prepared), format, 'txt')).replace(/\s+/g, ' ');
      for (const citation of citations) expect(text).toContain(citation.replace(/\s+/g, ' '));
      for (const label of [
        'Figure 1: ',
        'Figure 3: ',
        'Table 1: Measured values',
        'See Figure 1, Table 1 and Section 2.',
      ])
        expect(text).toContain(label);
      expect(text).toMatch(/\(1\)/);
    },
  );

  it('reads back the DOCX LibreOffice makes of our ODT with its contents, heading numbering, captions and cross-references', () => {
    const settings = settingsPaper('none');
    const docx = sofficeConvert(exportOdt(prepareDocument(settings.input)), 'odt', 'docx');
    const imported = importDocument(docx, 'converted.docx');
    const back = shape(imported.content as Json);
    const expected = shape(settings.doc.toJSON() as Json);
    expect(back.targets).toEqual(expected.targets);
    // LibreOffice's ToC content control titled by a "TOC Heading" paragraph; its outline numbering "none".
    expect(back.parts).toEqual(expected.parts);
    expect(back.numbering).toBe('none');
    // LibreOffice 7.4 writes a display equation as inline math beside its number (it comes back
    // inline), and a formula alone in its paragraph as display math (it comes back displayed).
    const notEquation = (caption: string) => !caption.startsWith('figure:equation');
    expect(back.captions.filter(notEquation)).toEqual(expected.captions.filter(notEquation));
    // LibreOffice 7.4 writes Zotero's reference marks as no field: the citations stay their text.
    const text = JSON.stringify(imported.content);
    for (const citation of citations.slice(0, 3)) expect(text).toContain(citation.split(' ')[0]);
  });
});
