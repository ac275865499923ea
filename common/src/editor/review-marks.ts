import type { MarkSpec } from 'prosemirror-model';
import { listAttr, stringAttr } from './dom-attrs';

/**
 * The review marks of the document schema (issue 18): comment anchors and tracked changes. They
 * live apart from schema.ts so that review work and new node types do not meet in one file.
 *
 * - `comment` holds the id of a thread (threads are stored by the server, migration 010). Comments
 *   may overlap (`excludes: ''`).
 * - `insertion`, `deletion` and `format_change` record a suggestion with its author (id and name:
 *   the name stays readable after the account is gone) and time. An insertion and a deletion may
 *   sit on the same text: that is someone's deletion of another author's suggested insertion.
 * - On a block (node marks, allowed by the containers through BLOCK_TRACK_MARKS) they record
 *   structure: `insertion` = the split before this block is suggested (Enter), `deletion` = joining
 *   this block with the one before it is suggested (Backspace at its start), `block_change` = its
 *   type or attributes were changed (a heading level), `before` holding the old {type, attrs}.
 */

export const COMMENT_MARK = 'comment';
export const TRACKED_CHANGE_MARKS = ['insertion', 'deletion', 'format_change', 'block_change'] as const;
export type TrackedChangeMark = (typeof TRACKED_CHANGE_MARKS)[number];

/** The marks a block may carry (the `marks` of nodes holding blocks). */
export const BLOCK_TRACK_MARKS = 'insertion deletion block_change';

/** What `block_change` records: the block's type and attributes before the change. */
export interface BlockBefore {
  type: string;
  attrs: Record<string, unknown>;
}

/** Marks every text may carry, whatever the template says, because review needs them everywhere. */
export const REVIEW_MARKS = `${COMMENT_MARK} ${TRACKED_CHANGE_MARKS.join(' ')}`;

function trackAttrs(extra: Record<string, { default: unknown }> = {}) {
  return { user: { default: 0 }, username: { default: '' }, date: { default: 0 }, ...extra };
}

function trackParse(tag: string, withFormats = false): MarkSpec['parseDOM'] {
  return [
    {
      tag,
      getAttrs: (dom: HTMLElement) => ({
        user: Number(dom.getAttribute('data-user') ?? '0'),
        username: stringAttr(dom, 'data-username'),
        date: Number(dom.getAttribute('data-date') ?? '0'),
        ...(withFormats ? { before: listAttr(dom, 'data-before'), after: listAttr(dom, 'data-after') } : {}),
      }),
    },
  ];
}

function trackDOM(className: string, attrs: Record<string, unknown>, inline = true): Record<string, string> {
  return {
    class: inline ? className : `${className} block-mark`,
    'data-user': String(attrs.user),
    'data-username': String(attrs.username),
    'data-date': String(attrs.date),
  };
}

export const REVIEW_MARK_SPECS: Record<string, MarkSpec> = {
  comment: {
    attrs: { id: { default: 0 } },
    excludes: '',
    inclusive: false,
    parseDOM: [
      {
        tag: 'span.comment[data-id]',
        getAttrs: (dom: HTMLElement) => ({ id: Number(dom.getAttribute('data-id') ?? '0') }),
      },
    ],
    toDOM: (mark) => ['span', { class: 'comment', 'data-id': String(mark.attrs.id) }, 0],
  },
  /** On a block, `join` > 0: the levels rejecting the split joins (an item split off a paragraph: 1); 0: through to the text. */
  insertion: {
    attrs: trackAttrs({ approved: { default: false }, join: { default: 0 } }),
    inclusive: false,
    parseDOM: trackParse('span.insertion'),
    toDOM: (mark, inline) => [
      inline ? 'span' : 'div',
      trackDOM(mark.attrs.approved ? 'insertion approved' : 'insertion', mark.attrs, inline),
      0,
    ],
  },
  /** On a block, `join` > 0: the levels the suggested join closes (list items merged: 1); 0: through to the text. */
  deletion: {
    attrs: trackAttrs({ join: { default: 0 } }),
    inclusive: false,
    parseDOM: trackParse('span.deletion'),
    toDOM: (mark, inline) => [inline ? 'span' : 'div', trackDOM('deletion', mark.attrs, inline), 0],
  },
  /** `before` and `after` name the formatting marks the change removed and added. */
  format_change: {
    attrs: trackAttrs({ before: { default: [] as string[] }, after: { default: [] as string[] } }),
    inclusive: false,
    parseDOM: trackParse('span.format-change', true),
    toDOM: (mark) => [
      'span',
      {
        ...trackDOM('format-change', mark.attrs),
        'data-before': (mark.attrs.before as string[]).join(' '),
        'data-after': (mark.attrs.after as string[]).join(' '),
      },
      0,
    ],
  },
  /** Only on blocks: not parsed from pasted HTML (a paste is tracked as an insertion anyway). */
  block_change: {
    attrs: trackAttrs({ before: { default: null as BlockBefore | null } }),
    toDOM: (mark) => ['div', trackDOM('block-type-change', mark.attrs, false), 0],
  },
};

/** Whether a mark name only records review work (comments, tracked changes). */
export function isReviewMark(name: string): boolean {
  return name === COMMENT_MARK || (TRACKED_CHANGE_MARKS as readonly string[]).includes(name);
}
