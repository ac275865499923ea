import type { Node as PMNode } from 'prosemirror-model';
import type { CommentThread } from '../ws/review-messages';

/** The walk the text-based writers share: inline content and block lists, node by node. */
export abstract class NodeWriter {
  abstract inline(node: PMNode): string;
  abstract block(node: PMNode): string;

  inlineContent(node: PMNode): string {
    let out = '';
    node.forEach((child) => {
      out += this.inline(child);
    });
    return out;
  }

  blocks(parent: PMNode): string {
    let out = '';
    parent.forEach((node) => {
      out += this.block(node);
    });
    return out;
  }
}

/** The image sources of a document's figures, in document order. */
export function figureSources(doc: PMNode): string[] {
  const srcs: string[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'figure' && node.attrs.src) srcs.push(String(node.attrs.src));
    return true;
  });
  return srcs;
}

/**
 * A comment thread as the office formats write it (one comment each): the first comment's author
 * and time, and its text and then every answer as "name: text", one line per paragraph.
 */
export function threadLines(thread: CommentThread): { name: string; created: number; lines: string[] } {
  const [first, ...answers] = thread.comments;
  const texts = [first.text, ...answers.map((answer) => `${answer.name}: ${answer.text}`)];
  return { name: first.name, created: first.created, lines: texts.flatMap((text) => text.split(/\n+/)) };
}
