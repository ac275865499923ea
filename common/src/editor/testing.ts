import type { Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import type { EditorView } from 'prosemirror-view';
import { type Reviewer, trackedChanges } from './track-changes';

/** Types text one character at a time through the view's text input handlers, as a browser does (tests). */
export function typeInto(view: EditorView, text: string): void {
  for (const char of text) {
    const { from, to } = view.state.selection;
    const handled = view.someProp('handleTextInput', (handle) =>
      handle(view, from, to, char, () => view.state.tr),
    );
    if (!handled) view.dispatch(view.state.tr.insertText(char, from, to));
  }
}

/** Position just inside the document's first paragraph (in a template, the body's first one); -1 without one. */
export function firstParagraphStart(doc: PMNode): number {
  let found = -1;
  doc.descendants((node, pos) => {
    if (found < 0 && node.type.name === 'paragraph') found = pos + 1;
    return found < 0;
  });
  return found;
}

/** Position just inside the template part with this id (`body`, `abstract`, ...); -1 without one. */
export function partStart(doc: PMNode, id: string): number {
  let start = -1;
  doc.forEach((part, offset) => {
    if (part.attrs.id === id) start = offset + 1;
  });
  return start;
}

/** The JSON of the steps that `change` makes to the document. */
export function stepsOf(doc: PMNode, change: (tr: Transform) => void) {
  const tr = new Transform(doc);
  change(tr);
  return tr.steps.map((step) => step.toJSON());
}

/** The document with its body part's content replaced by `body` (the other parts as they are). */
export function withBody(doc: PMNode, body: readonly PMNode[]): PMNode {
  const parts: PMNode[] = [];
  doc.forEach((part) => {
    parts.push(part.attrs.id === 'body' ? part.type.create(part.attrs, body) : part);
  });
  return doc.type.create(doc.attrs, parts);
}

/** Two reviewers of the suggestion-mode tests, and the review rights they act with. */
export const ada: Reviewer = { id: 1, username: 'ada' };
export const bob: Reviewer = { id: 2, username: 'bob' };
export const SUGGEST = { comments: true, suggestions: true };

/** A document's suggestions recorded on blocks, as "type:node:text" (tests). */
export function blockSuggestions(doc: PMNode): string[] {
  return trackedChanges(doc)
    .filter((change) => change.block)
    .map((change) => `${change.type}:${change.node}:${doc.nodeAt(change.from)?.textContent}`);
}
