import { rebaseSteps } from '@scriptorium/common/editor/rebase-steps';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { firstParagraphStart } from '@scriptorium/common/editor/testing';
import { collab, receiveTransaction, sendableSteps } from 'prosemirror-collab';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, TextSelection } from 'prosemirror-state';
import { addRowAfter, TableMap } from 'prosemirror-tables';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';

/**
 * The server's rebase of a late diff must give exactly the steps the sender's own
 * prosemirror-collab rebase gives when it receives the committed steps first: the sender then
 * takes the confirmation for its (rebased) unconfirmed steps, and both sides hold one document.
 */

const insertion = () => schema.marks.insertion.create({ user: 1, username: 'ada', date: 1 });
const deletion = () => schema.marks.deletion.create({ user: 1, username: 'ada', date: 1 });

/** A standard article whose body starts with the paragraph 'hello world'; where its text starts. */
function paper(): { doc: PMNode; at: number } {
  const empty = createDocument(schema, standardArticle, { title: 'Rebase' });
  const at = firstParagraphStart(empty);
  return { doc: new Transform(empty).insert(at, schema.text('hello world')).doc, at };
}

/**
 * `mine` and `theirs` both made on `doc`; `theirs` is committed first. Returns what the server
 * rebases and what the sender's collab state holds after receiving `theirs`.
 */
function bothRebases(doc: PMNode, mine: (tr: Transform) => void, theirs: (tr: Transform) => void) {
  const own = new Transform(doc);
  mine(own);
  const other = new Transform(doc);
  theirs(other);
  let sender = EditorState.create({ doc, plugins: [collab({ version: 0, clientID: 'me' })] });
  const tr = sender.tr;
  for (const step of own.steps) tr.step(step);
  sender = sender.apply(tr);
  sender = sender.apply(
    receiveTransaction(
      sender,
      other.steps,
      other.steps.map(() => 'other'),
    ),
  );
  const server = rebaseSteps(own.steps, other.steps, other.doc);
  let committed = other.doc;
  for (const step of server) committed = step.apply(committed).doc as PMNode;
  return {
    server: server.map((step) => step.toJSON()),
    client: (sendableSteps(sender)?.steps ?? []).map((step) => step.toJSON()),
    committed,
    clientDoc: sender.doc,
  };
}

function expectSame(result: ReturnType<typeof bothRebases>) {
  expect(result.server).toEqual(result.client);
  expect(result.committed.eq(result.clientDoc)).toBe(true);
  result.committed.check();
}

describe('rebaseSteps: a late diff mapped over the steps committed since', () => {
  it('keeps both writers typing at the same place of one paragraph', () => {
    const { doc, at } = paper();
    const result = bothRebases(
      doc,
      (tr) => tr.insert(at + 5, schema.text('A')).insert(at + 6, schema.text('B')),
      (tr) => tr.insert(at + 5, schema.text('xyz')),
    );
    expectSame(result);
    expect(result.server).toHaveLength(2);
    expect(result.committed.textContent).toContain('helloxyzAB world');
  });

  it('drops a step whose range the committed steps deleted, where collab drops it', () => {
    const { doc, at } = paper();
    const result = bothRebases(
      doc,
      (tr) => tr.insert(at, schema.text('kept ')).replaceWith(at + 11, at + 16, schema.text('planet')),
      (tr) => tr.delete(at + 5, at + 11),
    );
    expectSame(result);
    expect(result.committed.textContent).toContain('kept hello');
  });

  it('maps marks: formatting, comment anchors and tracked insertions and deletions', () => {
    const { doc, at } = paper();
    const result = bothRebases(
      doc,
      (tr) =>
        tr
          .addMark(at, at + 5, schema.marks.strong.create())
          .addMark(at + 6, at + 11, schema.marks.comment.create({ id: 7 }))
          .insert(at + 11, schema.text('!', [insertion()]))
          .addMark(at, at + 2, deletion()),
      (tr) => tr.insert(at, schema.text('Oh, ')).addMark(at + 4, at + 9, schema.marks.em.create()),
    );
    expectSame(result);
    expect(result.server).toHaveLength(4);
  });

  it('maps edits inside a table over a row added above them', () => {
    const empty = createDocument(schema, standardArticle, { title: 'Rebase' });
    const at = firstParagraphStart(empty);
    const cell = () => schema.nodes.table_cell.createAndFill() as PMNode;
    const row = () => schema.nodes.table_row.create(null, [cell(), cell()]);
    const table = schema.nodes.table.create(null, [row(), row()]);
    const doc = new Transform(empty).replaceWith(at - 1, at + 1, table).doc;
    let tableStart = 0;
    doc.descendants((node, pos) => {
      if (node.type === schema.nodes.table) tableStart = pos;
      return !tableStart;
    });
    const tableNode = doc.nodeAt(tableStart) as PMNode;
    const lastCell = tableStart + 1 + TableMap.get(tableNode).map[3];
    let rowAdded: Transform | null = null;
    const result = bothRebases(
      doc,
      (tr) => tr.insert(lastCell + 2, schema.text('in the last cell')),
      (tr) => {
        // A cursor in the first cell: the new row goes after the first row.
        const state = EditorState.create({ doc, selection: TextSelection.create(doc, tableStart + 3) });
        addRowAfter(state, (added) => {
          rowAdded = added;
        });
        for (const step of (rowAdded as Transform | null)?.steps ?? []) tr.step(step);
      },
    );
    expect(rowAdded).not.toBeNull();
    expectSame(result);
    expect(result.committed.textContent).toContain('in the last cell');
  });

  it('maps edits inside a footnote over text typed before it', () => {
    const { doc, at } = paper();
    const note = schema.nodes.footnote.create(null, schema.nodes.paragraph.create(null, schema.text('note')));
    const withNote = new Transform(doc).insert(at + 5, note).doc;
    const result = bothRebases(
      withNote,
      (tr) => tr.insert(at + 5 + 2 + 4, schema.text(' more')),
      (tr) => tr.insert(at, schema.text('Well, ')),
    );
    expectSame(result);
    expect(result.committed.textContent).toContain('note more');
  });

  it('gives the same steps as collab for seeded random edits on both sides', () => {
    let seed = 20261207;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 200; round++) {
      const { doc, at } = paper();
      const edit = (tr: Transform) => {
        for (let count = 1 + Math.floor(random() * 4); count > 0; count--) {
          const paragraph = tr.doc.resolve(at).parent;
          const size = paragraph.content.size;
          const from = at + Math.floor(random() * (size + 1));
          const kind = random();
          if (kind < 0.5) tr.insert(from, schema.text(random() < 0.5 ? 'ab' : 'Z'));
          else if (kind < 0.8 && from < at + size)
            tr.delete(from, Math.min(at + size, from + 1 + Math.floor(random() * 3)));
          else if (from < at + size) tr.addMark(from, at + size, schema.marks.em.create());
        }
      };
      expectSame(bothRebases(doc, edit, edit));
    }
  });
});
