import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import type { ImportedDocument } from '../import/model';
import type { CommentEntry, CommentThread } from '../ws/review-messages';
import type { ExportInput } from './model';

/**
 * Issue 54: a document with two comment threads that have answers, one resolved and one open,
 * for the DOCX and ODT writers and readers and the tools that read their files.
 */

/** A thread as the tests see it: each comment's author and text, and whether it is resolved. */
export interface ThreadShape {
  resolved: boolean;
  comments: { name: string; text: string }[];
}

export const THREAD_SHAPES: ThreadShape[] = [
  {
    resolved: true,
    comments: [
      { name: 'Ada Lovelace', text: 'Is this claim sourced?\nPlease add a citation.' },
      { name: 'Bob Marley', text: 'Added two sources.' },
      { name: 'Ada Lovelace', text: 'Thanks, resolving.' },
    ],
  },
  {
    resolved: false,
    comments: [
      { name: 'Cy Young', text: 'This paragraph is too long.' },
      { name: 'Dee Dee', text: 'I will split it.' },
    ],
  },
];

/** The thread ids of THREAD_SHAPES, in order (as large as real ids get). */
export const THREAD_IDS = [2_000_000_001, 17];

/** Each comment of the fixture is a day after the one before, from 2024-03-01 09:30 UTC. */
export function commentDate(thread: number, comment: number): number {
  return Date.UTC(2024, 2, 1 + thread * 5 + comment, 9, 30);
}

export function threadsDocument(): ExportInput {
  const s = schema.nodes;
  const mark = (index: number) => schema.marks.comment.create({ id: THREAD_IDS[index] });
  const base = createDocument(schema, standardArticle, { title: 'Threads', language: 'en-US' });
  const doc = withBody(base, [
    s.paragraph.create(null, [
      schema.text('A claim '),
      schema.text('that was questioned', [mark(0)]),
      schema.text(' and settled.'),
    ]),
    s.paragraph.create(null, [schema.text('A long paragraph still in review.', [mark(1)])]),
  ]);
  doc.check();
  const threads: CommentThread[] = THREAD_SHAPES.map((shape, index) => ({
    id: THREAD_IDS[index],
    user: 1,
    resolved: shape.resolved,
    assigned: null,
    created: commentDate(index, 0),
    comments: shape.comments.map(
      (comment, n): CommentEntry => ({
        id: index * 10 + n + 1,
        user: n + 1,
        name: comment.name,
        text: comment.text,
        created: commentDate(index, n),
        updated: commentDate(index, n),
      }),
    ),
  }));
  return { content: doc.toJSON(), threads, images: {}, csl: null };
}

/** The threads of an imported file as THREAD_SHAPES has them. */
export function importedShapes(imported: ImportedDocument): ThreadShape[] {
  return imported.threads.map((thread) => ({
    resolved: thread.resolved,
    comments: thread.comments.map((comment) => ({ name: comment.author, text: comment.text })),
  }));
}

/** The text each imported thread's comment mark covers, in the threads' order. */
export function markedTexts(imported: ImportedDocument): string[] {
  const texts = new Map<number, string>();
  schema.nodeFromJSON(imported.content).descendants((node) => {
    for (const mark of node.marks)
      if (mark.type.name === 'comment' && node.isText) {
        const id = Number(mark.attrs.id);
        texts.set(id, (texts.get(id) ?? '') + node.text);
      }
    return true;
  });
  return imported.threads.map((thread) => texts.get(thread.id) ?? '');
}
