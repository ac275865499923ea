import { ACCESS_RIGHTS, type AccessRight } from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { schema } from '@scriptorium/common/editor/schema';
import { stepsOf } from '@scriptorium/common/editor/testing';
import { abilities } from '@scriptorium/common/rules/document-abilities';
import { describe, expect, it } from 'vitest';
import { DocumentClient } from '../src/ws/document-client';
import { useDocumentEditors } from './document-editors';
import { ENGINES, type TestClient, useServer } from './harness';
import {
  bodyParagraphStart,
  cookieHeader,
  nextAfterWelcome,
  openRaw,
  waitFor,
  wsUrlBase,
} from './ws-support';

// Issue 50, finding 3: a right is checked when the socket subscribes and at every diff, not only
// when the socket was opened.

describe.each(ENGINES)(
  'the right behind a document socket, at subscribe and at every diff (%s)',
  (engine) => {
    const server = useServer(engine);
    const { user, createDocument, grant, open } = useDocumentEditors(server);

    /** Makes two users contacts (both directions), so that the owner may give rights through the API. */
    async function contacts(a: number, b: number): Promise<void> {
      const now = Date.now();
      await server()
        .ctx.db.insertInto('contacts')
        .values([
          { user_id: a, contact_id: b, created_at: now },
          { user_id: b, contact_id: a, created_at: now },
        ])
        .execute();
    }

    async function sharedDocument(rights: AccessRight) {
      const owner = await user();
      const coauthor = await user();
      await contacts(owner.user.id, coauthor.user.id);
      const id = await createDocument(owner.browser, 'Shared');
      await grant(id, coauthor.user.id, rights);
      return { owner, coauthor, id };
    }

    async function saveAccess(owner: TestClient, id: number, access: unknown[]) {
      const saved = await owner.call(documentsApi.accessSave, { id, access });
      expect(saved.status, saved.text).toBe(200);
    }

    async function version(id: number): Promise<number> {
      const row = await server()
        .ctx.db.selectFrom('documents')
        .select('version')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return row.version;
    }

    it('denies a socket opened before its right was removed when it subscribes afterwards', async () => {
      const { owner, coauthor, id } = await sharedDocument('write');
      const socket = await openRaw(`${wsUrlBase(server().baseUrl)}/document/${id}/`, {
        cookie: cookieHeader(coauthor.browser),
        origin: server().baseUrl,
      });
      // The upgrade was admitted while the right was there.
      expect(await socket.next()).toEqual({ type: 'welcome', c: 0, s: 1 });
      await saveAccess(owner.browser, id, []);
      socket.send({ type: 'subscribe', c: 1, s: 1 });
      // The transport's handshake answers first; the document's admission follows.
      let frame = await nextAfterWelcome(socket);
      while (frame.type === 'subscribed') frame = await nextAfterWelcome(socket);
      expect(frame).toMatchObject({ type: 'access_denied' });
      expect(await socket.closed).toEqual({ code: 1008, reason: 'access denied' });
      expect(socket.frames.some((frame) => frame.type === 'doc_data')).toBe(false);
    });

    // Issue 51: the editor reads what its user may do from doc_data, the server's capability model.
    it('sends with doc_data exactly the abilities of each right, and the owner its own', async () => {
      const owner = await user();
      const id = await createDocument(owner.browser, 'Shared');
      const ownEditor = await open(owner.browser, id);
      expect(ownEditor.docData?.abilities).toEqual(abilities('write', { owner: true }));
      for (const right of ACCESS_RIGHTS) {
        const coauthor = await user();
        await grant(id, coauthor.user.id, right);
        const editor = await open(coauthor.browser, id);
        expect(editor.docData?.access_right).toBe(right);
        expect(editor.docData?.abilities, right).toEqual(abilities(right));
      }
    });

    it('gives a socket opened before its right was lowered the new right at subscribe', async () => {
      const { owner, coauthor, id } = await sharedDocument('write');
      const socket = await openRaw(`${wsUrlBase(server().baseUrl)}/document/${id}/`, {
        cookie: cookieHeader(coauthor.browser),
        origin: server().baseUrl,
      });
      expect(await socket.next()).toEqual({ type: 'welcome', c: 0, s: 1 });
      await saveAccess(owner.browser, id, [
        { holder_type: 'user', holder_id: coauthor.user.id, rights: 'read' },
      ]);
      socket.send({ type: 'subscribe', c: 1, s: 1 });
      let frame = await nextAfterWelcome(socket);
      while (frame.type !== 'doc_data') frame = await nextAfterWelcome(socket);
      expect(frame).toMatchObject({ access_right: 'read', is_owner: false });
      socket.socket.close();
    });

    it('checks each diff against the right of that moment, also when no process announced the change', async () => {
      const { coauthor, id } = await sharedDocument('write');
      const editor = await open(coauthor.browser, id);
      const doc = editor.state!.doc;
      const at = bodyParagraphStart(doc);
      const plain = stepsOf(doc, (tr) => tr.insert(at, schema.text('plain')));
      const insertion = schema.marks.insertion.create({ user: coauthor.user.id, username: 'x', date: 1 });
      const suggestion = stepsOf(doc, (tr) => tr.insert(at, schema.text('suggested', [insertion])));
      const rightsSent = () =>
        editor.messages.flatMap((m) => (m.type === 'doc_data' ? [m.access_right] : []));
      // Lowered straight in the database: as if another process changed it and its announcement
      // has not arrived (or never will).
      const access = server().ctx.db.updateTable('document_access').where('document_id', '=', id);
      await access.set({ rights: 'write-tracked' }).execute();
      expect(await editor.sendRaw({ v: 0, ds: plain })).toMatchObject({
        type: 'reject_diff',
        reason: 'rights',
      });
      // The client is told: it reconnects and gets the new right without a reload.
      await waitFor(() => rightsSent().length === 2, 'a second doc_data');
      expect(rightsSent()).toEqual(['write', 'write-tracked']);

      await access.set({ rights: 'read' }).execute();
      expect(await editor.sendRaw({ v: 0, ds: suggestion })).toMatchObject({
        type: 'reject_diff',
        reason: 'read_only',
      });
      await waitFor(() => rightsSent().length === 3, 'a third doc_data');
      expect(rightsSent()).toEqual(['write', 'write-tracked', 'read']);
      expect(await version(id)).toBe(0);
    });

    it('denies the next diff of a collaborator whose right is gone, also when no process announced it', async () => {
      const { coauthor, id } = await sharedDocument('write');
      const editor = await open(coauthor.browser, id);
      const doc = editor.state!.doc;
      await server().ctx.db.deleteFrom('document_access').where('document_id', '=', id).execute();
      void editor.sendRaw({
        v: 0,
        ds: stepsOf(doc, (tr) => tr.insert(bodyParagraphStart(doc), schema.text('x'))),
      });
      await waitFor(() => editor.accessDenied, 'access_denied for the removed collaborator');
      expect(await version(id)).toBe(0);
      expect(editor.messages.some((m) => m.type === 'confirm_diff')).toBe(false);
    });

    it('sends a connected collaborator whose right was lowered the new right, without a reload', async () => {
      const { owner, coauthor, id } = await sharedDocument('write');
      const editor = new DocumentClient({
        wsUrlBase: wsUrlBase(server().baseUrl),
        documentId: id,
        headers: { cookie: cookieHeader(coauthor.browser), origin: server().baseUrl },
        timing: { reconnectMs: 50 },
      });
      try {
        expect((await editor.open()).access_right).toBe('write');
        await saveAccess(owner.browser, id, [
          { holder_type: 'user', holder_id: coauthor.user.id, rights: 'comment' },
        ]);
        await waitFor(
          () => editor.messages.some((m) => m.type === 'doc_data' && m.access_right === 'comment'),
          'doc_data with the comment right',
        );
        expect(editor.accessDenied).toBe(false);
        const doc = editor.state!.doc;
        const insert = stepsOf(doc, (tr) => tr.insert(bodyParagraphStart(doc), schema.text('no')));
        expect(await editor.sendRaw({ v: 0, ds: insert })).toMatchObject({ reason: 'rights' });
        expect(await version(id)).toBe(0);
      } finally {
        editor.close();
      }
    });
  },
);

// Issue 50, finding 4: what write-tracked, review and comment users send is their own suggestion
// or anchor, recorded so that a rejection takes it back, and never someone else's.
describe.each(ENGINES)('suggestions and anchors belong to their authors (%s)', (engine) => {
  const server = useServer(engine);
  const { user, createDocument, grant, open } = useDocumentEditors(server);

  async function version(id: number): Promise<number> {
    const row = await server()
      .ctx.db.selectFrom('documents')
      .select('version')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.version;
  }

  /** The owner's document with 'hello world' in its body, and editors of the given rights. */
  async function documentWith(rights: AccessRight[]) {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Reviewed');
    const mine = await open(owner.browser, id);
    const doc = mine.state!.doc;
    const at = bodyParagraphStart(doc);
    const typed = stepsOf(doc, (tr) => tr.insert(at, schema.text('hello world')));
    expect(await mine.sendRaw({ v: 0, ds: typed })).toMatchObject({ type: 'confirm_diff' });
    const others = [];
    for (const right of rights) {
      const other = await user();
      await grant(id, other.user.id, right);
      others.push({ user: other.user, editor: await open(other.browser, id) });
    }
    return { id, at, owner: mine, others };
  }

  it('refuses formatting and links under an empty format change of their own', async () => {
    const { id, at, others } = await documentWith(['write-tracked', 'review']);
    for (const { user: sender, editor } of others) {
      const doc = editor.state!.doc;
      const v = editor.version;
      const record = schema.marks.format_change.create({
        user: sender.id,
        username: sender.username,
        date: 1,
      });
      // A javascript: link never gets as far as the rights: the link rule refuses it first.
      for (const [mark, reason] of [
        [schema.marks.strong.create(), 'rights'],
        [schema.marks.link.create({ href: 'https://example.org/' }), 'rights'],
        [schema.marks.link.create({ href: 'javascript:alert(1)' }), 'unsafe_link'],
      ] as const) {
        const ds = stepsOf(doc, (tr) => tr.addMark(at, at + 5, record).addMark(at, at + 5, mark));
        expect(await editor.sendRaw({ v, ds })).toMatchObject({ type: 'reject_diff', reason });
      }
    }
    expect(await version(id)).toBe(1);
  });

  it("refuses taking over another author's deletion, and a commenter removing others' anchors", async () => {
    const { id, at, owner, others } = await documentWith(['write-tracked', 'review', 'comment']);
    const [tracked, reviewer, commenter] = others;
    const deletion = (by: { id: number; username: string }) =>
      schema.marks.deletion.create({ user: by.id, username: by.username, date: 1 });
    const doc = tracked.editor.state!.doc;
    const deleted = stepsOf(doc, (tr) => tr.addMark(at, at + 5, deletion(tracked.user)));
    expect(await tracked.editor.sendRaw({ v: 1, ds: deleted })).toMatchObject({ type: 'confirm_diff', v: 2 });
    await waitFor(() => reviewer.editor.version === 2, 'the deletion at the reviewer');
    const takeOver = stepsOf(reviewer.editor.state!.doc, (tr) =>
      tr.addMark(at, at + 5, deletion(reviewer.user)).removeMark(at, at + 5, deletion(reviewer.user)),
    );
    expect(await reviewer.editor.sendRaw({ v: 2, ds: takeOver })).toMatchObject({ reason: 'rights' });

    // The owner anchors a thread of theirs and one of the commenter; only the latter is the commenter's to remove.
    expect(await owner.review({ type: 'thread_create', thread: 31, text: 'Mine.' })).toMatchObject({
      type: 'review_answer',
    });
    expect(
      await commenter.editor.review({ type: 'thread_create', thread: 32, text: 'Theirs.' }),
    ).toMatchObject({
      type: 'review_answer',
    });
    // The owner's own editor sent raw steps (its state lags): the steps are made on the tracked one's.
    const anchors = stepsOf(tracked.editor.state!.doc, (tr) =>
      tr
        .addMark(at + 6, at + 11, schema.marks.comment.create({ id: 31 }))
        .addMark(at + 6, at + 11, schema.marks.comment.create({ id: 32 })),
    );
    expect(await owner.sendRaw({ v: 2, ds: anchors })).toMatchObject({ type: 'confirm_diff', v: 4 });
    await waitFor(() => commenter.editor.version === 4, 'the anchors at the commenter');
    const anchored = commenter.editor.state!.doc;
    const remove = (thread: number) =>
      stepsOf(anchored, (tr) => tr.removeMark(at + 6, at + 11, schema.marks.comment.create({ id: thread })));
    expect(await commenter.editor.sendRaw({ v: 4, ds: remove(31) })).toMatchObject({ reason: 'rights' });
    expect(await commenter.editor.sendRaw({ v: 4, ds: remove(32) })).toMatchObject({
      type: 'confirm_diff',
      v: 5,
    });
    expect(await version(id)).toBe(5);
  });
});
