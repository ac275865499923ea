/**
 * The names of the document's elements, marks and paper sizes: what templates, document settings
 * and the API's schemas refer to. Plain data without ProseMirror, so that a screen that only names
 * them (the overview, the templates' API) does not load the editor (schema.ts builds the schema).
 */

/** The academic elements (academic-nodes.ts): equations, citations, cross-references, figures. */
export const ACADEMIC_ELEMENTS = ['equation', 'citation', 'cross_reference', 'figure'] as const;

/** The formatting marks of the body, in toolbar order. */
export const FORMAT_MARKS = ['em', 'strong', 'underline', 'sup', 'sub', 'code', 'smallcaps', 'link'] as const;
export type FormatMark = (typeof FORMAT_MARKS)[number];

/** The block elements a template may allow in a rich-text part. */
export const BODY_ELEMENTS = [
  'paragraph',
  'heading1',
  'heading2',
  'heading3',
  'heading4',
  'heading5',
  'heading6',
  'blockquote',
  'bullet_list',
  'ordered_list',
  'code_block',
  'horizontal_rule',
  'table',
  'footnote',
  'hard_break',
  ...ACADEMIC_ELEMENTS,
] as const;
export type BodyElement = (typeof BODY_ELEMENTS)[number];

export const PAPER_SIZES = ['A4', 'US Letter'] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];
