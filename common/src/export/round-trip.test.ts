import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { CslJson } from '../bibliography/citation-render';
import { type CompactNode, expandNode } from '../bibliography/csl-compact';
import { importDocument } from '../import/index';
import { descendants, parseXml } from '../import/xml';
import { sofficeConvert, toolAvailable } from '../testing/office-tools';
import { exportDocx } from './docx';
import { CSL_CITATION_SCHEMA, plainText } from './docx-fields';
import { fixturePaper } from './fixture-paper';
import { type ExportInput, prepareDocument } from './model';
import { exportOdt } from './odt';

/**
 * Issue 54: a document exported to DOCX or ODT and imported again has the same structure: parts,
 * headings, lists, tables with captions, equations, citations with the same items,
 * cross-references to the same targets, footnotes, figures; and the same words.
 */

const asset = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../web/public/csl/${name}.json`, import.meta.url), 'utf8'));
const csl = (name: string): ExportInput['csl'] => ({
  name,
  style: expandNode(asset(`styles/${name}`) as CompactNode) as unknown as CslJson,
  locales: { 'en-US': asset('locale-data/en-US') as CslJson },
  locale: 'en-US',
});

type Json = { type: string; attrs?: Record<string, unknown>; content?: Json[]; text?: string };

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
  });
  delete counts.text;
  return { counts, citations, targets, captions, ids };
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

  it('reads back the DOCX LibreOffice makes of our ODT with its captions and cross-references', () => {
    const docx = sofficeConvert(exportOdt(prepared), 'odt', 'docx');
    const imported = importDocument(docx, 'converted.docx');
    const back = shape(imported.content as Json);
    const expected = shape(paper.doc.toJSON() as Json);
    expect(back.targets).toEqual(expected.targets);
    // LibreOffice 7.4 writes a display equation as inline math beside its number: it comes back inline.
    expect(back.captions).toEqual(
      expected.captions.filter((caption) => !caption.startsWith('figure:equation')),
    );
    // LibreOffice 7.4 writes Zotero's reference marks as no field: the citations stay their text.
    const text = JSON.stringify(imported.content);
    for (const citation of citations.slice(0, 3)) expect(text).toContain(citation.split(' ')[0]);
  });
});
