import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import type { Node as PMNode } from 'prosemirror-model';
import type { BenchServer } from './server';

/** A standard article titled `title` whose body part holds `paragraphs` (the benches' documents). */
export function articleWithBody(title: string, paragraphs: PMNode[]): PMNode {
  const empty = createDocument(schema, standardArticle, { title });
  const parts: PMNode[] = [];
  empty.forEach((node) => {
    parts.push(node.attrs.id === 'body' ? node.type.create(node.attrs, paragraphs) : node);
  });
  return schema.nodes.doc.create(empty.attrs, parts);
}

/**
 * A new document of the user whose session `headers` carry, made as the browser makes one; with
 * `content`, that is then stored as its content, a snapshot alone (version 0, no steps). Its id.
 */
export async function createBenchDocument(
  server: BenchServer,
  headers: Record<string, string>,
  content?: PMNode,
): Promise<number> {
  const response = await fetch(`${server.base}/api/documents/create/`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'title=',
  });
  if (response.status !== 200) throw new Error(`create: ${response.status} ${await response.text()}`);
  const { id } = (await response.json()) as { id: number };
  if (content)
    await server.ctx.db
      .updateTable('documents')
      .set({ content: JSON.stringify(content.toJSON()), content_version: 0, version: 0 })
      .where('id', '=', id)
      .execute();
  return id;
}
