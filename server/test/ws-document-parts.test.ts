import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, type DocumentTemplate, type PartKind } from '@scriptorium/common/editor/templates';
import type { Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { afterEach, describe, expect, it } from 'vitest';
import { currentContent } from '../src/modules/documents/collab/store';
import { DocumentClient } from '../src/ws/document-client';
import { ENGINES, useServer } from './harness';
import { cookieHeader, wsUrlBase } from './ws-support';

/**
 * Issue 21: a template's parts cannot be removed or reordered in the editor; the collaboration
 * server refuses a diff that does it anyway (a modified client), for every part kind, the table of
 * contents and the separator included.
 */

const part = (id: string, kind: PartKind) => ({
  id,
  kind,
  title: id,
  optional: false,
  hidden: false,
  elements: kind === 'richtext_part' ? ['paragraph' as const] : [],
  marks: [],
});

const TEMPLATE: DocumentTemplate = {
  id: 'template-parts',
  title: 'Parts',
  parts: [
    part('subtitle', 'heading_part'),
    part('contents', 'toc_part'),
    part('intro', 'richtext_part'),
    part('break', 'separator_part'),
    part('body', 'richtext_part'),
  ],
};

/** The position and node of the top-level part `id`. */
function partAt(doc: PMNode, id: string): { pos: number; node: PMNode } {
  let found: { pos: number; node: PMNode } | undefined;
  doc.forEach((node, pos) => {
    if (node.attrs.id === id) found = { pos, node };
  });
  if (!found) throw new Error(`no part ${id}`);
  return found;
}

function stepsOf(doc: PMNode, change: (tr: Transform) => void) {
  const tr = new Transform(doc);
  change(tr);
  return tr.steps.map((step) => step.toJSON());
}

const removal = (doc: PMNode, id: string) =>
  stepsOf(doc, (tr) => {
    const { pos, node } = partAt(doc, id);
    tr.delete(pos, pos + node.nodeSize);
  });

describe.each(ENGINES)('template parts on the collaboration server (%s)', (engine) => {
  const server = useServer(engine);
  const clients: DocumentClient[] = [];

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  async function openTemplateDocument() {
    const owner = await server().buildUser();
    const browser = await server().loginAs(owner);
    const response = await browser.call(documentsApi.create, { title: 'Parts' });
    expect(response.status, response.text).toBe(200);
    const { id } = response.json<{ id: number }>();
    const content = createDocument(schema, TEMPLATE, { title: 'Parts' });
    await server()
      .ctx.db.updateTable('documents')
      .set({ content: JSON.stringify(content.toJSON()), content_version: 0, version: 0 })
      .where('id', '=', id)
      .execute();
    const client = new DocumentClient({
      wsUrlBase: wsUrlBase(server().baseUrl),
      documentId: id,
      headers: { cookie: cookieHeader(browser), origin: server().baseUrl },
    });
    clients.push(client);
    await client.open();
    return { id, client };
  }

  it('refuses a diff that removes, adds or reorders a part, and takes edits inside the parts', async () => {
    const { id, client } = await openTemplateDocument();
    const doc = client.state?.doc as PMNode;
    expect(partAt(doc, 'contents').node.type.name).toBe('toc_part');
    const before = await currentContent(server().ctx.db, id);

    const separator = partAt(doc, 'break');
    const moved = stepsOf(doc, (tr) => {
      tr.delete(separator.pos, separator.pos + separator.node.nodeSize);
      tr.insert(partAt(doc, 'contents').pos, separator.node);
    });
    const added = stepsOf(doc, (tr) => tr.insert(doc.content.size, separator.node.copy()));
    const cases: [string, ReturnType<typeof stepsOf>][] = [
      ['the table of contents removed', removal(doc, 'contents')],
      ['the separator removed', removal(doc, 'break')],
      ['a rich-text part removed', removal(doc, 'intro')],
      ['a heading part removed', removal(doc, 'subtitle')],
      ['the separator moved before the table of contents', moved],
      ['a second separator added', added],
    ];
    for (const [what, ds] of cases)
      expect(await client.sendRaw({ v: 0, ds }), what).toMatchObject({
        type: 'reject_diff',
        reason: 'schema',
      });
    expect(await currentContent(server().ctx.db, id)).toBe(before);

    // Text inside a part is an ordinary edit.
    const body = partAt(doc, 'body');
    const typed = stepsOf(doc, (tr) => tr.insert(body.pos + 2, schema.text('kept')));
    expect(await client.sendRaw({ v: 0, ds: typed })).toMatchObject({ type: 'confirm_diff' });
    const after = schema.nodeFromJSON(JSON.parse(String(await currentContent(server().ctx.db, id))));
    expect(partAt(after, 'body').node.textContent).toBe('kept');
    expect(partAt(after, 'break').node.type.name).toBe('separator_part');
  });
});
