import { InputRule } from 'prosemirror-inputrules';
import type { Node as PMNode } from 'prosemirror-model';
import {
  type Command,
  type EditorState,
  NodeSelection,
  TextSelection,
  type Transaction,
} from 'prosemirror-state';
import type { EntryData } from '../bibliography/types';
import type { CitationFormat, CitationReference, CrossReferenceForm, FigureCategory } from './academic-nodes';
import { allows, partAt } from './commands';
import { isAside, schema } from './schema';
import { templateUpgrades } from './templates';

/**
 * Commands and input rules of the academic nodes (issue 17): state in, transaction out, each
 * refusing what the part under the selection does not allow.
 */

/** A new id for figures and tables (headings have theirs from assignHeadingIds). */
export function newTargetId(prefix: 'F' | 'T'): string {
  return `${prefix}${Math.random().toString(36).slice(2, 10)}`;
}

/** Whether the selection is inside an aside (a note): no figure goes there. */
function inAside(state: EditorState): boolean {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) if (isAside($from.node(depth))) return true;
  return false;
}

/** Whether an inline academic node may go at the selection (a note's own editor has no part). */
function allowsInline(state: EditorState, element: 'equation' | 'citation' | 'cross_reference'): boolean {
  const { $from } = state.selection;
  const type = schema.nodes[element];
  if (!$from.parent.canReplaceWith($from.index(), $from.index(), type)) return false;
  // A note's own editor holds only the note: what the outer part allows was checked there.
  if (state.doc.type.name !== 'doc') return true;
  return partAt($from) !== null && allows(state, element);
}

function insertInline(element: 'equation' | 'citation' | 'cross_reference', node: PMNode): Command {
  return (state, dispatch) => {
    if (!allowsInline(state, element)) return false;
    if (dispatch) dispatch(state.tr.replaceSelectionWith(node, false).scrollIntoView());
    return true;
  };
}

/** An inline equation, or the selected one's LaTeX replaced. */
export function insertEquation(latex: string): Command {
  return (state, dispatch) => {
    const selected = selectedNode(state, 'equation');
    if (selected) {
      if (dispatch) dispatch(state.tr.setNodeAttribute(selected.pos, 'equation', latex));
      return true;
    }
    return insertInline('equation', schema.nodes.equation.create({ equation: latex }))(state, dispatch);
  };
}

/** A display equation: a numbered figure of category equation. */
export function insertDisplayEquation(latex: string): Command {
  return insertFigure({ category: 'equation', equation: latex });
}

export interface FigureInput {
  category: FigureCategory;
  image?: number;
  src?: string;
  equation?: string;
  caption?: string;
  aligned?: string;
  width?: number;
}

/** A figure after the current block (or replacing the selected figure's attributes). */
export function insertFigure(input: FigureInput): Command {
  return (state, dispatch) => {
    if (inAside(state) || !allows(state, 'figure')) return false;
    const selected = selectedNode(state, 'figure');
    if (selected) {
      if (dispatch) {
        const tr = state.tr;
        for (const [key, value] of Object.entries(input))
          if (value !== undefined) tr.setNodeAttribute(selected.pos, key, value);
        dispatch(tr);
      }
      return true;
    }
    const figure = schema.nodes.figure.create({ ...input, id: newTargetId('F') });
    if (dispatch) dispatch(afterBlock(state.tr.replaceSelectionWith(figure, false)).scrollIntoView());
    return true;
  };
}

/** Puts the cursor after a block just inserted (adding a paragraph when none follows), so typing goes on. */
function afterBlock(tr: Transaction): Transaction {
  const { selection } = tr;
  if (!(selection instanceof NodeSelection)) return tr;
  const end = selection.to;
  const $end = tr.doc.resolve(end);
  const next = $end.nodeAfter;
  if (!next?.isTextblock) tr.insert(end, schema.nodes.paragraph.create());
  return tr.setSelection(TextSelection.create(tr.doc, end + 1));
}

export function insertCrossReference(
  id: string,
  title: string,
  form: CrossReferenceForm = 'number',
): Command {
  return insertInline('cross_reference', schema.nodes.cross_reference.create({ id, title, form }));
}

export function selectedNode(state: EditorState, type: string): { node: PMNode; pos: number } | null {
  const { selection } = state;
  if (selection instanceof NodeSelection && selection.node.type.name === type)
    return { node: selection.node, pos: selection.from };
  return null;
}

/** The bibliography part, or null before the first citation. */
export function bibliographyPart(doc: PMNode): { node: PMNode; pos: number } | null {
  let found: { node: PMNode; pos: number } | null = null;
  doc.forEach((node, offset) => {
    if (node.type.name === 'bibliography_part') found = { node, pos: offset };
  });
  return found;
}

/** The document's bibliography: key -> entry (the first copy wins when two authors added one). */
export function documentBibliography(doc: PMNode): Map<string, EntryData> {
  const entries = new Map<string, EntryData>();
  bibliographyPart(doc)?.node.forEach((entry) => {
    const id = String(entry.attrs.id);
    if (!entries.has(id)) entries.set(id, entry.attrs.data as EntryData);
  });
  return entries;
}

/** Copies entries into the document's bibliography (creating it at the end), skipping known ones. */
export function addToBibliography(tr: Transaction, entries: ReadonlyMap<string, EntryData>): Transaction {
  const known = documentBibliography(tr.doc);
  const fresh = [...entries].filter(([id]) => !known.has(id));
  if (!fresh.length) return tr;
  const nodes = fresh.map(([id, data]) => schema.nodes.bib_entry.create({ id, data }));
  const part = bibliographyPart(tr.doc);
  if (part) tr.insert(part.pos + part.node.nodeSize - 1, nodes);
  else tr.insert(tr.doc.content.size, schema.nodes.bibliography_part.create(null, nodes));
  return tr;
}

/** Replaces the document's copies of these entries (the owner's "update from library"). */
export function replaceInBibliography(tr: Transaction, entries: ReadonlyMap<string, EntryData>): Transaction {
  const part = bibliographyPart(tr.doc);
  if (!part) return tr;
  part.node.forEach((entry, offset) => {
    const data = entries.get(String(entry.attrs.id));
    if (data) tr.setNodeAttribute(part.pos + 1 + offset, 'data', data);
  });
  return tr;
}

/** JSON with sorted keys: the same entry compares equal whichever order its fields came in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * The document's copies of the owner's entries that differ from the owner's library now (what
 * "update from library" replaces): key `<owner>-<entry id>` -> the library's entry. Entries other
 * authors copied, and entries deleted from the library since, are left as they are.
 */
export function libraryUpdates(
  doc: PMNode,
  owner: number,
  library: readonly (EntryData & { id: number })[],
): Map<string, EntryData> {
  const byKey = new Map(library.map((entry) => [`${owner}-${entry.id}`, entry]));
  const updates = new Map<string, EntryData>();
  for (const [key, copy] of documentBibliography(doc)) {
    const entry = byKey.get(key);
    if (!entry) continue;
    const data: EntryData = {
      entry_key: entry.entry_key,
      bib_type: entry.bib_type,
      fields: entry.fields,
      cats: [],
    };
    const same = (e: EntryData) => canonicalJson([e.entry_key, e.bib_type, e.fields]);
    if (same(copy) !== same(data)) updates.set(key, data);
  }
  return updates;
}

/**
 * A citation of one or more entries, which are copied into the document's bibliography in the
 * same transaction (so undo takes both back, and co-authors get both at once). `replace` is a
 * range to replace, e.g. the `@` that opened the picker.
 */
export function insertCitation(
  format: CitationFormat,
  references: CitationReference[],
  entries: ReadonlyMap<string, EntryData>,
  replace?: { from: number; to: number },
): Command {
  return (state, dispatch) => {
    if (!references.length) return false;
    const citation = schema.nodes.citation.create({ format, references });
    const selected = selectedNode(state, 'citation');
    if (!selected && !allowsInline(state, 'citation')) return false;
    if (dispatch) {
      const tr = state.tr;
      if (selected) tr.setNodeMarkup(selected.pos, null, { format, references });
      else if (replace) tr.replaceWith(replace.from, replace.to, citation);
      else tr.replaceSelectionWith(citation, false);
      dispatch(addToBibliography(tr, entries).scrollIntoView());
    }
    return true;
  };
}

/** The document setting of the citation style. */
export function setCitationStyle(style: string): Command {
  return (state, dispatch) => {
    if (!/^[a-z0-9-]+$/.test(style) || state.doc.attrs.citationstyle === style) return false;
    if (dispatch) dispatch(state.tr.setDocAttribute('citationstyle', style));
    return true;
  };
}

export function setTableCaption(caption: string): Command {
  return (state, dispatch) => {
    const { $from } = state.selection;
    for (let depth = $from.depth; depth > 0; depth--) {
      const node = $from.node(depth);
      if (node.type.name === 'table') {
        if (dispatch) {
          const pos = $from.before(depth);
          const tr = state.tr.setNodeAttribute(pos, 'caption', caption);
          if (!node.attrs.id) tr.setNodeAttribute(pos, 'id', newTargetId('T'));
          dispatch(tr);
        }
        return true;
      }
    }
    return false;
  };
}

/**
 * A document made before its template allowed equations, citations, figures and cross-references
 * gets them in its template copy (ordinary attribute steps, so co-authors and the server follow;
 * the editor sends it once on opening with write access).
 */
export function upgradeTemplateCopy(state: EditorState): Transaction | null {
  const upgrades = templateUpgrades(state.doc);
  if (!upgrades.length) return null;
  const tr = state.tr;
  for (const { pos, elements } of upgrades) tr.setNodeAttribute(pos, 'elements', elements);
  return tr.setMeta('addToHistory', false);
}

/** Figures and tables without an id (pasted, or made before) get one: cross-references need it. */
export function assignTargetIds(state: EditorState): Transaction | null {
  const seen = new Set<string>();
  const fixes: { pos: number; prefix: 'F' | 'T' }[] = [];
  state.doc.descendants((node, pos) => {
    const name = node.type.name;
    if (name !== 'figure' && name !== 'table') return node.isBlock && !node.isTextblock;
    const id = String(node.attrs.id);
    if (!id || seen.has(id)) fixes.push({ pos, prefix: name === 'figure' ? 'F' : 'T' });
    else seen.add(id);
    return false;
  });
  if (!fixes.length) return null;
  const tr = state.tr;
  for (const { pos, prefix } of fixes) tr.setNodeAttribute(pos, 'id', newTargetId(prefix));
  return tr.setMeta('addToHistory', false);
}

/**
 * `$x^2$` becomes an inline equation, `$$...$$` a display equation. A dollar sign that only
 * marks prices ("$5 and $6") stays text: the LaTeX may neither start nor end with a space.
 */
export function mathInputRules(): InputRule[] {
  return [
    new InputRule(/\$\$([^$]+)\$\$$/, (state, match, start, end) => {
      if (!allows(state, 'figure') || inAside(state)) return null;
      const latex = match[1].trim();
      if (!latex) return null;
      const figure = schema.nodes.figure.create({
        category: 'equation',
        equation: latex,
        id: newTargetId('F'),
      });
      const $start = state.doc.resolve(start);
      const tr = state.tr;
      // A paragraph holding only the equation becomes the figure; otherwise the text is split.
      if ($start.parent.type.name === 'paragraph' && $start.parentOffset === 0 && end === $start.end())
        tr.replaceWith($start.before(), $start.after(), figure).setSelection(
          NodeSelection.create(tr.doc, $start.before()),
        );
      else tr.delete(start, end).replaceSelectionWith(figure, false);
      return afterBlock(tr);
    }),
    new InputRule(/(?:^|[^$\\])\$([^$\s](?:[^$]*[^$\s])?)\$$/, (state, match, start, end) => {
      if (!allowsInline(state, 'equation')) return null;
      // The match may include the character before the opening dollar.
      const offset = match[0].startsWith('$') ? 0 : 1;
      return state.tr.replaceWith(start + offset, end, schema.nodes.equation.create({ equation: match[1] }));
    }),
  ];
}
