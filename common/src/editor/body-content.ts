import { Fragment, type Node as PMNode, Slice } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { DocAttrStep, ReplaceStep, type Step } from 'prosemirror-transform';
import type { EntryData } from '../bibliography/types';
import { addToBibliography } from './academic-commands';
import { schema } from './schema';

/**
 * Changes a script makes to a document's content (the public API, issue 57), as steps for the
 * collaboration server to check and commit like any editor's: blocks appended to or replacing the
 * body, the whole document replaced, the title set.
 */

/** The part that holds the text: the template's `body`, else the last rich-text part but the abstract. */
export function bodyPart(doc: PMNode): { node: PMNode; pos: number } | null {
  let found: { node: PMNode; pos: number } | null = null;
  let body: { node: PMNode; pos: number } | null = null;
  doc.forEach((node, pos) => {
    if (node.type.name !== 'richtext_part') return;
    if (node.attrs.id === 'body') body = { node, pos };
    else if (node.attrs.id !== 'abstract') found = { node, pos };
  });
  return body ?? found;
}

function isEmptyPart(part: PMNode): boolean {
  return part.childCount === 1 && part.firstChild?.isTextblock === true && part.firstChild.content.size === 0;
}

/**
 * Steps that append `blocks` to the body (replacing an empty body's single empty paragraph) or
 * replace the body with them, and copy the cited entries into the document's bibliography.
 * Null when the document has no body part.
 */
export function bodyContentSteps(
  doc: PMNode,
  blocks: Fragment,
  mode: 'append' | 'replace',
  entries: ReadonlyMap<string, EntryData> = new Map(),
): Step[] | null {
  const part = bodyPart(doc);
  if (!part) return null;
  const start = part.pos + 1;
  const end = part.pos + part.node.nodeSize - 1;
  const tr = EditorState.create({ doc }).tr;
  if (mode === 'replace' || isEmptyPart(part.node)) tr.replaceWith(start, end, blocks);
  else tr.insert(end, blocks);
  addToBibliography(tr, entries);
  return tr.steps;
}

/** Steps that make the document `target` (content and attributes), as restoring a revision does. */
export function wholeDocumentSteps(doc: PMNode, target: PMNode): Step[] {
  const steps: Step[] = [new ReplaceStep(0, doc.content.size, new Slice(target.content, 0, 0))];
  for (const [key, value] of Object.entries(target.attrs))
    if (doc.attrs[key] !== value) steps.push(new DocAttrStep(key, value));
  return steps;
}

/** Steps that set the title node's text (its marks go; an empty title is allowed). */
export function titleSteps(doc: PMNode, title: string): Step[] {
  const node = doc.firstChild;
  if (node?.type.name !== 'title') return [];
  const tr = EditorState.create({ doc }).tr;
  tr.replaceWith(1, 1 + node.content.size, title ? schema.text(title) : Fragment.empty);
  return tr.steps;
}

/** The citation ids a block list cites (`<owner>-<entry id>`), for copying their entries. */
export function citedIds(blocks: Fragment): Set<string> {
  const ids = new Set<string>();
  blocks.descendants((node) => {
    if (node.type.name === 'citation')
      for (const ref of node.attrs.references as { id: string }[]) ids.add(ref.id);
    return true;
  });
  return ids;
}
