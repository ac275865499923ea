import { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { isReviewMark, schema } from './schema';
import { checkDocument, createDocument, documentTitle, standardArticle } from './templates';

const body = (doc: PMNode) => doc.child(doc.childCount - 1);

/** A Standard article whose body holds `blocks` (JSON of block nodes). */
function article(blocks: unknown[]): PMNode {
  const base = createDocument(schema, standardArticle, { title: 'On Ink' }).toJSON();
  base.content[base.content.length - 1].content = blocks;
  return PMNode.fromJSON(schema, base);
}

const p = (...content: unknown[]) => ({ type: 'paragraph', content });
const text = (value: string, marks?: unknown[]) =>
  marks ? { type: 'text', text: value, marks } : { type: 'text', text: value };

describe('schema', () => {
  it('builds a valid empty Standard article with title, subtitle, authors, abstract, keywords and body', () => {
    const doc = createDocument(schema, standardArticle, {
      title: 'On Ink',
      language: 'de-DE',
      paperSize: 'US Letter',
    });
    doc.check();
    expect(doc.attrs).toEqual({
      citationstyle: 'apa',
      template: 'standard-article',
      language: 'de-DE',
      paper_size: 'US Letter',
      heading_numbering: 'decimal',
      latex_class: 'article',
    });
    const kinds: string[] = [];
    doc.forEach((node) => {
      kinds.push(`${node.type.name}:${node.attrs.id ?? ''}`);
    });
    expect(kinds).toEqual([
      'title:',
      'heading_part:subtitle',
      'contributors_part:authors',
      'richtext_part:abstract',
      'tags_part:keywords',
      'richtext_part:body',
    ]);
    expect(doc.child(1).attrs.hidden).toBe(true);
    expect(doc.child(1).attrs.optional).toBe(true);
    expect(body(doc).firstChild?.type.name).toBe('paragraph');
    expect(documentTitle(doc)).toBe('On Ink');
    expect(checkDocument(doc)).toEqual([]);
  });

  it('round-trips every body element and mark through JSON', () => {
    const doc = article([
      { type: 'heading', attrs: { level: 3, id: 'H1' }, content: [text('Methods')] },
      p(
        text('a', [{ type: 'em' }, { type: 'strong' }, { type: 'underline' }]),
        text('b', [{ type: 'sup' }]),
        text('c', [{ type: 'sub' }]),
        text('d', [{ type: 'code' }, { type: 'smallcaps' }]),
        text('e', [{ type: 'link', attrs: { href: '#H1', title: '' } }]),
        { type: 'hard_break' },
        { type: 'footnote', content: [p(text('First note')), p(text('second paragraph'))] },
      ),
      { type: 'blockquote', content: [p(text('quoted'))] },
      { type: 'bullet_list', content: [{ type: 'list_item', content: [p(text('one'))] }] },
      {
        type: 'ordered_list',
        attrs: { start: 4 },
        content: [{ type: 'list_item', content: [p(text('four'))] }],
      },
      { type: 'code_block', attrs: { language: 'python' }, content: [text('print(1)')] },
      { type: 'horizontal_rule' },
    ]);
    doc.check();
    const again = PMNode.fromJSON(schema, JSON.parse(JSON.stringify(doc.toJSON())));
    expect(again.eq(doc)).toBe(true);
    expect(checkDocument(doc)).toEqual([]);
  });

  it('holds tables with header rows, merged cells and column widths', () => {
    const cell = (type: string, value: string, attrs: Record<string, unknown> = {}) => ({
      type,
      attrs: { colspan: 1, rowspan: 1, colwidth: null, ...attrs },
      content: [p(text(value))],
    });
    const doc = article([
      {
        type: 'table',
        content: [
          {
            type: 'table_row',
            content: [cell('table_header', 'A', { colwidth: [120] }), cell('table_header', 'B')],
          },
          { type: 'table_row', content: [cell('table_cell', 'merged', { colspan: 2 })] },
        ],
      },
    ]);
    doc.check();
    const table = body(doc).firstChild;
    expect(table?.type.spec.tableRole).toBe('table');
    expect(table?.child(1).child(0).attrs.colspan).toBe(2);
    expect(table?.child(0).child(0).attrs.colwidth).toEqual([120]);
  });

  it('refuses content the schema does not allow', () => {
    expect(() => article([text('loose text')]).check()).toThrow();
    expect(() =>
      article([{ type: 'code_block', content: [text('x', [{ type: 'strong' }])] }]).check(),
    ).toThrow();
    expect(() => article([{ type: 'footnote', content: [p(text('not inline here'))] }]).check()).toThrow();
    expect(() =>
      PMNode.fromJSON(schema, { type: 'doc', content: [{ type: 'paragraph' }] }).check(),
    ).toThrow();
  });

  it('keeps superscript and subscript apart but lets comments overlap', () => {
    const sup = schema.marks.sup.create();
    const sub = schema.marks.sub.create();
    expect(sub.addToSet([sup]).map((mark) => mark.type.name)).toEqual(['sub']);
    const first = schema.marks.comment.create({ id: 1 });
    const second = schema.marks.comment.create({ id: 2 });
    expect(second.addToSet([first])).toHaveLength(2);
    const inserted = schema.marks.insertion.create({ user: 7, username: 'Ada', date: 1700000000000 });
    const deleted = schema.marks.deletion.create({ user: 7, username: 'Ada', date: 1700000000000 });
    // Another author's deletion of a suggested insertion: both marks stay (review-marks.ts).
    expect(deleted.addToSet([inserted]).map((mark) => mark.type.name)).toEqual(['insertion', 'deletion']);
    expect(schema.marks.format_change.create({ before: ['em'], after: ['strong'] }).attrs).toMatchObject({
      user: 0,
      before: ['em'],
      after: ['strong'],
    });
  });

  it('allows comment and tracked-change marks in every text, even code blocks', () => {
    const doc = article([
      {
        type: 'code_block',
        content: [
          text('x', [
            { type: 'comment', attrs: { id: 3 } },
            { type: 'insertion', attrs: { user: 2 } },
          ]),
        ],
      },
    ]);
    doc.check();
    expect(['comment', 'insertion', 'deletion', 'format_change'].every(isReviewMark)).toBe(true);
    expect(isReviewMark('strong')).toBe(false);
  });

  it('reports elements and marks a part does not allow, and footnotes in footnotes', () => {
    const base = createDocument(schema, standardArticle).toJSON();
    const abstract = base.content.findIndex(
      (part: { attrs?: { id?: string } }) => part.attrs?.id === 'abstract',
    );
    base.content[abstract].content = [
      { type: 'heading', attrs: { level: 2, id: '' }, content: [text('Not here')] },
      p(text('x', [{ type: 'link', attrs: { href: 'https://example.org' } }])),
    ];
    base.content[abstract].attrs.marks = ['em'];
    base.content[base.content.length - 1].content = [
      p({ type: 'footnote', content: [p({ type: 'footnote', content: [p(text('deep'))] })] }),
    ];
    const doc = PMNode.fromJSON(schema, base);
    doc.check();
    expect(checkDocument(doc)).toEqual([
      { part: 'abstract', problem: 'heading2' },
      { part: 'abstract', problem: 'link' },
      { part: 'body', problem: 'nested_footnote' },
    ]);
  });
});
