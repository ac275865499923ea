import type { CrossReferenceForm } from '../editor/academic-nodes';

/**
 * The readers' common intermediate form: DOCX and ODT differ in markup but not in what they say
 * (paragraphs with runs, lists, tables, notes), so both produce these blocks, and build.ts
 * translates them to our schema.
 */

export type JsonMark = { type: string; attrs?: Record<string, unknown> };

export type Inline =
  | { kind: 'text'; text: string; marks: JsonMark[] }
  | { kind: 'break' }
  | { kind: 'equation'; latex: string; marks: JsonMark[] }
  | {
      kind: 'citation';
      references: { id: string; prefix: string; locator: string }[];
      format?: 'autocite' | 'textcite';
      /** A note style's text citation: the author's name our export wrote before the note. */
      author?: string;
      /** Suggestion and comment marks of the field's runs (DOCX: a citation deleted as a suggestion). */
      marks?: JsonMark[];
    }
  /** A note of the file (at the foot of the page or the end): a node feature takes it. */
  /** `marks`: the note reference's suggestion marks (a note deleted or inserted as a suggestion). */
  | { kind: 'note'; blocks: Block[]; marks?: JsonMark[] }
  /**
   * Images and display equations sit inside paragraphs in office files; we lift them out. `id`:
   * the bookmark cross-references reach them by; a caption paragraph beside them sets both.
   */
  | {
      kind: 'image';
      key: string;
      caption: string;
      id?: string;
      category?: string;
      /** Its paragraph's (or frame's) alignment, when the file sets one. */
      aligned?: 'left' | 'center' | 'right';
    }
  | { kind: 'display_equation'; latex: string; id?: string; caption?: string }
  /** A cross-reference to a bookmark (REF field, internal link); `text`: what it read, if no target. */
  | { kind: 'cross_reference'; target: string; text: string; marks: JsonMark[]; form?: CrossReferenceForm }
  /** A bookmark's start: the target name of cross-references to what holds it. */
  | { kind: 'anchor'; name: string }
  /** A SEQ field of a caption or an equation number (`name`: its sequence, "Figure", "Table"). */
  | { kind: 'sequence'; name: string }
  /**
   * A suggested join inside a paragraph (ODT writes one as a point in the joined paragraph): the
   * readers split the paragraph there, the block after it carrying `marks` as its boundary; a
   * reader that keeps no boundaries drops it. `next`: what the block after it is.
   */
  | { kind: 'join'; marks: JsonMark[]; next: { heading?: number; item: boolean } };

export interface Cell {
  blocks: Block[];
  colspan: number;
  rowspan: number;
  header: boolean;
}

/**
 * A paragraph or heading: `boundary`, the suggested split (insertion) or join (deletion) of the
 * break before it, as the office formats record it on the paragraph mark before (our model keeps
 * it on the block after the break, or on its list item: editor/track-blocks.ts).
 */
export type Block =
  /**
   * `inserted`: the paragraph is new as a whole, its content and its paragraph mark inserted by
   * this one suggestion (Word's record of an inserted list item): as a list item, the item (or,
   * all of them so, the list) carries it, as our editor records an inserted item.
   */
  | { kind: 'paragraph'; inlines: Inline[]; boundary?: JsonMark[]; inserted?: JsonMark }
  | { kind: 'heading'; level: number; inlines: Inline[]; boundary?: JsonMark[] }
  | { kind: 'list'; ordered: boolean; items: Block[][] }
  /** `rowChanges`: per row, its suggested insertion or deletion. */
  | { kind: 'table'; rows: Cell[][]; rowChanges?: JsonMark[][]; id?: string; caption?: string }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; blocks: Block[] }
  /**
   * A caption paragraph (its style, or a SEQ field in it): the caption of the table after it or
   * of the figure or display equation before it; else a paragraph of its `full` text.
   */
  | { kind: 'caption'; category: string; text: string; full: Inline[]; anchors: string[] }
  /** A table of contents (a TOC field, Word's ToC content control, text:table-of-content): our contents part. */
  | { kind: 'contents'; title: string };
