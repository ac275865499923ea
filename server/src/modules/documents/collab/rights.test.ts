import type { AccessRight } from '@scriptorium/common/api/documents';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { firstParagraphStart } from '@scriptorium/common/editor/testing';
import type { Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { rightMayEdit, stepChecker } from './rights';

const insertion = () => schema.marks.insertion.create({ user: 1, username: 'ada', date: 1 });

/** The document with 'hello' in its first paragraph, and where that text starts. */
function withText(marks: ReturnType<typeof insertion>[] = []): { doc: PMNode; at: number } {
  const empty = createDocument(schema, standardArticle, { title: 'Rules' });
  const at = firstParagraphStart(empty);
  return { doc: new Transform(empty).insert(at, schema.text('hello', marks)).doc, at };
}

function allowed(right: AccessRight, doc: PMNode, change: (tr: Transform) => void): boolean {
  const tr = new Transform(doc);
  change(tr);
  const rule = stepChecker(right, 1);
  let current = doc;
  for (const step of tr.steps) {
    if (!rule.allows(step, current)) return false;
    current = step.apply(current).doc!;
  }
  return rule.finish(current);
}

describe('steps each right may send', () => {
  it('lets read rights send nothing', () => {
    expect(rightMayEdit('read')).toBe(false);
    expect(rightMayEdit('read-without-comments')).toBe(false);
    const { doc, at } = withText();
    expect(allowed('read', doc, (tr) => tr.addMark(at, at + 2, schema.marks.comment.create({ id: 1 })))).toBe(
      false,
    );
  });

  it('lets comment only add or remove comment marks, and review also suggest', () => {
    const { doc, at } = withText();
    expect(allowed('comment', doc, (tr) => tr.insert(at, schema.text('new', [insertion()])))).toBe(false);
    expect(allowed('review', doc, (tr) => tr.insert(at, schema.text('new', [insertion()])))).toBe(true);
    for (const right of ['comment', 'review'] as const) {
      expect(
        allowed(right, doc, (tr) => tr.addMark(at, at + 3, schema.marks.comment.create({ id: 4 }))),
      ).toBe(true);
      expect(allowed(right, doc, (tr) => tr.removeMark(at, at + 3, schema.marks.comment))).toBe(true);
      expect(allowed(right, doc, (tr) => tr.addMark(at, at + 3, schema.marks.em.create()))).toBe(false);
      expect(allowed(right, doc, (tr) => tr.insert(at, schema.text('x')))).toBe(false);
    }
  });

  it('lets write-tracked insert suggested text, mark deletions, and take out its suggestions only', () => {
    const { doc, at } = withText();
    expect(allowed('write-tracked', doc, (tr) => tr.insert(at, schema.text('new', [insertion()])))).toBe(
      true,
    );
    expect(allowed('write-tracked', doc, (tr) => tr.insert(at, schema.text('new')))).toBe(false);
    expect(allowed('write-tracked', doc, (tr) => tr.delete(at, at + 2))).toBe(false);
    const deletion = schema.marks.deletion.create({ user: 1, username: 'ada', date: 1 });
    expect(allowed('write-tracked', doc, (tr) => tr.addMark(at, at + 2, deletion))).toBe(true);
    expect(allowed('write-tracked', doc, (tr) => tr.split(at + 2))).toBe(false);
    const suggested = withText([insertion()]);
    expect(allowed('write-tracked', suggested.doc, (tr) => tr.delete(suggested.at, suggested.at + 2))).toBe(
      true,
    );
    // Another author's suggestion is theirs: neither accepted nor taken out by a suggester.
    const others = schema.marks.insertion.create({ user: 2, username: 'bob', date: 1 });
    const theirs = withText([others]);
    expect(allowed('write-tracked', theirs.doc, (tr) => tr.delete(theirs.at, theirs.at + 2))).toBe(false);
    expect(
      allowed('write-tracked', theirs.doc, (tr) => tr.removeMark(theirs.at, theirs.at + 2, others)),
    ).toBe(false);
    expect(allowed('write', theirs.doc, (tr) => tr.removeMark(theirs.at, theirs.at + 2, others))).toBe(true);
  });

  it('lets write do anything', () => {
    const { doc, at } = withText();
    expect(allowed('write', doc, (tr) => tr.delete(at, at + 2).split(at))).toBe(true);
  });
});
