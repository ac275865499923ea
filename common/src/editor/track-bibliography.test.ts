import { history, undo } from 'prosemirror-history';
import type { Node as PMNode } from 'prosemirror-model';
import { type Command, EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import type { EntryData } from '../bibliography/types';
import { documentBibliography, insertCitation } from './academic-commands';
import { schema } from './schema';
import { createDocument, standardArticle } from './templates';
import { ada, firstParagraphStart, SUGGEST } from './testing';
import {
  acceptedDocument,
  decideChanges,
  type Reviewer,
  reviewStepsAllowed,
  trackedChanges,
  trackTransaction,
} from './track-changes';

// Issue 55: citing an entry new to the document in suggestion mode is a suggestion like typed
// text; the entry's data travels with it and goes when it is rejected.

const entry = (family: string): EntryData => ({
  entry_key: family.toLowerCase(),
  bib_type: 'book',
  fields: { author: [{ family: [{ type: 'text', text: family }] }], date: '2020' },
  cats: [],
});

function stateWith(text: string): { state: EditorState; at: number } {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  const at = firstParagraphStart(empty);
  const doc = new Transform(empty).insert(at, schema.text(text)).doc;
  const state = EditorState.create({ doc, plugins: [history()] });
  return { state: state.apply(state.tr.setSelection(TextSelection.create(doc, at + text.length))), at };
}

/** Runs the command in suggestion mode as `user`; every step must pass the server's rule. */
function suggest(state: EditorState, user: Reviewer, command: Command): EditorState {
  let made: Transaction | null = null;
  expect(command(state, (tr) => (made = tr))).toBe(true);
  const tracked = trackTransaction(made as unknown as Transaction, state, user, 1000);
  expect(tracked, 'refused as not trackable').not.toBeNull();
  const steps = (tracked as Transaction).steps;
  expect(reviewStepsAllowed(steps, state.doc, user.id, SUGGEST), JSON.stringify(steps)).toBe(true);
  return state.apply(tracked as Transaction);
}

const cite = (id: string, data: EntryData) =>
  insertCitation('autocite', [{ id, prefix: '', locator: '' }], new Map([[id, data]]));

function citations(doc: PMNode): { ids: string; suggested: boolean }[] {
  const out: { ids: string; suggested: boolean }[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'citation')
      out.push({
        ids: (node.attrs.references as { id: string }[]).map((r) => r.id).join(','),
        suggested: Boolean(schema.marks.insertion.isInSet(node.marks)),
      });
    return true;
  });
  return out;
}

/** The bibliography's entries: id, and + when suggested. */
function entries(doc: PMNode): string[] {
  const out: string[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'bib_entry')
      out.push(`${node.attrs.id}${schema.marks.insertion.isInSet(node.marks) ? '+' : ''}`);
    return true;
  });
  return out;
}

function decideAll(state: EditorState, accept: boolean): EditorState {
  const tr = state.tr;
  decideChanges(tr, trackedChanges(state.doc), accept);
  return state.apply(tr);
}

describe('citing in suggestion mode', () => {
  it('suggests the citation and its new entry (the document had no bibliography yet)', () => {
    const { state } = stateWith('As shown ');
    const suggested = suggest(state, ada, cite('1-7', entry('Smith')));
    expect(citations(suggested.doc)).toEqual([{ ids: '1-7', suggested: true }]);
    expect(entries(suggested.doc)).toEqual(['1-7+']);
    // The entry's data is in the document: the citation renders as any other.
    expect(documentBibliography(suggested.doc).get('1-7')?.entry_key).toBe('smith');
    // One card: the citation. The entry goes with it.
    expect(trackedChanges(suggested.doc).map((change) => change.type)).toEqual(['insertion']);

    const accepted = decideAll(suggested, true);
    expect(citations(accepted.doc)).toEqual([{ ids: '1-7', suggested: false }]);
    expect(entries(accepted.doc)).toEqual(['1-7']);
    expect(acceptedDocument(suggested.doc).eq(accepted.doc)).toBe(true);

    const rejected = decideAll(suggested, false);
    expect(citations(rejected.doc)).toEqual([]);
    expect(entries(rejected.doc)).toEqual([]);
    expect(trackedChanges(rejected.doc)).toEqual([]);
  });

  it('suggests a second entry in an existing bibliography; rejecting one citation keeps what others cite', () => {
    const { state, at } = stateWith('Text ');
    // A writer's citation first (not a suggestion).
    let made: Transaction | null = null;
    cite('1-1', entry('Jones'))(state, (tr) => (made = tr));
    let current = state.apply(made as unknown as Transaction);
    current = suggest(current, ada, cite('1-2', entry('Smith')));
    // Again at the paragraph's start (not beside the first: one insertion with it).
    current = current.apply(current.tr.setSelection(TextSelection.create(current.doc, at)));
    current = suggest(current, ada, cite('1-2', entry('Smith')));
    expect(entries(current.doc)).toEqual(['1-1', '1-2+']);
    expect(citations(current.doc).map((c) => c.suggested)).toEqual([true, false, true]);

    // Rejecting one of the two suggested citations of Smith: the entry stays (still cited, still suggested).
    const [first] = trackedChanges(current.doc);
    let tr = current.tr;
    decideChanges(tr, [first], false);
    current = current.apply(tr);
    expect(entries(current.doc)).toEqual(['1-1', '1-2+']);
    // Accepting the other: the entry is the document's.
    tr = current.tr;
    decideChanges(tr, trackedChanges(current.doc), true);
    current = current.apply(tr);
    expect(entries(current.doc)).toEqual(['1-1', '1-2']);
    expect(citations(current.doc)).toEqual([
      { ids: '1-1', suggested: false },
      { ids: '1-2', suggested: false },
    ]);
  });

  it('undoes the suggested citation with steps the server accepts', () => {
    const { state } = stateWith('As shown ');
    const suggested = suggest(state, ada, cite('1-7', entry('Smith')));
    let undone: Transaction | null = null;
    expect(undo(suggested, (tr) => (undone = tr))).toBe(true);
    const steps = (undone as unknown as Transaction).steps;
    expect(reviewStepsAllowed(steps, suggested.doc, ada.id, SUGGEST)).toBe(true);
    const after = suggested.apply(undone as unknown as Transaction);
    expect(after.doc.eq(state.doc)).toBe(true);
  });

  it('lets a suggester add or remove an empty bibliography only, never entries that are not their suggestion', () => {
    const { state } = stateWith('x');
    const end = state.doc.content.size;
    const part = schema.nodes.bibliography_part.create();
    const withPart = new Transform(state.doc).insert(end, part);
    expect(reviewStepsAllowed(withPart.steps, state.doc, ada.id, SUGGEST)).toBe(true);
    const full = new Transform(state.doc).insert(
      end,
      schema.nodes.bibliography_part.create(null, [
        schema.nodes.bib_entry.create({ id: '1-1', data: entry('Jones') }),
      ]),
    );
    expect(reviewStepsAllowed(full.steps, state.doc, ada.id, SUGGEST)).toBe(false);
    const plainEntry = new Transform(withPart.doc).insert(
      end + 1,
      schema.nodes.bib_entry.create({ id: '1-1', data: entry('Jones') }),
    );
    expect(reviewStepsAllowed(plainEntry.steps, withPart.doc, ada.id, SUGGEST)).toBe(false);
    const removed = new Transform(full.doc).delete(end, full.doc.content.size);
    expect(reviewStepsAllowed(removed.steps, full.doc, ada.id, SUGGEST)).toBe(false);
    const removedEmpty = new Transform(withPart.doc).delete(end, withPart.doc.content.size);
    expect(reviewStepsAllowed(removedEmpty.steps, withPart.doc, ada.id, SUGGEST)).toBe(true);
  });
});
