import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { firstParagraphStart } from '@scriptorium/common/editor/testing';
import type { DocumentServerMessage } from '@scriptorium/common/ws/document-messages';
import { Fragment, Slice } from 'prosemirror-model';
import { ReplaceStep } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { DocumentClient } from './document-client';

const OURS = 'session-ours-0001';
const THEIRS = 'session-theirs-0001';

/** A client that never connects: the server's messages are handed to it as the connector would. */
function offlineClient() {
  const client = new DocumentClient({ wsUrlBase: 'ws://127.0.0.1:9/ws', documentId: 1, headers: {} });
  const receive = (message: DocumentServerMessage) =>
    (client as unknown as { receive(message: DocumentServerMessage): void }).receive(message);
  return { client, receive };
}

const insert = (at: number, text: string) =>
  new ReplaceStep(at, at, new Slice(Fragment.from(schema.text(text)), 0, 0)).toJSON();

describe('DocumentClient', () => {
  it("takes its own step committed after another's (a rebased diff in a catch_up) as confirmed, not twice", () => {
    const { client, receive } = offlineClient();
    const doc = createDocument(schema, standardArticle, { title: 'T' });
    receive({
      type: 'doc_data',
      doc: { id: 1, v: 0, title: 'T', content: doc.toJSON() },
      access_right: 'write',
      is_owner: true,
      session_id: OURS,
      participants: [],
    });
    const start = firstParagraphStart(doc);
    client.edit((tr) => tr.insertText('a', start));
    expect(client.unconfirmed).toBe(1);
    // The server committed another's 'x' first, then our 'a' rebased after it (at start + 1).
    receive({ type: 'diff', v: 0, ds: [insert(start, 'x'), insert(start + 1, 'a')], cids: [THEIRS, OURS] });
    expect(client.version).toBe(2);
    expect(client.unconfirmed).toBe(0);
    const after = client.state!.doc;
    expect(after.textBetween(after.child(0).nodeSize, after.content.size)).toBe('xa');
  });
});
