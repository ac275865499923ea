import type { Cluster, RenderedCitations } from '@scriptorium/common/bibliography/cluster-render';
import { type BibliographyLayout, DEFAULT_LAYOUT } from '@scriptorium/common/bibliography/layout';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import {
  assignTargetIds,
  bibliographyPart,
  documentBibliography,
  mathInputRules,
} from '@scriptorium/common/editor/academic-commands';
import type { CitationReference } from '@scriptorium/common/editor/academic-nodes';
import {
  documentLabel,
  missingCrossReferences,
  type Numbering,
  numberDocument,
} from '@scriptorium/common/editor/academic-numbering';
import { NUMBERED_HEADING_LEVELS } from '@scriptorium/common/editor/vocabulary';
import { inputRules } from 'prosemirror-inputrules';
import type { Node as PMNode } from 'prosemirror-model';
import { type EditorState, Plugin, PluginKey, type Transaction } from 'prosemirror-state';
import {
  AddMarkStep,
  AddNodeMarkStep,
  AttrStep,
  RemoveMarkStep,
  RemoveNodeMarkStep,
  ReplaceAroundStep,
  ReplaceStep,
} from 'prosemirror-transform';
import { Decoration, DecorationSet, type EditorView } from 'prosemirror-view';
import { CSL_LOCALES, cslLocaleFor } from '../../bibliography/csl/csl-assets';
import type { CitationAnswer, CitationRequest } from './citation-worker';

/**
 * The academic layer of the editor (issue 17): numbering of figures, tables, equations and
 * sections, the live texts of cross-references, and citations rendered with citeproc-js in a
 * worker. Everything reaches the node views as node decorations (their spec carries the text), so
 * a new numbering or a new rendering redraws exactly the nodes whose text changed.
 */

export interface RenderedState {
  /** The request these results answer (clusters in document order, entries, style, language). */
  signature: string;
  styleClass: string;
  citations: string[];
  /** Cluster signature -> text, for citations added since (until the next batch arrives). */
  bySignature: Map<string, string>;
  /** Note styles: a text citation's authors in the text, per cluster ('' for none). */
  authors?: string[];
  authorBySignature?: Map<string, string>;
  bibliography: string[];
  /** The style's layout of the bibliography (hanging indent, label column, spacing). */
  layout?: BibliographyLayout;
  failed: boolean;
}

export interface AcademicState {
  numbering: Numbering;
  clusters: Cluster[];
  signature: string;
  rendered: RenderedState | null;
  decorations: DecorationSet;
}

export const academicKey = new PluginKey<AcademicState>('academic');

/** The CSL locale of a document language (one of the shipped ones; English otherwise). */
export function documentCslLocale(language: string): string {
  if ((CSL_LOCALES as readonly string[]).includes(language)) return language;
  const primary = language.toLowerCase().split('-')[0];
  return cslLocaleFor(primary === 'pt' ? 'pt-br' : primary);
}

/** Signatures of citation nodes' attributes (kept: an unchanged citation keeps its attrs object). */
const signatures = new WeakMap<object, string>();
function clusterSignature(cluster: Cluster): string {
  let signature = signatures.get(cluster);
  if (signature === undefined) {
    signature = `${cluster.format}|${cluster.references.map((ref) => `${ref.id}:${ref.prefix ?? ''}:${ref.locator ?? ''}`).join(',')}`;
    signatures.set(cluster, signature);
  }
  return signature;
}

/**
 * The clusters of one textblock (with its footnotes), its citations (offset in the block's content
 * and node) and its footnotes' count, kept per node: ProseMirror keeps an unchanged paragraph as
 * the same object, so a change re-reads only the blocks it touched. `footnotes` of a cluster counts
 * the block's own footnotes begun before it.
 */
interface BlockCitations {
  clusters: Cluster[];
  /** The clusters' JSON without the brackets (a part of the request's signature). */
  json: string;
  citations: { offset: number; node: PMNode }[];
  footnotes: number;
}
const blockClusters = new WeakMap<PMNode, BlockCitations>();
function clustersOf(block: PMNode): BlockCitations {
  let known = blockClusters.get(block);
  if (!known) {
    const found: Cluster[] = [];
    const citations: BlockCitations['citations'] = [];
    let footnotes = 0;
    let footnoteEnd = -1;
    block.descendants((node, pos) => {
      if (node.type.name === 'footnote') {
        footnotes++;
        footnoteEnd = pos + node.nodeSize;
      }
      if (node.type.name === 'citation') {
        found.push({
          format: node.attrs.format === 'textcite' ? 'textcite' : 'autocite',
          references: node.attrs.references as CitationReference[],
          footnotes,
          inFootnote: pos < footnoteEnd,
        });
        citations.push({ offset: pos, node });
      }
      return true;
    });
    known = { clusters: found, json: JSON.stringify(found).slice(1, -1), citations, footnotes };
    blockClusters.set(block, known);
  }
  return known;
}

/** Calls `visit` with each textblock outside the bibliography and its position, in order. */
function eachTextblock(doc: PMNode, visit: (block: PMNode, pos: number) => void): void {
  doc.descendants((node, pos) => {
    if (node.type.name === 'bibliography_part') return false;
    if (node.isTextblock) {
      visit(node, pos);
      return false;
    }
    return true;
  });
}

/**
 * The document's clusters in order, each placed among the notes (note styles number them with the
 * footnotes), and their JSON (made block by block, without the brackets).
 */
function collectClusters(doc: PMNode): { clusters: Cluster[]; key: string } {
  const clusters: Cluster[] = [];
  let key = '';
  let footnotes = 0;
  eachTextblock(doc, (node) => {
    const block = clustersOf(node);
    if (block.clusters.length) {
      if (footnotes) {
        const placed = block.clusters.map((cluster) => ({
          ...cluster,
          footnotes: footnotes + (cluster.footnotes ?? 0),
        }));
        clusters.push(...placed);
        key += `${key ? ',' : ''}${JSON.stringify(placed).slice(1, -1)}`;
      } else {
        clusters.push(...block.clusters);
        key += `${key ? ',' : ''}${block.json}`;
      }
    }
    footnotes += block.footnotes;
  });
  return { clusters, key };
}

/**
 * The document's bibliography and its JSON, kept per bibliography part: ProseMirror keeps an
 * unchanged part as the same object, so typing elsewhere never copies or serialises the entries.
 */
const bibliographies = new WeakMap<PMNode, { entries: Map<string, EntryData>; json: string }>();
const NO_PART = { entries: new Map<string, EntryData>(), json: '[]' };
function bibliographyOf(doc: PMNode): { entries: Map<string, EntryData>; json: string } {
  const part = bibliographyPart(doc)?.node;
  if (!part) return NO_PART;
  let known = bibliographies.get(part);
  if (!known) {
    const entries = documentBibliography(doc);
    // Each entry's JSON on its own (CitationRequest.entries): the worker compares them as they are.
    known = {
      entries,
      json: JSON.stringify([...entries].map(([key, entry]) => [key, JSON.stringify(entry)])),
    };
    bibliographies.set(part, known);
  }
  return known;
}

function requestSignature(doc: PMNode, clustersKey: string): string {
  return `${JSON.stringify([doc.attrs.citationstyle, doc.attrs.language])}${clustersKey}${bibliographyOf(doc).json}`;
}

/** Nodes whose change moves a number, a reference's text, a citation or the bibliography. */
const ACADEMIC_NODES = new Set([
  'citation',
  'cross_reference',
  'figure',
  'table',
  'heading',
  'footnote',
  'bibliography_part',
  'bib_entry',
]);

function academicBetween(doc: PMNode, from: number, to: number, notes: boolean): boolean {
  let found = false;
  // Unnumbered headings (all, or those deeper than numbered) are referred to by their text, so
  // typing in one changes references.
  const none = doc.attrs.heading_numbering === 'none';
  doc.nodesBetween(from, to, (node, pos) => {
    if (found) return false;
    // A node around the whole change (the table or heading typed in) keeps its number.
    const around = pos < from && pos + node.nodeSize > to;
    // A note style lists the footnotes' texts with its notes.
    const byText =
      (node.type.name === 'heading' && (none || Number(node.attrs.level) > NUMBERED_HEADING_LEVELS)) ||
      (notes && node.type.name === 'footnote');
    if (ACADEMIC_NODES.has(node.type.name) && (!around || byText)) found = true;
    return !found;
  });
  return found;
}

/**
 * Whether a transaction may change numbering, citations or the bibliography (`notes`: in a note
 * style, whose list of notes shows the footnotes' text). Typing, deleting and formatting ordinary
 * text does not: then the decorations are only mapped (a keystroke in a
 * long paper does not walk the whole document).
 */
export function touchesAcademic(tr: Transaction, notes = false): boolean {
  return tr.steps.some((step, index) => {
    if (step instanceof AddMarkStep || step instanceof RemoveMarkStep)
      return notes && academicBetween(tr.docs[index], step.from, step.to, true);
    if (!(step instanceof ReplaceStep || step instanceof ReplaceAroundStep)) return true;
    const before = tr.docs[index];
    const after = tr.docs[index + 1] ?? tr.doc;
    let touched = false;
    step.getMap().forEach((oldStart, oldEnd, newStart, newEnd) => {
      touched ||=
        academicBetween(before, oldStart, oldEnd, notes) ||
        academicBetween(after, newStart, newEnd, notes) ||
        // A table's caption (a widget before it) maps to the start of what was put before it.
        after.resolve(newEnd).nodeAfter?.type.name === 'table';
    });
    return touched;
  });
}

export interface CitationDecoration {
  html: string;
  /** A note style's text citation: its authors, shown in the text before the note number. */
  author: string;
  missing: boolean;
  /** A note style: shown as a note number (CSS counter, shared with footnotes), the text listed. */
  note: boolean;
}

export interface BibliographyDecoration {
  heading: string;
  entries: string[];
  layout: BibliographyLayout;
  /** Note styles: the notes (citations and footnotes) in one numbering, each its text. */
  notes: { number: number; html: string }[];
}

/**
 * Decoration specs of equal content are one object: ProseMirror compares specs by identity, so a
 * rebuilt set with the same texts leaves every node view untouched, and updateDecorations keeps
 * every decoration whose spec is the same object.
 */
const specs = new Map<string, object>();
function internSpec<T extends object>(key: string, make: () => T): T {
  let spec = specs.get(key) as T | undefined;
  if (!spec) {
    if (specs.size > 10_000) specs.clear();
    spec = make();
    specs.set(key, spec);
  }
  return spec;
}
function citationSpec(citation: CitationDecoration): { citation: CitationDecoration } {
  return internSpec(
    `citation|${citation.note}|${citation.missing}|${citation.author}|${citation.html}`,
    () => ({
      citation,
    }),
  );
}
let bibliographySpec: { key: string; spec: { bibliography: unknown } } | null = null;

/** What the decorations of one node depend on besides the node (see nodeDecorations). */
interface DecorationContext {
  numbering: Numbering;
  rendered: RenderedState | null;
  /** The rendering when it answers this very document's request, else null. */
  current: RenderedState | null;
  /** The document's bibliography. */
  known: Map<string, EntryData>;
  language: string;
}

function decorationContext(doc: PMNode, state: Omit<AcademicState, 'decorations'>): DecorationContext {
  const { numbering, rendered } = state;
  return {
    numbering,
    rendered,
    current: rendered && rendered.signature === state.signature ? rendered : null,
    known: bibliographyOf(doc).entries,
    language: String(doc.attrs.language),
  };
}

/** A citation's text: this rendering's, or (a citation added since) that of its cluster. */
function citationHtml(context: DecorationContext, index: number, node?: PMNode): string {
  const { current, rendered } = context;
  if (current) return current.citations[index] ?? '';
  if (rendered && node) return rendered.bySignature.get(clusterSignature(node.attrs as Cluster)) ?? '';
  return '';
}

/** Whether `decoration` shows citation `node`, the `index`-th cluster, as it is now (not a note). */
function sameCitation(
  context: DecorationContext,
  node: PMNode,
  index: number,
  decoration: Decoration,
): boolean {
  const shown = (decoration.spec as { citation: CitationDecoration }).citation;
  if (shown.note || shown.author || shown.html !== citationHtml(context, index, node)) return false;
  const references = node.attrs.references as CitationReference[];
  return shown.missing === references.some((ref) => !context.known.has(ref.id));
}

/** The decoration of citation `node`, the `index`-th cluster of the document. */
function citationDecoration(
  context: DecorationContext,
  node: PMNode,
  pos: number,
  index: number,
  note: boolean,
): Decoration {
  const { current, rendered, known } = context;
  const references = node.attrs.references as CitationReference[];
  const missing = references.some((ref) => !known.has(ref.id));
  const html = citationHtml(context, index, node);
  let author = '';
  if (current) author = current.authors?.[index] ?? '';
  else if (rendered) author = rendered.authorBySignature?.get(clusterSignature(node.attrs as Cluster)) ?? '';
  return Decoration.node(
    pos,
    pos + node.nodeSize,
    {},
    citationSpec({ html, author: note ? author : '', missing, note }),
  );
}

/**
 * The decorations of one node other than a citation and the bibliography (those depend on more
 * than the numbering): a figure's or table's label (and a table's caption), a heading's number,
 * a cross-reference's text. `numbering` must have been made from this document.
 */
function numberedDecorations(node: PMNode, pos: number, context: DecorationContext): Decoration[] {
  const { numbering } = context;
  const name = node.type.name;
  if (name === 'figure' || name === 'table') {
    const target = numbering.byPos.get(pos);
    const label = target?.label ?? '';
    const decorations = [
      Decoration.node(
        pos,
        pos + node.nodeSize,
        {},
        internSpec(`label|${label}`, () => ({ label })),
      ),
    ];
    if (name === 'table' && (node.attrs.caption || target))
      decorations.push(
        Decoration.widget(pos, () => tableCaption(target?.label ?? '', String(node.attrs.caption)), {
          key: `caption:${target?.label}:${node.attrs.caption}`,
          side: -1,
        }),
      );
    return decorations;
  }
  if (name === 'heading') {
    // Its number before the text (CSS `::before` from data-number: no text of the document).
    const display = numbering.byPos.get(pos)?.display ?? '';
    if (!display) return [];
    return [
      Decoration.node(
        pos,
        pos + node.nodeSize,
        { 'data-number': display },
        internSpec(`number|${display}`, () => ({})),
      ),
    ];
  }
  if (name === 'cross_reference') {
    const target = numbering.byId.get(String(node.attrs.id));
    const label = target?.label ?? null;
    return [
      Decoration.node(
        pos,
        pos + node.nodeSize,
        {},
        internSpec(`reference|${label}`, () => ({ label, missing: !target })),
      ),
    ];
  }
  return [];
}

function bibliographyDecoration(
  context: DecorationContext,
  part: PMNode,
  pos: number,
  notes: BibliographyDecoration['notes'],
): Decoration {
  const { rendered, language } = context;
  const bibliography: BibliographyDecoration = {
    heading: documentLabel('bibliography', language),
    entries: rendered?.bibliography ?? [],
    layout: rendered?.layout ?? DEFAULT_LAYOUT,
    notes,
  };
  const key = JSON.stringify(bibliography);
  if (bibliographySpec?.key !== key) bibliographySpec = { key, spec: { bibliography } };
  return Decoration.node(pos, pos + part.nodeSize, {}, bibliographySpec.spec);
}

/** Nodes whose own content may hold decorated nodes (a figure, citation or reference holds none). */
const descends = (name: string) =>
  name !== 'figure' && name !== 'citation' && name !== 'cross_reference' && name !== 'bibliography_part';

/** The decorations of the academic layer, in document order. */
function wantedDecorations(doc: PMNode, state: Omit<AcademicState, 'decorations'>): Decoration[] {
  const decorations: Decoration[] = [];
  const context = decorationContext(doc, state);
  const { rendered } = state;
  let citationIndex = 0;
  const noteStyle = rendered?.styleClass === 'note';
  let notes = 0;
  let footnoteEnd = 0;
  const noteTexts: BibliographyDecoration['notes'] = [];
  let bibliographyAt = null as { node: PMNode; pos: number } | null;
  doc.descendants((node, pos) => {
    const name = node.type.name;
    if (name === 'footnote') {
      // One numbering for footnotes and note-style citations (CSS counter `footnote`); a
      // citation inside a footnote is part of that note, not one of its own. What is inside
      // gets its decorations too: the footnote's editor shows them. A note style's list of
      // notes holds the footnotes too, in their place.
      notes++;
      footnoteEnd = pos + node.nodeSize;
      if (noteStyle) {
        const first = citationIndex;
        noteTexts.push({
          number: notes,
          html: footnoteHtml(node, (index) => citationHtml(context, first + index)),
        });
      }
    } else if (name === 'citation') {
      const index = citationIndex++;
      const note = noteStyle && pos >= footnoteEnd;
      const decoration = citationDecoration(context, node, pos, index, note);
      if (note)
        noteTexts.push({
          number: ++notes,
          html: (decoration.spec as { citation: CitationDecoration }).citation.html,
        });
      decorations.push(decoration);
    } else if (name === 'bibliography_part') bibliographyAt = { node, pos };
    else decorations.push(...numberedDecorations(node, pos, context));
    return descends(name);
  });
  if (bibliographyAt)
    decorations.push(bibliographyDecoration(context, bibliographyAt.node, bibliographyAt.pos, noteTexts));
  return decorations;
}

const byPlace = (a: Decoration, b: Decoration) => a.from - b.from || a.to - b.to;

/** Two decorations that draw the same: same place, same spec object (widgets: same key). */
function sameDecoration(a: Decoration, b: Decoration): boolean {
  if (a.from !== b.from || a.to !== b.to) return false;
  if (a.spec === b.spec) return true;
  return a.from === a.to && a.spec.key !== undefined && a.spec.key === b.spec.key;
}

/**
 * The set of `wanted`, made from `previous` (already mapped to `doc`) by removing and adding only
 * the decorations that differ: unchanged parts of the set stay the same objects, so the view
 * skips them, and nothing is rebuilt when nothing changed. The result equals
 * DecorationSet.create(doc, wanted).
 */
export function updateDecorations(
  doc: PMNode,
  previous: DecorationSet | null,
  wanted: Decoration[],
): DecorationSet {
  if (!previous) return DecorationSet.create(doc, wanted);
  // Both lists in the order of their places, walked side by side: the decorations of one place
  // are matched among themselves (a long paper has thousands, and this runs on every render).
  const old = previous.find().sort(byPlace);
  const want = wanted.slice().sort(byPlace);
  const added: Decoration[] = [];
  const removed: Decoration[] = [];
  let i = 0;
  let j = 0;
  while (j < want.length) {
    const place = want[j];
    while (i < old.length && byPlace(old[i], place) < 0) removed.push(old[i++]);
    const here: Decoration[] = [];
    while (i < old.length && byPlace(old[i], place) === 0) here.push(old[i++]);
    for (; j < want.length && byPlace(want[j], place) === 0; j++) {
      const index = here.findIndex((decoration) => sameDecoration(decoration, want[j]));
      if (index >= 0) here.splice(index, 1);
      else added.push(want[j]);
    }
    removed.push(...here);
  }
  while (i < old.length) removed.push(old[i++]);
  if (!added.length && !removed.length) return previous;
  return previous.remove(removed).add(doc, added);
}

/**
 * The number footnote `pos` shows: its place among the document's notes, which in a note style
 * (Chicago notes) include the citations outside footnotes.
 */
export function noteNumber(state: EditorState, pos: number | undefined): number {
  const noteStyle = academicKey.getState(state)?.rendered?.styleClass === 'note';
  let number = 0;
  let found = 0;
  state.doc.descendants((node, at) => {
    if (found) return false;
    const name = node.type.name;
    if (name === 'footnote' || (noteStyle && name === 'citation')) {
      number++;
      if (at === pos) found = number;
      return false;
    }
    return true;
  });
  return found || number;
}

const NOTE_MARKS: Record<string, [string, string]> = {
  em: ['<i>', '</i>'],
  strong: ['<b>', '</b>'],
  sup: ['<sup>', '</sup>'],
  sub: ['<sub>', '</sub>'],
  code: ['<code>', '</code>'],
};
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A footnote's text as HTML for a note style's list of notes: its paragraphs with their simple
 * marks, its citations' texts (`citation(n)`: its n-th), an equation as its source.
 */
export function footnoteHtml(footnote: PMNode, citation: (index: number) => string): string {
  let cited = 0;
  const paragraphs: string[] = [];
  footnote.forEach((paragraph) => {
    let out = '';
    paragraph.forEach((child) => {
      let html = '';
      if (child.isText) html = escapeHtml(child.text ?? '');
      else if (child.type.name === 'citation') html = citation(cited++);
      else if (child.type.name === 'equation') html = escapeHtml(String(child.attrs.equation));
      for (const mark of child.marks) {
        if (mark.type.name === 'deletion') html = '';
        const tags = NOTE_MARKS[mark.type.name];
        if (tags && child.isText) html = `${tags[0]}${html}${tags[1]}`;
      }
      out += html;
    });
    paragraphs.push(out);
  });
  return paragraphs.join(' ');
}

function tableCaption(label: string, caption: string): HTMLElement {
  const element = document.createElement('div');
  element.className = 'doc-table-caption';
  element.contentEditable = 'false';
  const strong = element.appendChild(document.createElement('strong'));
  strong.textContent = caption ? `${label}: ` : label;
  element.append(caption);
  return element;
}

/**
 * The academic state of `doc` from scratch, except that the decorations are made by changing
 * `previous` (mapped to `doc`) where they differ.
 */
export function deriveAcademic(
  doc: PMNode,
  rendered: RenderedState | null,
  previous: DecorationSet | null = null,
): AcademicState {
  const numbering = numberDocument(doc);
  const { clusters, key } = collectClusters(doc);
  const base = { numbering, clusters, signature: requestSignature(doc, key), rendered };
  return { ...base, decorations: updateDecorations(doc, previous, wantedDecorations(doc, base)) };
}

/** Whether two numberings give every numbered node and every reference the same text. */
function sameNumbers(a: Numbering, b: Numbering): boolean {
  if (a.byPos.size !== b.byPos.size || a.byId.size !== b.byId.size) return false;
  const left = [...a.byPos.values()];
  const right = [...b.byPos.values()];
  if (left.some((target, i) => target.label !== right[i].label || target.display !== right[i].display))
    return false;
  for (const [id, target] of a.byId) if (b.byId.get(id)?.label !== target.label) return false;
  return true;
}

const NUMBERED = new Set(['heading', 'figure', 'table']);
const CLUSTERED = new Set(['citation', 'footnote']);
const BIBLIOGRAPHY = new Set(['bib_entry', 'bibliography_part']);

/** Steps whose effect on the academic layer is known: text and node replacements, marks, attributes. */
function incrementalStep(step: unknown): boolean {
  return (
    step instanceof ReplaceStep ||
    step instanceof ReplaceAroundStep ||
    step instanceof AttrStep ||
    step instanceof AddMarkStep ||
    step instanceof RemoveMarkStep ||
    step instanceof AddNodeMarkStep ||
    step instanceof RemoveNodeMarkStep
  );
}

/**
 * The ranges of the new document that a transaction replaced or whose node attributes it set,
 * merged and in order, and the names of the nodes it removed or changed in the documents before
 * each step (a heading typed in counts: its text is its reference when headings are unnumbered).
 */
function changedRanges(tr: Transaction): { ranges: [number, number][]; removed: Set<string> } {
  let ranges: [number, number][] = [];
  const removed = new Set<string>();
  tr.steps.forEach((step, index) => {
    const map = step.getMap();
    ranges = ranges.map(([from, to]) => [map.map(from, -1), Math.max(map.map(from, -1), map.map(to, 1))]);
    const before = tr.docs[index];
    if (step instanceof AttrStep) {
      const node = before.nodeAt(step.pos);
      if (node) {
        removed.add(node.type.name);
        ranges.push([step.pos, step.pos + node.nodeSize]);
      }
      return;
    }
    if (!(step instanceof ReplaceStep || step instanceof ReplaceAroundStep)) return;
    map.forEach((oldStart, oldEnd, newStart, newEnd) => {
      ranges.push([newStart, newEnd]);
      before.nodesBetween(oldStart, oldEnd, (node, pos) => {
        const around = pos < oldStart && pos + node.nodeSize > oldEnd;
        if (!around || node.type.name === 'heading') removed.add(node.type.name);
        return true;
      });
    });
  });
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of ranges) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return { ranges: merged, removed };
}

/**
 * The academic state after `tr`, worked out from what it changed (null: derive it anew). The
 * decorations are mapped; the nodes in the changed ranges get theirs anew; the numbering is made
 * again only when a heading, figure or table changed, and then only the nodes whose number or
 * reference text moved are redrawn; the clusters are read again only when a citation or a
 * footnote changed, and then the citations are walked in the decoration set (no walk of the
 * document's text). Note styles (each note numbered among the footnotes) are derived anew.
 */
export function applyIncremental(
  tr: Transaction | null,
  value: AcademicState,
  rendered: RenderedState | null,
  doc: PMNode,
): AcademicState | null {
  if (rendered?.styleClass === 'note' || value.rendered?.styleClass === 'note') return null;
  if (tr && !tr.steps.every(incrementalStep)) return null;
  const { ranges, removed } = tr ? changedRanges(tr) : { ranges: [], removed: new Set<string>() };
  const mapped = tr ? value.decorations.map(tr.mapping, doc) : value.decorations;
  // The nodes in the changed ranges (each from its start), and what they are.
  const redraw = new Map<number, PMNode>();
  const stale: Decoration[] = [];
  const names = new Set(removed);
  const end = doc.content.size;
  for (const [from, to] of ranges) {
    for (const decoration of mapped.find(from, to)) if (decoration.from >= from) stale.push(decoration);
    doc.nodesBetween(from, Math.min(to + 1, end), (node, pos) => {
      const name = node.type.name;
      if (pos >= from) {
        names.add(name);
        redraw.set(pos, node);
      } else if (name === 'heading' || name === 'table') {
        // Around the change: its decoration is gone when the change took its start (a join).
        names.add(name);
        redraw.set(pos, node);
      }
      return true;
    });
  }
  const touches = (set: Set<string>) => [...set].some((name) => names.has(name));
  let numbering = value.numbering;
  if (touches(NUMBERED)) {
    numbering = numberDocument(doc);
    if (!sameNumbers(value.numbering, numbering)) {
      for (const target of numbering.byPos.values()) {
        const node = doc.nodeAt(target.pos);
        if (node) redraw.set(target.pos, node);
      }
      for (const decoration of mapped.find(
        undefined,
        undefined,
        (spec) => 'missing' in spec && 'label' in spec,
      )) {
        const node = doc.nodeAt(decoration.from);
        if (node) redraw.set(decoration.from, node);
      }
    }
  }
  let { clusters, signature } = value;
  const bibliographyChanged = touches(BIBLIOGRAPHY);
  if (touches(CLUSTERED) || bibliographyChanged) {
    const collected = collectClusters(doc);
    signature = requestSignature(doc, collected.key);
    if (signature !== value.signature) clusters = collected.clusters;
  }
  const base = { numbering, clusters, signature, rendered };
  const context = decorationContext(doc, base);
  // Citations: each one's text may follow from its place among the clusters. A walk of blocks,
  // each block's citations kept with it.
  const citations = new Map<number, number>();
  const citationDecorations = new Map<number, Decoration>();
  if (
    rendered !== value.rendered ||
    signature !== value.signature ||
    bibliographyChanged ||
    names.has('citation')
  ) {
    for (const decoration of mapped.find(undefined, undefined, (spec) => 'citation' in spec))
      citationDecorations.set(decoration.from, decoration);
    let index = 0;
    eachTextblock(doc, (block, pos) => {
      for (const { offset, node } of clustersOf(block).citations) {
        citations.set(pos + 1 + offset, index++);
        redraw.set(pos + 1 + offset, node);
      }
    });
  }
  if (rendered !== value.rendered || bibliographyChanged) {
    const part = bibliographyPart(doc);
    if (part) redraw.set(part.pos, part.node);
  }
  const added: Decoration[] = [];
  const gone: Decoration[] = [];
  const staleAt = new Map<number, Decoration[]>();
  for (const decoration of stale) {
    const here = staleAt.get(decoration.from);
    if (here) here.push(decoration);
    else staleAt.set(decoration.from, [decoration]);
  }
  for (const [pos, node] of redraw) {
    const name = node.type.name;
    let wanted: Decoration[];
    if (name === 'citation') {
      const index = citations.get(pos);
      const known = citationDecorations.get(pos);
      if (index !== undefined && known && !staleAt.has(pos) && sameCitation(context, node, index, known))
        continue;
      wanted = index === undefined ? [] : [citationDecoration(context, node, pos, index, false)];
    } else if (name === 'bibliography_part') wanted = [bibliographyDecoration(context, node, pos, [])];
    else wanted = numberedDecorations(node, pos, context);
    const known = citationDecorations.get(pos);
    const old =
      staleAt.get(pos) ??
      (known ? [known] : mapped.find(pos, pos).filter((decoration) => decoration.from === pos));
    staleAt.delete(pos);
    for (const decoration of wanted) {
      const index = old.findIndex((known) => sameDecoration(known, decoration));
      if (index >= 0) old.splice(index, 1);
      else added.push(decoration);
    }
    gone.push(...old);
  }
  for (const left of staleAt.values()) gone.push(...left);
  // In order: DecorationSet.add checks each against the document with a cursor that only moves on.
  added.sort(byPlace);
  const decorations = added.length || gone.length ? mapped.remove(gone).add(doc, added) : mapped;
  return { ...base, decorations };
}

/**
 * Citations are rendered again at once after a quiet spell (a citation inserted, a style chosen),
 * then at most once per this many milliseconds while changes keep coming (one batch per burst).
 */
const RENDER_DELAY_MS = 120;

let worker: Worker | null = null;
let nextRequest = 1;
function citationWorker(): Worker | null {
  // No workers (an old browser, a test DOM): citations show their keys, the rest still works.
  if (typeof Worker === 'undefined') return null;
  worker ??= new Worker(new URL('./citation-worker.ts', import.meta.url), { type: 'module' });
  return worker;
}

// The worker's script (citeproc and the entry converter, about 850 KB) is fetched and compiled
// while the rest of the editor and the document load, instead of after the document arrived.
citationWorker();

function citationRequest(requestId: number, doc: PMNode, clusters: Cluster[]): CitationRequest {
  return {
    requestId,
    style: String(doc.attrs.citationstyle),
    locale: documentCslLocale(String(doc.attrs.language)),
    entries: bibliographyOf(doc).json,
    clusters,
  };
}

/** How many editor views render citations now. */
let liveRenderers = 0;

/**
 * Starts rendering a new state's citations in the worker (requestId 0: no answer) while the page
 * is still building the editor view on the main thread; the view's first request, the same one,
 * is then answered at once from the worker's last rendering.
 */
function warmCitations(doc: PMNode, clusters: Cluster[]): void {
  // A state made while a view shows the document (a rebase after reconnecting) needs none: the
  // view asks for what it shows.
  if (clusters.length && !liveRenderers) citationWorker()?.postMessage(citationRequest(0, doc, clusters));
}

/**
 * An answer that comes while the user types (a key pressed since its request was sent, the last
 * one less than TYPING_PAUSE_MS ago) waits for a pause, at most ANSWER_HOLD_MAX_MS: drawing the
 * citations and the bibliography again is a task of about 20 ms that would hold up a keystroke.
 */
export const TYPING_PAUSE_MS = 250;
const ANSWER_HOLD_MAX_MS = 2000;

/** Sends the document's citations to the worker whenever they changed, and feeds the answer back. */
class CitationRenderer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private held: ReturnType<typeof setTimeout> | null = null;
  private sent = '';
  private sentAt = Number.NEGATIVE_INFINITY;
  private keyAt = Number.NEGATIVE_INFINITY;
  private pending = 0;
  private readonly listener = (event: MessageEvent<CitationAnswer>) => this.answer(event.data);
  private readonly keydown = () => {
    this.keyAt = performance.now();
  };
  private readonly signatures = new Map<number, { signature: string; clusters: Cluster[] }>();

  constructor(private readonly view: EditorView) {
    citationWorker()?.addEventListener('message', this.listener);
    // Capture: the keys of a footnote's own editor count too.
    view.dom.addEventListener('keydown', this.keydown, true);
    liveRenderers++;
    this.update();
  }

  update(): void {
    const state = academicKey.getState(this.view.state);
    if (!state || state.signature === this.sent) return;
    if (this.timer) return;
    const wait = Math.max(0, this.sentAt + RENDER_DELAY_MS - performance.now());
    // After a quiet spell the request goes at once, not after the next frame (the worker renders
    // while the page paints). A document without citations is answered here, which dispatches:
    // never from inside the view's update.
    if (wait === 0 && state.clusters.length) this.send();
    else this.timer = setTimeout(() => this.send(), wait);
  }

  private send(): void {
    this.timer = null;
    const state = academicKey.getState(this.view.state);
    if (!state || this.view.isDestroyed) return;
    this.sent = state.signature;
    this.sentAt = performance.now();
    const doc = this.view.state.doc;
    if (!state.clusters.length) {
      this.apply(
        state.signature,
        state.clusters,
        { styleClass: 'in-text', citations: [], bibliography: [], authors: [], layout: DEFAULT_LAYOUT },
        false,
      );
      return;
    }
    const requestId = nextRequest++;
    this.pending = requestId;
    this.signatures.set(requestId, { signature: state.signature, clusters: state.clusters });
    citationWorker()?.postMessage(citationRequest(requestId, doc, state.clusters));
  }

  private answer(data: CitationAnswer): void {
    const request = this.signatures.get(data.requestId);
    if (!request) return;
    this.signatures.delete(data.requestId);
    // A failed rendering keeps what was shown before (the texts of the clusters it knew).
    if (!data.ok) return;
    const arrived = performance.now();
    const deliver = () => {
      this.held = null;
      // Only the latest request counts; an older answer would flash old texts.
      if (data.requestId !== this.pending || this.view.isDestroyed) return;
      const now = performance.now();
      const typing = this.keyAt > this.sentAt && now - this.keyAt < TYPING_PAUSE_MS;
      if (typing && now - arrived < ANSWER_HOLD_MAX_MS)
        this.held = setTimeout(deliver, TYPING_PAUSE_MS - (now - this.keyAt));
      else this.apply(request.signature, request.clusters, data, false);
    };
    deliver();
  }

  private apply(
    signature: string,
    clusters: Cluster[],
    data: Pick<RenderedCitations, 'citations' | 'bibliography'> &
      Partial<Pick<RenderedCitations, 'authors' | 'layout'>> & { styleClass: string },
    failed: boolean,
  ): void {
    const bySignature = new Map<string, string>();
    const authorBySignature = new Map<string, string>();
    clusters.forEach((cluster, index) => {
      const key = clusterSignature(cluster);
      if (!bySignature.has(key)) bySignature.set(key, data.citations[index] ?? '');
      if (!authorBySignature.has(key)) authorBySignature.set(key, data.authors?.[index] ?? '');
    });
    const rendered: RenderedState = {
      signature,
      styleClass: data.styleClass,
      citations: data.citations,
      bibliography: data.bibliography,
      authors: data.authors ?? [],
      layout: data.layout ?? DEFAULT_LAYOUT,
      bySignature,
      authorBySignature,
      failed,
    };
    this.view.dispatch(this.view.state.tr.setMeta(academicKey, rendered).setMeta('addToHistory', false));
  }

  destroy(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.held) clearTimeout(this.held);
    citationWorker()?.removeEventListener('message', this.listener);
    this.view.dom.removeEventListener('keydown', this.keydown, true);
    liveRenderers--;
  }
}

/** Whether a step may add a figure or table, or change one's id (then ids are checked). */
function mayAddTarget(step: unknown): boolean {
  if (step instanceof AddMarkStep || step instanceof RemoveMarkStep) return false;
  if (!(step instanceof ReplaceStep || step instanceof ReplaceAroundStep)) return true;
  let found = false;
  step.slice.content.descendants((node) => {
    found ||= node.type.name === 'figure' || node.type.name === 'table';
    return !found && !node.isTextblock;
  });
  return found;
}

/** Numbering, cross-reference texts and rendered citations, as decorations for the node views. */
export function academicPlugins(): Plugin[] {
  const state = new Plugin<AcademicState>({
    key: academicKey,
    state: {
      init: (_config, editorState: EditorState) => {
        const value = deriveAcademic(editorState.doc, null);
        warmCitations(editorState.doc, value.clusters);
        return value;
      },
      apply: (tr, value, _old, editorState) => {
        const rendered = tr.getMeta(academicKey) as RenderedState | undefined;
        if (!tr.docChanged && !rendered) return value;
        const mapped = value.decorations.map(tr.mapping, tr.doc);
        if (!rendered && !touchesAcademic(tr, value.rendered?.styleClass === 'note'))
          return { ...value, decorations: mapped };
        return (
          applyIncremental(tr.docChanged ? tr : null, value, rendered ?? value.rendered, editorState.doc) ??
          deriveAcademic(editorState.doc, rendered ?? value.rendered, mapped)
        );
      },
    },
    props: { decorations: (editorState) => academicKey.getState(editorState)?.decorations },
    view: (view) => new CitationRenderer(view),
    // Figures and tables made here (or pasted) get ids; remote steps are left to their authors.
    // Typing, which can make no figure or table, does not walk the document's blocks for them.
    appendTransaction: (transactions, _old, editorState) => {
      if (!transactions.some((tr) => tr.docChanged && !tr.getMeta('collab$') && tr.steps.some(mayAddTarget)))
        return null;
      return assignTargetIds(editorState);
    },
  });
  return [state, inputRules({ rules: mathInputRules() })];
}

/** Cross-references whose target is gone, for the Tools dialog. */
export function brokenReferences(state: EditorState) {
  const academic = academicKey.getState(state);
  return missingCrossReferences(state.doc, academic?.numbering);
}

export { clusterSignature };
