// @vitest-environment jsdom
import { DOMSerializer, DOMParser as PMDOMParser, type Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { schema } from './schema';

const n = schema.nodes;
const serializer = DOMSerializer.fromSchema(schema);

function html(node: PMNode): string {
  return (serializer.serializeNode(node) as HTMLElement).outerHTML;
}

function part(type: string, id: string, content: PMNode[] = []): PMNode {
  const attrs = {
    id,
    title: `Part ${id}`,
    optional: true,
    hidden: id === 'tags',
    elements: ['paragraph', 'blockquote'],
    marks: ['em', 'code'],
    help: `Help for ${id}`,
  };
  return n[type].create(attrs, content);
}

describe('node and mark specs built from dom-attrs.ts', () => {
  it('draw the same HTML as before', () => {
    expect(html(n.keyword.create({ keyword: 'maths' }))).toBe(
      '<span class="doc-keyword" data-keyword="maths">maths</span>',
    );
    expect(html(n.equation.create({ equation: 'x^2' }))).toBe(
      '<span class="doc-equation" data-equation="x^2">$x^2$</span>',
    );
    expect(html(n.paragraph.create(null, schema.text('a', [schema.marks.code.create()])))).toBe(
      '<p><code>a</code></p>',
    );
    expect(html(part('tags_part', 'tags'))).toBe(
      '<div class="doc-part doc-tags_part doc-part-hidden" data-part="tags_part" data-part-id="tags" data-title="Part tags" data-optional="true" data-hidden="true" data-elements="paragraph blockquote" data-marks="em code" data-help="Help for tags"></div>',
    );
  });

  it('read back every attribute they draw', () => {
    const paragraph = (text: string) => n.paragraph.create(null, schema.text(text));
    const cell = n.table_cell.create(null, paragraph('cell'));
    const doc = n.doc.create(null, [
      n.title.create(null, schema.text('Title')),
      part('heading_part', 'subtitle', [schema.text('Sub')]),
      part('contributors_part', 'authors', [
        n.contributor.create({
          firstname: 'Ada',
          lastname: 'Lovelace',
          email: 'ada@example.org',
          institution: 'Analytical Society',
          orcid: '0000-0001',
        }),
      ]),
      part('tags_part', 'tags', [n.keyword.create({ keyword: 'maths' })]),
      part('richtext_part', 'body', [
        n.paragraph.create(null, [
          schema.text('See '),
          n.equation.create({ equation: 'e^{i\\pi}' }),
          n.cross_reference.create({ id: 'table-1', title: 'Table 1' }),
          n.cross_reference.create({ id: 'table-1', title: 'Table 1', form: 'number-page' }),
          schema.text('code', [schema.marks.code.create()]),
        ]),
        n.blockquote.create(null, paragraph('quoted')),
        n.bullet_list.create(null, n.list_item.create(null, paragraph('item'))),
        n.table.create({ id: 'table-1', caption: 'Numbers' }, n.table_row.create(null, cell)),
      ]),
      part('toc_part', 'toc'),
      part('separator_part', 'rule'),
    ]);
    const dom = document.createElement('div');
    dom.appendChild(serializer.serializeFragment(doc.content));
    expect(PMDOMParser.fromSchema(schema).parse(dom).toJSON()).toEqual(doc.toJSON());
  });
});
