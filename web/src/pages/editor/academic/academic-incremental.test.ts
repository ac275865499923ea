// @vitest-environment jsdom
import type { EntryData } from '@scriptorium/common/bibliography/types';
import {
  insertCitation,
  insertCrossReference,
  insertDisplayEquation,
  replaceInBibliography,
  setCitationStyle,
} from '@scriptorium/common/editor/academic-commands';
import { setHeadingNumbering } from '@scriptorium/common/editor/commands';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import type { Node as PMNode } from 'prosemirror-model';
import { type Command, EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';
import { describe, expect, it } from 'vitest';
import {
  type AcademicState,
  academicKey,
  academicPlugins,
  applyIncremental,
  type CitationDecoration,
  deriveAcademic,
  type RenderedState,
  updateDecorations,
} from './academic-plugin';

/**
 * The academic state is kept up to date from what a transaction changed (decorations patched, not
 * rebuilt; clusters read again only from changed paragraphs). After every step it must equal the
 * state derived from scratch: a stale cache shows here as a difference.
 */

const entry = (title: string): EntryData =>
  ({ bib_type: 'book', fields: { title: [{ type: 'text', text: title }] } }) as unknown as EntryData;

function summary(set: DecorationSet) {
  return set
    .find()
    .map((decoration) => ({ from: decoration.from, to: decoration.to, spec: decoration.spec }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
}

function academic(state: EditorState): AcademicState {
  const value = academicKey.getState(state);
  if (!value) throw new Error('no academic state');
  return value;
}

function expectFresh(state: EditorState): void {
  const kept = academic(state);
  const fresh = deriveAcademic(state.doc, kept.rendered);
  expect(kept.signature).toBe(fresh.signature);
  expect(kept.clusters).toEqual(fresh.clusters);
  // Positions of targets are those of the last academic change (plain typing does not move them).
  const labels = (state: AcademicState) => state.numbering.targets.map(({ pos: _pos, ...target }) => target);
  expect(labels(kept)).toEqual(labels(fresh));
  expect(summary(kept.decorations)).toEqual(summary(fresh.decorations));
}

/** The citation texts shown, in document order ('' while not rendered). */
function citationTexts(state: EditorState): string[] {
  return summary(academic(state).decorations)
    .map((decoration) => (decoration.spec as { citation?: CitationDecoration }).citation)
    .filter((citation) => citation !== undefined)
    .map(
      (citation) =>
        `${citation.html}${citation.missing ? ' (missing)' : ''}${citation.note ? ' (note)' : ''}`,
    );
}

function positions(doc: PMNode, name: string): number[] {
  const found: number[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === name) found.push(pos);
  });
  return found;
}

class Session {
  state: EditorState;
  constructor() {
    const doc = createDocument(schema, standardArticle, { title: 'T', language: 'en-US' });
    let start = 0;
    doc.forEach((node, offset) => {
      if (node.attrs.id === 'body') start = offset + 2;
    });
    const state = EditorState.create({ doc, plugins: academicPlugins() });
    this.state = state.apply(state.tr.setSelection(TextSelection.create(doc, start)));
  }
  run(command: Command): void {
    expect(command(this.state, (tr) => this.apply(tr))).toBe(true);
  }
  apply(tr: Transaction): void {
    this.state = this.state.apply(tr);
  }
  text(value: string): void {
    this.apply(this.state.tr.insertText(value));
  }
  cite(id: string, title = id.toUpperCase()): void {
    this.run(insertCitation('autocite', [{ id, prefix: '', locator: '' }], new Map([[id, entry(title)]])));
  }
  /** The worker's answer for the document as it is now. */
  answer(citations: string[], styleClass = 'in-text', bibliography: string[] = []): void {
    const current = academic(this.state);
    expect(citations).toHaveLength(current.clusters.length);
    const rendered: RenderedState = {
      signature: current.signature,
      styleClass,
      citations,
      bySignature: new Map(),
      bibliography,
      failed: false,
    };
    current.clusters.forEach((cluster, index) => {
      const key = `${cluster.format}|${cluster.references.map((ref) => `${ref.id}:${ref.prefix ?? ''}:${ref.locator ?? ''}`).join(',')}`;
      if (!rendered.bySignature.has(key)) rendered.bySignature.set(key, citations[index]);
    });
    this.apply(this.state.tr.setMeta(academicKey, rendered));
  }
}

describe('heading numbers in the editor', () => {
  /** The numbers shown before the headings (the decorations' data-number). */
  const numbers = (state: EditorState) =>
    summary(academic(state).decorations)
      .map((decoration) => (decoration as unknown as { from: number }).from)
      .flatMap((from) =>
        academic(state)
          .decorations.find(from, from + 1)
          .map(
            (decoration) => (decoration as unknown as { type: { attrs: Record<string, string> } }).type.attrs,
          )
          .filter((attrs) => attrs['data-number'])
          .map((attrs) => attrs['data-number']),
      );

  it('follow the numbering setting; an unnumbered heading is referred to by its text, as typed', () => {
    const session = new Session();
    const heading = (level: number, id: string, text: string) =>
      schema.nodes.heading.create({ level, id }, schema.text(text));
    const start = session.state.selection.from - 1;
    session.apply(
      session.state.tr.replaceWith(start, start + 2, [
        heading(1, 'H-a', 'Intro'),
        heading(1, 'H-b', 'Methods'),
        heading(2, 'H-c', 'Data'),
        schema.nodes.paragraph.create(null, schema.text('See ')),
      ]),
    );
    const end = session.state.doc.resolve(start + 1).end(1);
    session.apply(session.state.tr.setSelection(TextSelection.create(session.state.doc, end - 1)));
    session.run(insertCrossReference('H-c', ''));
    expect([...new Set(numbers(session.state))]).toEqual(['1', '2', '2.1']);
    expect(academic(session.state).numbering.byId.get('H-c')?.label).toBe('Section 2.1');
    session.run(setHeadingNumbering('roman'));
    expect([...new Set(numbers(session.state))]).toEqual(['I.', 'II.', 'A.']);
    session.run(setHeadingNumbering('none'));
    expect(numbers(session.state)).toEqual([]);
    expect(academic(session.state).numbering.byId.get('H-c')?.label).toBe('Section \u201cData\u201d');
    // Typing in the heading changes the reference's text.
    const data = positions(session.state.doc, 'heading')[2];
    session.apply(session.state.tr.insertText(' sets', data + 5));
    expect(academic(session.state).numbering.byId.get('H-c')?.label).toBe('Section \u201cData sets\u201d');
    expectFresh(session.state);
  });
});

describe('the incremental academic state', () => {
  it('equals a fresh derivation after every kind of change', () => {
    const session = new Session();
    session.text('First ');
    session.cite('a');
    session.text(' then ');
    session.cite('b');
    expectFresh(session.state);
    session.answer(['(A)', '(B)'], 'in-text', ['A.', 'B.']);
    expectFresh(session.state);
    expect(citationTexts(session.state)).toEqual(['(A)', '(B)']);

    // A display equation, referenced; then a second one before it: the reference follows.
    session.run(insertDisplayEquation('a=b'));
    const first = session.state.doc.nodeAt(positions(session.state.doc, 'figure')[0]);
    session.run(insertCrossReference(String(first?.attrs.id), '(1)'));
    expectFresh(session.state);
    const before = positions(session.state.doc, 'figure')[0];
    session.apply(
      session.state.tr.insert(
        before,
        schema.nodes.figure.create({ category: 'equation', equation: 'c', id: 'F0' }),
      ),
    );
    expectFresh(session.state);
    const reference = summary(academic(session.state).decorations).find(
      (decoration) => (decoration.spec as { missing?: boolean }).missing === false,
    );
    expect(reference?.spec).toMatchObject({ label: '(2)' });

    // A citation inserted before the others, not rendered yet: the others keep their texts.
    const firstParagraphEnd = positions(session.state.doc, 'citation')[0];
    session.apply(session.state.tr.setSelection(TextSelection.create(session.state.doc, firstParagraphEnd)));
    session.cite('c');
    expectFresh(session.state);
    expect(citationTexts(session.state)).toEqual(['', '(A)', '(B)']);
    session.answer(['(C)', '(A, 2020a)', '(B)'], 'in-text', ['A.', 'B.', 'C.']);
    expectFresh(session.state);
    expect(citationTexts(session.state)).toEqual(['(C)', '(A, 2020a)', '(B)']);

    // The same answer again changes nothing: the very same decorations.
    const decorations = academic(session.state).decorations;
    session.answer(['(C)', '(A, 2020a)', '(B)'], 'in-text', ['A.', 'B.', 'C.']);
    expect(academic(session.state).decorations).toBe(decorations);

    // An entry changed in the document's bibliography: a new request.
    const signature = academic(session.state).signature;
    session.apply(replaceInBibliography(session.state.tr, new Map([['b', entry('B, second edition')]])));
    expectFresh(session.state);
    expect(academic(session.state).signature).not.toBe(signature);

    // An entry removed from the bibliography: its citation is shown as missing.
    const part = positions(session.state.doc, 'bib_entry');
    const removed = part.find((pos) => session.state.doc.nodeAt(pos)?.attrs.id === 'a') ?? -1;
    session.apply(session.state.tr.delete(removed, removed + 1));
    expectFresh(session.state);
    expect(citationTexts(session.state)[1]).toBe('(A, 2020a) (missing)');

    // A citation's references edited in place: the paragraph's clusters are read again.
    const citationB = positions(session.state.doc, 'citation')[2];
    session.apply(
      session.state.tr.setNodeMarkup(citationB, null, {
        format: 'textcite',
        references: [{ id: 'b', prefix: '', locator: 'p. 3' }],
      }),
    );
    expectFresh(session.state);
    expect(academic(session.state).clusters[2]).toMatchObject({
      format: 'textcite',
      references: [{ id: 'b', prefix: '', locator: 'p. 3' }],
    });

    // Another style: a new request; a note style's answer turns the citations into notes.
    const beforeStyle = academic(session.state).signature;
    session.run(setCitationStyle('chicago-note-bibliography'));
    expectFresh(session.state);
    expect(academic(session.state).signature).not.toBe(beforeStyle);
    session.answer(['C.', 'A.', 'B, 3.'], 'note');
    expectFresh(session.state);
    expect(citationTexts(session.state)).toEqual(['C. (note)', 'A. (missing) (note)', 'B, 3. (note)']);

    // Plain typing only maps the decorations, and they still match.
    session.text(' more words');
    expectFresh(session.state);
  });

  it('applies a citation and the answer for it where they reach, not over the whole document', () => {
    const session = new Session();
    for (let i = 0; i < 30; i++) {
      session.text(`Paragraph ${i} `);
      session.cite(`k${i % 5}`);
      session.apply(session.state.tr.split(session.state.selection.from));
    }
    session.answer(academic(session.state).clusters.map((cluster) => `(${cluster.references[0].id})`));
    const before = academic(session.state);
    // A citation in the first paragraph, of an entry new to the document.
    const at = positions(session.state.doc, 'citation')[0];
    session.apply(session.state.tr.setSelection(TextSelection.create(session.state.doc, at)));
    let inserted: Transaction | null = null;
    insertCitation(
      'autocite',
      [{ id: 'new', prefix: '', locator: '' }],
      new Map([['new', entry('N')]]),
    )(session.state, (tr) => {
      inserted = tr;
    });
    if (!inserted) throw new Error('not inserted');
    const tr = inserted as Transaction;
    const incremental = applyIncremental(tr, before, before.rendered, tr.doc);
    expect(incremental).not.toBeNull();
    // The numbering was not made again (no numbered node changed): the very same object.
    expect(incremental?.numbering).toBe(before.numbering);
    session.apply(tr);
    expectFresh(session.state);
    // The other citations keep their texts from their clusters until the answer comes.
    expect(citationTexts(session.state).slice(0, 3)).toEqual(['', '(k0)', '(k1)']);
    session.answer(academic(session.state).clusters.map((cluster) => `(${cluster.references[0].id})`));
    expectFresh(session.state);
    expect(citationTexts(session.state)[0]).toBe('(new)');
  });

  it('patches a decoration set into the one that would be built', () => {
    const session = new Session();
    for (const latex of ['a', 'b'])
      session.apply(session.state.tr.replaceSelectionWith(schema.nodes.equation.create({ equation: latex })));
    const doc = session.state.doc;
    const positionsOf = positions(doc, 'equation');
    const spec = (name: string) => ({ name });
    const one = spec('one');
    const two = spec('two');
    const node = (pos: number, value: object) => Decoration.node(pos, pos + 1, {}, value);
    const previous = DecorationSet.create(doc, [node(positionsOf[0], one), node(positionsOf[1], one)]);
    expect(updateDecorations(doc, previous, [node(positionsOf[0], one), node(positionsOf[1], one)])).toBe(
      previous,
    );
    const patched = updateDecorations(doc, previous, [node(positionsOf[0], one), node(positionsOf[1], two)]);
    expect(summary(patched)).toEqual(
      summary(DecorationSet.create(doc, [node(positionsOf[0], one), node(positionsOf[1], two)])),
    );
    expect(summary(updateDecorations(doc, patched, [node(positionsOf[1], two)]))).toEqual([
      { from: positionsOf[1], to: positionsOf[1] + 1, spec: two },
    ]);
  });
});
