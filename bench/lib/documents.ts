import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import type { Node as PMNode } from 'prosemirror-model';

/** A standard article titled `title` whose body part holds `paragraphs` (the benches' documents). */
export function articleWithBody(title: string, paragraphs: PMNode[]): PMNode {
  const empty = createDocument(schema, standardArticle, { title });
  const parts: PMNode[] = [];
  empty.forEach((node) => {
    parts.push(node.attrs.id === 'body' ? node.type.create(node.attrs, paragraphs) : node);
  });
  return schema.nodes.doc.create(empty.attrs, parts);
}
