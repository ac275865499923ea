import { schema } from '@scriptorium/common/editor/schema';
import { stepsOf } from '@scriptorium/common/editor/testing';
import type { DocumentServerMessage } from '@scriptorium/common/ws/document-messages';
import { describe, expect, it } from 'vitest';
import { commitStats } from '../src/modules/documents/collab/commit';
import { currentContent, withDocumentLock } from '../src/modules/documents/collab/store';
import type { DocumentClient } from '../src/ws/document-client';
import { useDocumentEditors } from './document-editors';
import { ENGINES, useServer } from './harness';
import { bodyParagraphStart, waitFor } from './ws-support';

// Group commit (issue 52): diffs that arrive while a commit of their document is under way are
// committed together in the next transaction, each answered only after it.

describe.each(ENGINES)('document endpoint: group commit (%s)', (engine) => {
  const server = useServer(engine);
  const { user, createDocument, grant, open } = useDocumentEditors(server);

  async function stepVersions(documentId: number): Promise<number[]> {
    const rows = await server()
      .ctx.db.selectFrom('document_steps')
      .select('version')
      .where('document_id', '=', documentId)
      .orderBy('version')
      .execute();
    return rows.map((row) => row.version);
  }

  it('commits the diffs that waited in one transaction, answers each after it, and refuses one without the others', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Together');
    const names = ['ada', 'bea', 'cy', 'dee', 'eve', 'fay'];
    const people = [owner, ...(await Promise.all(names.slice(1).map(() => user())))];
    for (const person of people.slice(1)) await grant(id, person.user.id, 'write');
    const editors: DocumentClient[] = [];
    for (const person of people) editors.push(await open(person.browser, id));
    // A reader, who only watches.
    const reader = await user();
    await grant(id, reader.user.id, 'read');
    const watcher = await open(reader.browser, id);
    // eve may only read from now on; her socket was admitted to write (nobody told it yet).
    await server()
      .ctx.db.updateTable('document_access')
      .set({ rights: 'read' })
      .where('document_id', '=', id)
      .where('user_id', '=', people[4].user.id)
      .execute();
    const base = editors[0].state!.doc;
    const at = bodyParagraphStart(base);

    // A commit of the document under way: the test holds the document's lock.
    let release = () => {};
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = withDocumentLock(server().ctx.db, server().ctx.dialect, id, async () => {
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await lockTaken;
    const stats = commitStats(server().ctx.db);
    const before = { ...stats };
    const send = (index: number) =>
      editors[index].sendRaw({
        v: 0,
        // fay's step is no step.
        ds:
          index === 5
            ? [{ stepType: 'no such step' }]
            : stepsOf(base, (tr) => tr.insert(at, schema.text(`${names[index]} `))),
        rebase: true,
      });
    // ada's diff first: its transaction begins and waits for the lock; the others arrive meanwhile.
    const answers = [send(0)];
    await waitFor(() => stats.begun - before.begun === 1, "ada's transaction waiting for the lock");
    for (let index = 1; index < names.length; index++) answers.push(send(index));
    await waitFor(() => stats.submitted - before.submitted === names.length, 'every diff in the queue');
    const answered = (message: DocumentServerMessage) =>
      message.type === 'confirm_diff' || message.type === 'reject_diff';
    expect(editors.flatMap((editor) => editor.messages).filter(answered)).toEqual([]);
    release();
    await holding;

    const results = await Promise.all(
      answers.map(async (answer) => {
        const message = await answer;
        // Read as soon as the answer is here: a confirmed diff's steps are in the step log.
        const versions = await stepVersions(id);
        return { message, versions };
      }),
    );
    // ada's diff alone (its transaction waited for the lock), the five others together.
    expect(stats.transactions - before.transactions).toBe(2);
    expect(stats.diffs - before.diffs).toBe(names.length);
    expect(results[4].message).toMatchObject({ type: 'reject_diff', reason: 'read_only' });
    expect(results[5].message).toMatchObject({ type: 'reject_diff', reason: 'malformed' });
    const confirmed = results.slice(0, 4);
    for (const { message, versions } of confirmed) {
      expect(message.type).toBe('confirm_diff');
      const v = (message as { v: number }).v;
      expect(versions).toContain(v);
    }
    expect(confirmed.map(({ message }) => (message as { v: number }).v).sort()).toEqual([1, 2, 3, 4]);
    expect(await stepVersions(id)).toEqual([1, 2, 3, 4]);
    const content = JSON.stringify(JSON.parse((await currentContent(server().ctx.db, id))!));
    for (const name of names.slice(0, 4)) expect(content).toContain(`${name} `);
    expect(content).not.toContain('eve');
    // The reader got the steps of each transaction in one message: four steps in at most two.
    await waitFor(
      () => watcher.messages.flatMap((message) => (message.type === 'diff' ? message.ds : [])).length === 4,
      'every step at the reader',
    );
    expect(watcher.messages.filter((message) => message.type === 'diff').length).toBeLessThanOrEqual(2);
    // Each writer got the others' steps, each once.
    for (const editor of editors.slice(0, 4)) {
      const relayed = editor.messages.flatMap((message) => (message.type === 'diff' ? message.cids : []));
      expect(relayed.length).toBeLessThanOrEqual(3);
      expect(relayed).not.toContain(editor.docData!.session_id);
    }
  });

  it.skipIf(engine !== 'sqlite')(
    'on SQLite (one writer) commits what waits for several documents in one transaction',
    async () => {
      const owner = await user();
      const ids = [await createDocument(owner.browser, 'One'), await createDocument(owner.browser, 'Two')];
      const editors: DocumentClient[] = [];
      for (const id of ids) editors.push(await open(owner.browser, id), await open(owner.browser, id));
      let release = () => {};
      let locked = () => {};
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const holding = server()
        .ctx.db.transaction()
        .execute(async () => {
          locked();
          await new Promise<void>((resolve) => (release = resolve));
        });
      await lockTaken;
      const stats = commitStats(server().ctx.db);
      const before = { ...stats };
      const send = (index: number) => {
        const doc = editors[index].state!.doc;
        return editors[index].sendRaw({
          v: 0,
          ds: stepsOf(doc, (tr) => tr.insert(bodyParagraphStart(doc), schema.text(`w${index} `))),
          rebase: true,
        });
      };
      const answers = [send(0)];
      await waitFor(() => stats.begun - before.begun === 1, 'the first transaction waiting for the lock');
      for (let index = 1; index < 4; index++) answers.push(send(index));
      await waitFor(() => stats.submitted - before.submitted === 4, 'every diff in the queue');
      release();
      await holding;
      const messages = await Promise.all(answers);
      expect(messages.map((message) => message.type)).toEqual(Array(4).fill('confirm_diff'));
      // The first diff alone, the three others (both documents) together.
      expect(stats.transactions - before.transactions).toBe(2);
      expect(stats.diffs - before.diffs).toBe(4);
      for (const id of ids) expect(await stepVersions(id)).toEqual([1, 2]);
    },
  );
});
