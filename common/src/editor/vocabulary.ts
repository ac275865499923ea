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

/**
 * How headings are numbered (a document setting, set from its template): none; decimal 1 / 1.1 /
 * 1.1.1; chapter, the same with the first level a chapter ("Chapter 2", a thesis); roman, IEEE's
 * I. / A. / 1) (cross-references "Section III-A"). Three levels are numbered, as LaTeX does.
 */
export const HEADING_NUMBERINGS = ['none', 'decimal', 'chapter', 'roman'] as const;
export type HeadingNumbering = (typeof HEADING_NUMBERINGS)[number];
export const NUMBERED_HEADING_LEVELS = 3;

/** The LaTeX layouts a document is exported with (latex.ts): a class, its preamble and front matter. */
export const LATEX_CLASSES = [
  'article',
  'apa7-student',
  'apa7-professional',
  'ieee-conference',
  'acm-sigconf',
  'elsevier',
  'lncs',
  'thesis',
] as const;
export type LatexClass = (typeof LATEX_CLASSES)[number];
