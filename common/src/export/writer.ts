import type { Node as PMNode } from 'prosemirror-model';

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
