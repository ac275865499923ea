import type { Node as PMNode } from 'prosemirror-model';
import type { CrossReferenceForm } from '../editor/academic-nodes';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { stripedPng } from '../export/fixture-paper';
import type { ExportInput } from '../export/model';

/**
 * A paper of several pages whose first paragraph refers to a figure, a table and headings further
 * on in each form of a cross-reference (the tests of the page forms, issue 53/54): "See page
 * {figure}, Table 1 on page {table}, Section 2 on page {heading} and page 1."
 */

const FILLER =
  'The measurements of this study were repeated under controlled conditions, and each series was ' +
  'compared with the expectations of the model before any conclusion was drawn from it; where the ' +
  'results disagreed, the apparatus was checked, the calibration repeated and the series measured ' +
  'once more, so that the values reported here are those of the last complete run of the experiment.';

export const PAGE_REFERENCE_TARGETS = { figure: 'Fmark', table: 'Tmark', heading: 'Hlater' };

export function pageReferencePaper(language = 'en-US'): { doc: PMNode; input: ExportInput } {
  const s = schema.nodes;
  const filler = (n: number) =>
    Array.from({ length: n }, () => s.paragraph.create(null, schema.text(FILLER)));
  const ref = (id: string, form: CrossReferenceForm) => s.cross_reference.create({ id, form });
  const src = `/media/images/${'a'.repeat(64)}.png`;
  const body = [
    s.heading.create({ level: 1, id: 'Hintro' }, schema.text('Introduction')),
    s.paragraph.create(null, [
      schema.text('See '),
      ref(PAGE_REFERENCE_TARGETS.figure, 'page'),
      schema.text(', '),
      ref(PAGE_REFERENCE_TARGETS.table, 'number-page'),
      schema.text(', '),
      ref(PAGE_REFERENCE_TARGETS.heading, 'number-page'),
      schema.text(' and '),
      ref('Hintro', 'page'),
      schema.text('. Plainly '),
      ref(PAGE_REFERENCE_TARGETS.figure, 'number'),
      schema.text('.'),
    ]),
    ...filler(14),
    s.figure.create({
      id: PAGE_REFERENCE_TARGETS.figure,
      category: 'figure',
      image: 1,
      src,
      caption: 'Marker figure',
      width: 40,
    }),
    ...filler(14),
    s.heading.create({ level: 1, id: PAGE_REFERENCE_TARGETS.heading }, schema.text('Later results')),
    ...filler(14),
    s.table.create({ id: PAGE_REFERENCE_TARGETS.table, caption: 'Marker table' }, [
      s.table_row.create(null, [
        s.table_header.create(null, s.paragraph.create(null, schema.text('Group'))),
        s.table_header.create(null, s.paragraph.create(null, schema.text('Value'))),
      ]),
      s.table_row.create(null, [
        s.table_cell.create(null, s.paragraph.create(null, schema.text('A'))),
        s.table_cell.create(null, s.paragraph.create(null, schema.text('1.5'))),
      ]),
    ]),
    ...filler(3),
  ];
  const doc = withBody(createDocument(schema, standardArticle, { title: 'Pages of things', language }), body);
  return {
    doc,
    input: {
      content: doc.toJSON(),
      threads: [],
      images: { [src]: { data: stripedPng(120, 80, [200, 80, 60]), type: 'image/png' } },
      csl: null,
    },
  };
}
