import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { partStart } from '@scriptorium/common/editor/testing';
import { trackedChanges } from '@scriptorium/common/editor/track-changes';
import type { Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { changeQuote, QUOTE_MAX, shorten, textOfRange } from './change-quote';

const bob = { user: 2, username: 'Bob', date: 1 };

/** The body's paragraphs replaced by `blocks`; returns the document and where each paragraph's text starts. */
function body(blocks: PMNode[]): { doc: PMNode; starts: number[] } {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  const at = partStart(empty, 'body');
  const tr = new Transform(empty);
  tr.replaceWith(at, at + (tr.doc.nodeAt(at)?.nodeSize ?? 0), blocks);
  const starts: number[] = [];
  tr.doc.nodesBetween(at, tr.doc.content.size, (node, pos) => {
    if (node.type.name === 'paragraph') starts.push(pos + 1);
    return node.type.name !== 'paragraph';
  });
  return { doc: tr.doc, starts };
}

const paragraph = (...content: PMNode[]) => schema.nodes.paragraph.create(null, content);

describe('shorten', () => {
  it('keeps a short text, collapsing its white space', () => {
    expect(shorten('  a  new\n sentence ')).toBe('a new sentence');
  });

  it('cuts a long text after QUOTE_MAX characters at a word, with an ellipsis', () => {
    const text = 'The experiment shows a clear result that we did not expect at the start of the work';
    const short = shorten(text);
    expect(short).toBe('The experiment shows a clear result that we did not expect…');
    expect(short.length).toBeLessThanOrEqual(QUOTE_MAX + 1);
  });

  it('cuts inside a long word rather than keeping almost nothing', () => {
    expect(shorten(`ab ${'x'.repeat(80)}`, 20)).toBe(`ab ${'x'.repeat(17)}…`);
  });
});

describe('changeQuote', () => {
  it('quotes inserted and deleted text; a citation as the editor shows it', () => {
    const citation = schema.nodes.citation.create({ references: [{ id: '1-11', prefix: '', locator: '' }] });
    const { doc: plain, starts } = body([
      paragraph(schema.text('See the new result '), citation, schema.text(' here')),
    ]);
    const tr = new Transform(plain);
    const [p] = starts;
    tr.addMark(p + 4, p + 19, schema.marks.insertion.create(bob));
    tr.addMark(p + 19, p + 25, schema.marks.deletion.create(bob));
    const changes = trackedChanges(tr.doc);
    const leaf = (node: PMNode) => (node.type.name === 'citation' ? '(Smith, 2020)' : null);
    expect(changes.map((change) => changeQuote(tr.doc, change, leaf))).toEqual([
      { kind: 'inserted', text: 'the new result' },
      { kind: 'deleted', text: '(Smith, 2020) here' },
    ]);
    // Without a rendering, the citation says what the schema's text says of it (nothing).
    expect(textOfRange(tr.doc, p + 19, p + 25)).toBe(' here');
  });

  it('quotes formatting changes; a new paragraph quotes nothing', () => {
    const { doc, starts } = body([paragraph(schema.text('bold words')), paragraph(schema.text('next'))]);
    const tr = new Transform(doc);
    tr.addMark(
      starts[0],
      starts[0] + 4,
      schema.marks.format_change.create({ ...bob, before: [], after: ['strong'] }),
    );
    tr.addMark(starts[0], starts[0] + 4, schema.marks.strong.create());
    tr.setNodeMarkup(starts[1] - 1, undefined, null, [schema.marks.insertion.create(bob)]);
    const quotes = trackedChanges(tr.doc).map((change) => changeQuote(tr.doc, change));
    expect(quotes).toContainEqual({ kind: 'formatted', text: 'bold' });
    expect(quotes).toContain(null);
  });

  it('quotes an inline equation by its LaTeX', () => {
    const equation = schema.nodes.equation.create({ equation: 'x^2' });
    const { doc, starts } = body([paragraph(schema.text('is '), equation)]);
    const tr = new Transform(doc);
    tr.addMark(starts[0], starts[0] + 4, schema.marks.insertion.create(bob));
    expect(changeQuote(tr.doc, trackedChanges(tr.doc)[0])).toEqual({ kind: 'inserted', text: 'is $x^2$' });
  });
});
