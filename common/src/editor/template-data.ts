import { BODY_ELEMENTS, type BodyElement, FORMAT_MARKS, type FormatMark } from './vocabulary';

/**
 * Document templates as data: a list of parts with the elements and marks each allows. The
 * built-in "Standard article" is one of them; the Templates plugin can define others without
 * touching the schema, because every part is one of six generic kinds.
 */

export const PART_KINDS = [
  'heading_part',
  'richtext_part',
  'contributors_part',
  'tags_part',
  'toc_part',
  'separator_part',
] as const;
export type PartKind = (typeof PART_KINDS)[number];

export interface TemplatePart {
  /** Stable id inside the template (`subtitle`, `abstract`, ...). */
  id: string;
  kind: PartKind;
  /** Shown to authors when the template has no translation for `id`. */
  title: string;
  /** An optional part can be hidden by the authors. */
  optional: boolean;
  /** Whether a new document starts with it hidden. */
  hidden: boolean;
  /** Block and inline elements allowed (rich-text parts); empty for the other kinds. */
  elements: BodyElement[];
  /** Formatting marks allowed; comment and tracked-change marks are always allowed. */
  marks: FormatMark[];
  /** Shown to authors beside the part (a stored template's help text; copied into the document). */
  help?: string;
}

export interface DocumentTemplate {
  id: string;
  title: string;
  /** The title always comes first (it is the document's title); these parts follow it. */
  parts: TemplatePart[];
}

const ALL_MARKS: FormatMark[] = [...FORMAT_MARKS];
const TITLE_MARKS: FormatMark[] = ['em', 'strong', 'underline', 'sup', 'sub', 'smallcaps'];

export const standardArticle: DocumentTemplate = {
  id: 'standard-article',
  title: 'Standard article',
  parts: [
    {
      id: 'subtitle',
      kind: 'heading_part',
      title: 'Subtitle',
      optional: true,
      hidden: true,
      elements: [],
      marks: TITLE_MARKS,
    },
    {
      id: 'authors',
      kind: 'contributors_part',
      title: 'Authors',
      optional: true,
      hidden: false,
      elements: [],
      marks: [],
    },
    {
      id: 'abstract',
      kind: 'richtext_part',
      title: 'Abstract',
      optional: true,
      hidden: false,
      elements: ['paragraph', 'footnote', 'hard_break', 'equation', 'citation', 'cross_reference'],
      marks: ALL_MARKS,
    },
    {
      id: 'keywords',
      kind: 'tags_part',
      title: 'Keywords',
      optional: true,
      hidden: false,
      elements: [],
      marks: [],
    },
    {
      id: 'body',
      kind: 'richtext_part',
      title: 'Body',
      optional: false,
      hidden: false,
      // Every block element, in the schema's order.
      elements: [...BODY_ELEMENTS],
      marks: ALL_MARKS,
    },
  ],
};

export const templates: readonly DocumentTemplate[] = [standardArticle];
