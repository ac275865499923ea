import { unzipSync, zipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { blockSuggestions } from '../editor/testing';
import { exportNative, importNative, NATIVE_VERSION } from '../exchange/native';
import { exportDocx } from '../export/docx';
import { blockSuggestionsDocument, joinSuggestionsDocument } from '../export/fixture-paper';
import { prepareDocument } from '../export/model';
import { exportOdt } from '../export/odt';
import { pandocToMarkdown, sofficeConvert, toolAvailable } from '../testing/office-tools';
import { importDocument } from './index';
import type { ImportedDocument } from './model';
import { ImportRefused } from './problems';
import { encryptedDocx, paperDocx, paperOdt, reviewDocx, zipBomb } from './testing/fixtures';

type Json = Record<string, unknown>;

function body(doc: ImportedDocument): Json[] {
  const part = (doc.content.content as Json[]).find((p) => (p.attrs as Json | undefined)?.id === 'body');
  return (part?.content as Json[]) ?? [];
}

function all(nodes: Json[], type: string): Json[] {
  const found: Json[] = [];
  const visit = (node: Json) => {
    if (node.type === type) found.push(node);
    for (const child of (node.content as Json[] | undefined) ?? []) visit(child);
  };
  nodes.forEach(visit);
  return found;
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportRefused) return error.code;
    throw error;
  }
  return 'accepted';
}

const text = (node: Json) =>
  JSON.stringify(node)
    .match(/"text":"[^"]*"/g)
    ?.join('') ?? '';

/** What a paper must keep, whichever tool wrote it. */
function expectPaper(doc: ImportedDocument, { equations = true } = {}) {
  expect(doc.title).toBe('A Paper on Things');
  const nodes = body(doc);
  expect(all(nodes, 'heading').map((h) => [(h.attrs as Json).level, text(h)])).toEqual([
    [1, '"text":"Introduction"'],
    [2, '"text":"Lists"'],
  ]);
  const footnotes = all(nodes, 'footnote');
  expect(footnotes.map(text)).toEqual(['"text":"The footnote text."']);
  const bullets = all(nodes, 'bullet_list');
  expect(bullets).toHaveLength(2); // the list and the one nested in "two"
  expect(all(nodes, 'ordered_list')).toHaveLength(1);
  const table = all(nodes, 'table')[0];
  expect(all([table], 'table_row')).toHaveLength(3);
  expect(text(table)).toContain('"text":"beta"');
  if (equations) {
    expect(all(nodes, 'equation').map((e) => (e.attrs as Json).equation)).toEqual([
      expect.stringMatching(/^a\^\{?2\}? ?\+ ?b\^\{?2\}? ?= ?c\^\{?2\}?$/),
    ]);
    const display = all(nodes, 'figure').filter((f) => (f.attrs as Json).category === 'equation');
    expect(display).toHaveLength(1);
    expect(String((display[0].attrs as Json).equation).replace(/\s+/g, '')).toMatch(
      /^\\frac\{\\alpha\}\{\\sqrt\{x\+1\}\}=\\sum_\{i=1\}\^\{?n\}?x_\{?i\}?$/,
    );
  }
}

describe.runIf(toolAvailable('pandoc'))('import of files made by pandoc', () => {
  it('reads a pandoc DOCX: title, headings, lists, table, footnote, inline and display math', () => {
    const doc = importDocument(paperDocx(), 'paper.docx');
    expect(doc.format).toBe('docx');
    expectPaper(doc);
    expect(doc.notes).toEqual([]);
  });

  it('reads a pandoc ODT the same way (formulas through MathML)', () => {
    const doc = importDocument(paperOdt(), 'paper.odt');
    expect(doc.format).toBe('odt');
    expectPaper(doc);
  });

  it('turns Zotero fields into one bibliography entry cited twice, OMML into LaTeX, and keeps review', () => {
    const doc = importDocument(reviewDocx(), 'review.docx');
    const nodes = body(doc);
    expect(doc.bibliography).toHaveLength(1);
    const [entry] = doc.bibliography;
    expect(entry.data.entry_key).toBe('Doe2020');
    expect(entry.data.bib_type).toBe('article-journal');
    expect(entry.data.fields.title).toEqual([{ type: 'text', text: 'Deep Things' }]);
    const citations = all(nodes, 'citation').map((c) => (c.attrs as Json).references);
    expect(citations).toEqual([
      [{ id: entry.key, prefix: '', locator: '12' }],
      [{ id: entry.key, prefix: '', locator: '12' }],
    ]);
    // The rendered "(Doe 2020, 12)" is not kept beside the citation.
    expect(JSON.stringify(nodes)).not.toContain('Doe 2020');
    expect(all(nodes, 'equation').map((e) => (e.attrs as Json).equation)).toEqual(['E=mc^2']);
    const bib = (doc.content.content as Json[]).find((p) => p.type === 'bibliography_part');
    expect(bib?.content).toEqual([{ type: 'bib_entry', attrs: { id: entry.key, data: entry.data } }]);

    expect(doc.threads).toEqual([
      {
        id: 1,
        resolved: false,
        comments: [
          { author: 'Ann Reviewer', date: Date.parse('2024-01-02T10:00:00Z'), text: 'Please look again.' },
        ],
      },
    ]);
    const marked = JSON.stringify(nodes);
    expect(marked).toContain(
      '{"type":"text","marks":[{"type":"comment","attrs":{"id":1}}],"text":"Checked text"}',
    );
    expect(marked).toContain(
      `{"type":"text","marks":[{"type":"insertion","attrs":{"user":0,"username":"Bob","date":${Date.parse('2024-01-03T10:00:00Z')},"approved":false,"join":0}}],"text":"added words"}`,
    );
    expect(marked).toContain(
      `{"type":"text","marks":[{"type":"deletion","attrs":{"user":0,"username":"Bob","date":${Date.parse('2024-01-03T10:00:00Z')},"join":0}}],"text":"removed words"}`,
    );
  });

  it('agrees with pandoc reading the same DOCX back', () => {
    const markdown = pandocToMarkdown(paperDocx(), 'docx');
    expect(markdown).toContain('# Introduction');
    expect(markdown).toContain('The footnote text.');
  });
});

describe.runIf(toolAvailable('pandoc') && toolAvailable('soffice'))(
  'import of a DOCX LibreOffice made from an ODT',
  () => {
    it('keeps headings, lists, table and footnote', () => {
      const docx = sofficeConvert(paperOdt(), 'odt', 'docx');
      const doc = importDocument(docx, 'paper.docx');
      // Debian's LibreOffice without its Math module writes formulas as empty pictures.
      expectPaper(doc, { equations: false });
    }, 180_000);
  },
);

describe('bad input is refused as a whole', () => {
  it('refuses a damaged file, a password-protected DOCX, a zip bomb and an unknown zip', () => {
    expect(refusal(() => importDocument(new TextEncoder().encode('not a document at all'), 'x.docx'))).toBe(
      'corrupt',
    );
    const zip = zipSync({ 'word/document.xml': new TextEncoder().encode('<w:document><w:body><w:p>') });
    expect(refusal(() => importDocument(zip.slice(0, zip.length - 30), 'x.docx'))).toBe('corrupt');
    expect(refusal(() => importDocument(zip, 'x.docx'))).toBe('corrupt');
    expect(refusal(() => importDocument(encryptedDocx(), 'secret.docx'))).toBe('encrypted');
    expect(refusal(() => importDocument(zipBomb(), 'bomb.docx'))).toBe('zip_bomb');
    expect(refusal(() => importDocument(zipSync({ 'readme.txt': new Uint8Array(3) }), 'x.zip'))).toBe(
      'unknown_format',
    );
  });

  it.runIf(toolAvailable('pandoc'))('reports an ODT image linked from outside and does not fetch it', () => {
    const files = unzipSync(paperOdt());
    const content = new TextDecoder().decode(files['content.xml']);
    const frame =
      '<draw:frame draw:name="x"><draw:image xlink:href="https://example.invalid/figure.png" xlink:type="simple"/></draw:frame>';
    files['content.xml'] = new TextEncoder().encode(content.replace('Some ', `${frame}Some `));
    const doc = importDocument(zipSync(files), 'linked.odt');
    expect(doc.notes).toEqual([
      { code: 'external_link', detail: 'https://example.invalid/figure.png', count: 1 },
    ]);
    expect(all(body(doc), 'figure').filter((f) => (f.attrs as Json).category === 'figure')).toEqual([]);
  });
});

describe('native format', () => {
  const content = {
    type: 'doc',
    attrs: { template: 'standard-article', language: 'de-DE', paper_size: 'A4', citationstyle: 'apa' },
    content: [
      { type: 'title', content: [{ type: 'text', text: 'Native' }] },
      {
        type: 'bibliography_part',
        content: [
          {
            type: 'bib_entry',
            attrs: { id: '3-9', data: { entry_key: 'Roe1999', bib_type: 'book', fields: {}, cats: [] } },
          },
        ],
      },
    ],
  };
  const original = {
    title: 'Native',
    content,
    bibliography: [
      { key: '3-9', data: { entry_key: 'Roe1999', bib_type: 'book', fields: { date: '1999' }, cats: [] } },
    ],
    threads: [{ id: 4, resolved: true, comments: [{ author: 'Ann', date: 5, text: 'Fine' }] }],
    images: [{ key: '12', name: 'map.png', bytes: new Uint8Array([137, 80, 78, 71, 1, 2, 3]) }],
  };

  it('comes back identical: content, bibliography, comments, images', () => {
    const back = importNative(exportNative(original));
    expect(back.content).toEqual(original.content);
    expect(back.bibliography).toEqual(original.bibliography);
    expect(back.threads).toEqual(original.threads);
    expect(back.images).toEqual(original.images);
    expect(back.title).toBe('Native');
    // importDocument recognises it by content.
    expect(importDocument(exportNative(original), 'backup.zip').format).toBe('native');
  });

  it('refuses a file of a future version', () => {
    const files = unzipSync(exportNative(original));
    const manifest = JSON.parse(new TextDecoder().decode(files['scriptorium.json']));
    files['scriptorium.json'] = new TextEncoder().encode(
      JSON.stringify({ ...manifest, version: NATIVE_VERSION + 1 }),
    );
    expect(refusal(() => importDocument(zipSync(files), 'future.zip'))).toBe('future_version');
  });
});

describe('suggestions recorded on blocks come back from DOCX and ODT', () => {
  const docx = (doc: PMNode) =>
    exportDocx(prepareDocument({ content: doc.toJSON(), threads: [], images: {}, csl: null }));
  const imported = (bytes: Uint8Array) => schema.nodeFromJSON(importDocument(bytes, 'review.docx').content);
  const items = ['insertion:list_item:New item', 'deletion:list_item:Last item'];
  const rows = ['insertion:table_row:CD', 'deletion:table_row:EF'];
  // Word's paragraph marks: a split, a join of paragraphs, of list items, of a heading.
  const joins = ['deletion:paragraph:second', 'deletion:list_item:two', 'deletion:heading:heading'];

  it('reads the paragraph marks as splits and joins, and the rows, of our DOCX', () => {
    expect(blockSuggestions(blockSuggestionsDocument())).toEqual([...items, ...rows]);
    expect(blockSuggestions(imported(docx(blockSuggestionsDocument())))).toEqual([...items, ...rows]);
    // Less the join above the text ("Five" onto "Four"), which comes back as it reads accepted.
    expect(blockSuggestions(joinSuggestionsDocument())).toEqual([...joins, 'deletion:list_item:Five']);
    expect(blockSuggestions(imported(docx(joinSuggestionsDocument())))).toEqual(joins);
  });

  it('reads the splits and joins of our ODT (rows there are their tracked text only)', () => {
    const odt = (doc: PMNode) =>
      exportOdt(prepareDocument({ content: doc.toJSON(), threads: [], images: {}, csl: null }));
    const fromOdt = (doc: PMNode) => schema.nodeFromJSON(importDocument(odt(doc), 'review.odt').content);
    expect(blockSuggestions(fromOdt(blockSuggestionsDocument()))).toEqual(items);
    expect(blockSuggestions(fromOdt(joinSuggestionsDocument()))).toEqual(joins);
    // The deleted item keeps its text, deleted, as it was.
    expect(fromOdt(blockSuggestionsDocument()).textContent).toContain('Old item');
  });

  it.runIf(toolAvailable('soffice'))(
    'reads them out of the DOCX LibreOffice writes too',
    () => {
      const again = (doc: PMNode) => imported(sofficeConvert(docx(doc), 'docx', 'docx'));
      expect(blockSuggestions(again(blockSuggestionsDocument()))).toEqual([...items, ...rows]);
      expect(blockSuggestions(again(joinSuggestionsDocument()))).toEqual(joins);
    },
    180_000,
  );
});
