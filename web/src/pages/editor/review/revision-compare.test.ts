import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { partStart } from '@scriptorium/common/editor/testing';
import type { Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { compareRevisions } from './revision-compare';

/** The standard article with `paragraphs` (each a list of inline nodes) as its body. */
function article(...paragraphs: (PMNode | string)[][]): PMNode {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  const at = partStart(empty, 'body');
  const tr = new Transform(empty);
  tr.replaceWith(
    at,
    at + (tr.doc.nodeAt(at)?.nodeSize ?? 0),
    paragraphs.map((inline) =>
      schema.nodes.paragraph.create(
        null,
        inline.map((part) => (typeof part === 'string' ? schema.text(part) : part)),
      ),
    ),
  );
  return tr.doc;
}

const cite = (id: string) => schema.nodes.citation.create({ references: [{ id, prefix: '', locator: '' }] });

/** What the ranges of a comparison cover, as text (atoms by their type). */
function covered(doc: PMNode, ranges: { from: number; to: number }[]): string[] {
  return ranges.map((range) => doc.textBetween(range.from, range.to, '|', (node) => `<${node.type.name}>`));
}

describe('compareRevisions', () => {
  it('marks inserted text in the later revision', () => {
    const before = article(['The result']);
    const after = article(['The clear result']);
    const { doc, inserted, deleted } = compareRevisions(before, after);
    expect(doc.eq(after)).toBe(true);
    expect(covered(doc, inserted)).toEqual(['clear ']);
    expect(deleted).toEqual([]);
  });

  it('puts a deleted word back before the word that replaced it', () => {
    const { doc, inserted, deleted } = compareRevisions(article(['A small test']), article(['A large test']));
    expect(doc.textBetween(partStart(doc, 'body'), doc.content.size, '|')).toBe('A smalllarge test');
    expect(covered(doc, deleted)).toEqual(['small']);
    expect(covered(doc, inserted)).toEqual(['large']);
  });

  it('keeps a deleted citation as a citation node (drawn by the node view), marked deleted', () => {
    const before = article(['See ', cite('1-11'), ' and ', cite('1-12'), '.']);
    const after = article(['See ', cite('1-11'), '.']);
    const { doc, deleted, inserted } = compareRevisions(before, after);
    expect(covered(doc, deleted)).toEqual([' and <citation>']);
    expect(inserted).toEqual([]);
    const citations: string[] = [];
    doc.descendants((node) => {
      if (node.type.name === 'citation') citations.push(node.attrs.references[0].id);
    });
    expect(citations).toEqual(['1-11', '1-12']);
  });

  it('puts back a deleted paragraph', () => {
    const before = article(['First'], ['Second gone'], ['Third']);
    const after = article(['First'], ['Third']);
    const { doc, deleted } = compareRevisions(before, after);
    expect(covered(doc, deleted).join('')).toContain('Second gone');
    expect(doc.textBetween(partStart(doc, 'body'), doc.content.size, '|')).toBe('First|Second gone|Third');
  });
});
