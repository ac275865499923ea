import type { NodeSpec } from 'prosemirror-model';
import { BLOCK_TRACK_MARKS } from '../../editor/review-marks';

/**
 * A footnote holds real paragraphs so that two authors editing one footnote produce ordinary,
 * mergeable steps (a footnote kept in an attribute would be overwritten whole). Numbering is
 * done when rendering. A footnote inside a footnote is refused by the feature's `problem` check
 * (`checkDocument`): the content expression cannot exclude it by context. `aside`: its text is
 * not in the flow of the text (outlines, tables of contents and searches by block skip it).
 */
export const footnoteNodes = {
  footnote: {
    inline: true,
    group: 'inline',
    content: 'paragraph+',
    marks: BLOCK_TRACK_MARKS,
    atom: true,
    aside: true,
    parseDOM: [{ tag: 'span[data-footnote]' }],
    toDOM: () => ['span', { class: 'doc-footnote', 'data-footnote': '' }, 0],
  },
} satisfies Record<string, NodeSpec>;
