import { readFileSync } from 'node:fs';
import { DOMParser } from '@xmldom/xmldom';
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import type { CslJson } from '../bibliography/citation-render';
import type { EngineCache } from '../bibliography/cluster-render';
import { type CompactNode, expandNode } from '../bibliography/csl-compact';
import { numberDocument } from '../editor/academic-numbering';
import { schema } from '../editor/schema';
import { acceptedDocument } from '../editor/track-changes';
import { importDocument } from '../import/index';
import type { ExportInput } from './model';
import { buildDocument, docSpec, RANDOM_EQUATIONS, RANDOM_IMAGES, randomInput } from './random-document';
import { EXPORT_FORMATS, type ExportFormatName, exportDocument } from './registry';

/**
 * Issue 53, item 7: every export of every document the editor can make. fast-check generates
 * documents (random-document.ts) and each goes through every exporter. Properties:
 * - every exporter ends without throwing;
 * - every XML part (DOCX, ODT, EPUB, the HTML zip, JATS) is well-formed and holds only XML
 *   characters;
 * - the text is kept: every word token of the document (its accepted text for the accepted
 *   formats) is in the file's text as often as in the document;
 * - every citation is one in the file (a field, a reference mark, a span, a command);
 * - DOCX and ODT imported again give the same words and the same counts of headings, tables,
 *   figures, equations, footnotes, citations and cross-references.
 * Seeded (EXPORT_PROPERTY_SEED, EXPORT_PROPERTY_RUNS): a failure prints its seed and path and the
 * smallest document found. The tools' checks of the same documents are in
 * server/test/export-properties.test.ts.
 */

const SEED = Number(process.env.EXPORT_PROPERTY_SEED ?? 53);
const RUNS = Number(process.env.EXPORT_PROPERTY_RUNS ?? 12);

const asset = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../web/public/csl/${name}.json`, import.meta.url), 'utf8'));
const STYLES = ['', 'apa', 'ieee', 'chicago-note-bibliography'];
const csls = new Map<string, ExportInput['csl']>(
  STYLES.map((name) => [
    name,
    name
      ? {
          name,
          style: expandNode(asset(`styles/${name}`) as CompactNode) as unknown as CslJson,
          locales: { 'en-US': asset('locale-data/en-US') as CslJson },
          locale: 'en-US',
        }
      : null,
  ]),
);
const engines = new Map<string, { current?: EngineCache; key: string }>();

const TOKEN = /[a-z]{4,}\d+/g;

/** How often each word token occurs in `text`. */
function tokens(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [word] of text.matchAll(TOKEN)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** The tokens a document shows: its visible parts' text, captions, names and keywords. */
function documentTokens(doc: PMNode): Map<string, number> {
  const texts: string[] = [];
  doc.forEach((part) => {
    if (part.attrs.hidden || part.type.name === 'bibliography_part') return;
    part.descendants((node) => {
      if (node.isText) texts.push(node.text ?? '');
      if (node.type.name === 'keyword') texts.push(String(node.attrs.keyword));
      if (node.type.name === 'contributor')
        texts.push(String(node.attrs.firstname), String(node.attrs.lastname), String(node.attrs.institution));
      if (node.type.name === 'figure' || node.type.name === 'table') texts.push(String(node.attrs.caption));
      return true;
    });
  });
  return tokens(texts.join('\n'));
}

function missingTokens(expected: Map<string, number>, got: Map<string, number>): string[] {
  return [...expected]
    .filter(([word, n]) => (got.get(word) ?? 0) < n)
    .map(([word, n]) => `${word}×${n - (got.get(word) ?? 0)}`);
}

// XML 1.0's Char production (no C0 controls but tab, newline, carriage return; no lone surrogates).
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** The text of a well-formed XML file; throws naming the file and the parser's complaint. */
function xmlText(name: string, source: string): string {
  const bad = NOT_XML.exec(source);
  if (bad) throw new Error(`${name}: character U+${bad[0].codePointAt(0)?.toString(16)} is not XML`);
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  }).parseFromString(source, 'text/xml');
  if (errors.length || !doc.documentElement) throw new Error(`${name}: ${errors.join('; ')}`);
  // Text nodes apart, so that two runs never make one word of two.
  const out: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3 || node.nodeType === 4) out.push(node.nodeValue ?? '');
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child);
  };
  walk(doc.documentElement as unknown as Node);
  return out.join('\n');
}

const XML_PART = /\.(xml|rels|xhtml|html|opf|ncx)$/;

/** The file's text: XML parts checked and read, LaTeX and Markdown as they are. */
function fileText(
  format: ExportFormatName,
  data: Uint8Array,
): { text: string; files: Record<string, string> } {
  if (format === 'markdown') {
    const text = strFromU8(data);
    return { text, files: { 'document.md': text } };
  }
  const files = Object.fromEntries(
    Object.entries(unzipSync(data))
      .filter(([name]) => XML_PART.test(name) || name.endsWith('.tex') || name.endsWith('.json'))
      .map(([name, bytes]) => [name, strFromU8(bytes)]),
  );
  const texts = Object.entries(files).map(([name, source]) =>
    XML_PART.test(name) ? xmlText(name, source) : source,
  );
  return { text: texts.join('\n'), files };
}

function count(text: string, pattern: RegExp): number {
  return (text.match(pattern) ?? []).length;
}

function citationNodes(doc: PMNode): PMNode[] {
  const found: PMNode[] = [];
  doc.forEach((part) => {
    if (part.attrs.hidden) return;
    part.descendants((node) => {
      if (node.type.name === 'citation') found.push(node);
      return true;
    });
  });
  return found;
}

/** How each format shows a citation: a pattern counted in its main file. */
const CITATION_MARKERS: Partial<Record<ExportFormatName, [string, RegExp]>> = {
  docx: ['word/', /ADDIN ZOTERO_ITEM CSL_CITATION/g],
  odt: ['content.xml', /<text:reference-mark-start text:name="ZOTERO_ITEM/g],
  html: ['index.html', /<span class="citation">/g],
  epub: ['EPUB/', /<span class="citation">/g],
};

const PARSED = new Set(RANDOM_EQUATIONS.slice(0, 5));

function cites(node: PMNode, entries: Set<string>): boolean {
  return (node.attrs.references as { id: string }[]).some((ref) => entries.has(ref.id));
}

/** The styles whose citations are notes: there a note of nothing but one citation is that citation. */
const NOTE_STYLES = new Set(['chicago-note-bibliography']);

/** The one citation a note holds and nothing else but spaces and a full stop (import/build.ts). */
function onlyCitation(note: PMNode): PMNode | null {
  if (note.childCount !== 1) return null;
  const citations: PMNode[] = [];
  let other = false;
  note.firstChild?.forEach((inline) => {
    if (inline.type.name === 'citation') citations.push(inline);
    else if (!inline.isText || !/^[\s.]*$/.test(inline.text ?? '')) other = true;
  });
  return citations.length === 1 && !other ? citations[0] : null;
}

/**
 * Counts of the nodes a round trip must keep (a cross-reference to nothing is its text). In a note
 * style a note of only a citation is counted as the citation: the file cannot tell it from the
 * note the style makes of a citation (as in Zotero's files), and it comes back as the citation,
 * which the style prints as the same note.
 */
function structure(doc: PMNode, style = ''): Record<string, number> {
  const counts: Record<string, number> = {};
  const entries = new Set<string>();
  doc.descendants((node) => {
    if (node.type.name === 'bib_entry') entries.add(String(node.attrs.id));
  });
  /** Written as something else on purpose, so not to come back as itself. */
  const standIn = (node: PMNode): boolean => {
    // A citation of entries that are gone is its visible keys.
    if (node.type.name === 'citation') return !cites(node, entries);
    // A figure whose image the reader may not see is a placeholder.
    const src = String(node.attrs.src ?? '');
    if (node.type.name === 'figure' && src.startsWith('/media/') && !RANDOM_IMAGES[src]) return true;
    // An equation that is empty or does not parse is written as its visible source.
    const math = node.type.name === 'equation' || (node.type.name === 'figure' && !src);
    return math && !PARSED.has(String(node.attrs.equation));
  };
  // What can be referred to: what is numbered (nothing inside a table is, as in the editor).
  const ids = new Set(numberDocument(doc).byId.keys());
  doc.descendants((node) => {
    if (node.attrs.id && standIn(node)) ids.delete(String(node.attrs.id));
  });
  const kept = ['heading', 'table', 'figure', 'equation', 'footnote', 'citation', 'cross_reference'];
  doc.forEach((part) => {
    if (part.attrs.hidden) return;
    part.descendants((node) => {
      if (node.type.name === 'cross_reference' && !ids.has(String(node.attrs.id))) return true;
      if (standIn(node)) return true;
      if (node.type.name === 'footnote' && NOTE_STYLES.has(style)) {
        // A citation of entries that are gone is its keys as text: the note stays a note.
        const cited = onlyCitation(node);
        if (cited && !standIn(cited)) return true;
      }
      if (kept.includes(node.type.name)) counts[node.type.name] = (counts[node.type.name] ?? 0) + 1;
      return true;
    });
  });
  return counts;
}

async function checkExports(doc: PMNode, style: string): Promise<void> {
  const input = randomInput(doc, csls.get(style) ?? null);
  const accepted = acceptedDocument(doc);
  for (const format of Object.keys(EXPORT_FORMATS) as ExportFormatName[]) {
    const spec = EXPORT_FORMATS[format] as { accepted?: boolean };
    const shown = spec.accepted ? accepted : doc;
    const file = await exportDocument(format, input, engines);
    const { text, files } = fileText(format, file.data);
    if (format === 'native') continue;
    expect(missingTokens(documentTokens(shown), tokens(text)), `${format}: words missing`).toEqual([]);
    const marker = CITATION_MARKERS[format];
    if (marker) {
      const [prefix, pattern] = marker;
      const found = Object.entries(files)
        .filter(([name]) => name.startsWith(prefix))
        .reduce((sum, [, source]) => sum + count(source, pattern), 0);
      expect(found, `${format}: citations`).toBe(citationNodes(shown).length);
    }
    if (format === 'docx' || format === 'odt') {
      const back = schema.nodeFromJSON(importDocument(file.data, `random.${format}`).content);
      expect(structure(back, style), `${format} imported again: structure`).toEqual(structure(doc, style));
      const words = documentTokens(back);
      const original = documentTokens(doc);
      expect(missingTokens(original, words), `${format} imported again: words lost`).toEqual([]);
      expect(missingTokens(words, original), `${format} imported again: words added`).toEqual([]);
    }
  }
}

describe('every export of every document the editor can make', () => {
  it('is made, well-formed, with its words and citations, and DOCX and ODT come back', async () => {
    await fc.assert(
      fc.asyncProperty(docSpec, fc.constantFrom(...STYLES), async (spec, style) => {
        await checkExports(buildDocument(spec), style);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 120_000);
});
