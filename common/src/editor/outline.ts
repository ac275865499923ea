import type { Node as PMNode } from 'prosemirror-model';
import { isAside } from './schema';

export interface OutlineEntry {
  level: number;
  text: string;
  /** The heading's id: the target of internal links. */
  id: string;
  /** Position of the heading node, for scrolling to it. */
  pos: number;
}

/** The headings of the document in order (not those inside asides, such as notes, or tables). */
export function outline(doc: PMNode): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'heading') {
      entries.push({
        level: Number(node.attrs.level),
        text: node.textContent,
        id: String(node.attrs.id),
        pos,
      });
      return false;
    }
    return !node.isTextblock && node.type.name !== 'table' && !isAside(node);
  });
  return entries;
}
