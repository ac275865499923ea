import type { AccessRight } from '@scriptorium/common/api/documents';
import { documentBibliography, insertCitation } from '@scriptorium/common/editor/academic-commands';
import { insertTable, liftItem, sinkItem, toggleBulletList } from '@scriptorium/common/editor/commands';
import { schema } from '@scriptorium/common/editor/schema';
import { firstParagraphStart, partStart, stepsOf } from '@scriptorium/common/editor/testing';
import { decideChanges, trackedChanges, trackTransaction } from '@scriptorium/common/editor/track-changes';
import type { DocumentServerMessage } from '@scriptorium/common/ws/document-messages';
import type { CommentThread } from '@scriptorium/common/ws/review-messages';
import type { Node as PMNode } from 'prosemirror-model';
import { type Command, EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { currentContent } from '../src/modules/documents/collab/store';
import type { DocumentClient } from '../src/ws/document-client';
import { useDocumentEditors } from './document-editors';
import { ENGINES, type TestClient, useServer } from './harness';
import { useSmtpSink } from './smtp-sink';
import { eventually, waitFor } from './ws-support';

/** Position just inside the body's first block. */
const bodyStart = (doc: PMNode) => partStart(doc, 'body') + 1;

/** The transaction a command makes in `from` (the command must apply there). */
function made(run: Command, from: EditorState): Transaction {
  let tr: Transaction | null = null;
  expect(run(from, (t) => (tr = t))).toBe(true);
  return tr as unknown as Transaction;
}

/** A change sent untracked: the server refuses it, its right needs it recorded as a suggestion. */
async function refusedUntracked(client: DocumentClient, v: number, tr: Transform) {
  expect(await client.sendRaw({ v, ds: tr.steps.map((s) => s.toJSON()) })).toMatchObject({
    reason: 'rights',
  });
}

/** A change tracked as the party's editor records it, confirmed as version v + 1; the tracked one. */
async function sentTracked(
  party: { client: DocumentClient; user: Parameters<typeof trackTransaction>[2] },
  v: number,
  tr: Transaction,
  from: EditorState,
): Promise<Transaction> {
  const tracked = trackTransaction(tr, from, party.user)!;
  expect(await party.client.sendRaw({ v, ds: tracked.steps.map((s) => s.toJSON()) })).toMatchObject({
    type: 'confirm_diff',
    v: v + 1,
  });
  return tracked;
}

/** The owner accepts the first of the changes and rejects the others in one diff, confirmed. */
async function acceptFirstRejectRest(
  client: DocumentClient,
  v: number,
  changes: ReturnType<typeof trackedChanges>,
) {
  const decide = EditorState.create({ doc: client.state!.doc }).tr;
  decideChanges(decide, changes.slice(0, 1), true);
  decideChanges(decide, changes.slice(1), false);
  expect(await client.sendRaw({ v, ds: decide.steps.map((s) => s.toJSON()) })).toMatchObject({
    type: 'confirm_diff',
  });
}

/** The threads a client holds now: the first `threads` message updated by `thread`/`thread_removed`. */
function threadsOf(client: DocumentClient): Map<number, CommentThread> {
  const threads = new Map<number, CommentThread>();
  for (const message of client.messages) {
    if (message.type === 'threads') {
      threads.clear();
      for (const thread of message.threads) threads.set(thread.id, thread);
    } else if (message.type === 'thread') threads.set(message.thread.id, message.thread);
    else if (message.type === 'thread_removed') threads.delete(message.thread);
  }
  return threads;
}

describe.each(ENGINES)('review over ws_url_base/document/<id>/ (%s)', (engine) => {
  const sink = useSmtpSink();
  const server = useServer(engine, {
    env: () => ({ SMTP_URL: sink().url, SITE_URL: 'https://scriptorium.example' }),
  });
  const editors = useDocumentEditors(server);
  const { user, createDocument, grant } = editors;
  /** An editor of the document that has its review threads as well. */
  const open = (browser: TestClient, documentId: number) =>
    editors.open(browser, documentId, (m) => m.type === 'threads');

  /** A new user's document of that title, open in the owner's editor. */
  async function ownerEditing(title: string) {
    const owner = await user();
    const id = await createDocument(owner.browser, title);
    return { owner, id, ownerClient: await open(owner.browser, id) };
  }

  /** The document as the server has stored it. */
  async function savedContent(id: number): Promise<PMNode> {
    return schema.nodeFromJSON(JSON.parse((await currentContent(server().ctx.db, id))!));
  }

  async function holder(documentId: number, right: AccessRight) {
    const created = await user();
    await grant(documentId, created.user.id, right);
    return { ...created, client: await open(created.browser, documentId) };
  }

  it('enforces per step: suggestions only for write-tracked and review, comment anchors only for comment', async () => {
    const { owner, id, ownerClient } = await ownerEditing('Steps');
    const tracked = await holder(id, 'write-tracked');
    const reviewer = await holder(id, 'review');
    const commenter = await holder(id, 'comment');
    const doc = ownerClient.state!.doc;
    const at = firstParagraphStart(doc);
    const mine = schema.marks.insertion.create({
      user: tracked.user.id,
      username: tracked.user.username,
      date: 1,
    });
    const spoofed = schema.marks.insertion.create({ user: owner.user.id, username: 'owner', date: 1 });

    // A suggestion made by the editor's own tracking is what the server accepts.
    const state = EditorState.create({ doc });
    const typed = trackTransaction(state.tr.insertText('Suggested', at), state, tracked.user)!;
    expect(await tracked.client.sendRaw({ v: 0, ds: typed.steps.map((s) => s.toJSON()) })).toMatchObject({
      type: 'confirm_diff',
      v: 1,
    });
    await waitFor(
      () => reviewer.client.version === 1 && commenter.client.version === 1,
      'the suggestion relayed',
    );
    const now = reviewer.client.state!.doc;

    // Untracked text, someone else's name on a suggestion, taking out another's suggestion: refused.
    const refusals: [DocumentClient, ReturnType<typeof stepsOf>][] = [
      [tracked.client, stepsOf(now, (tr) => tr.insert(at, schema.text('plain')))],
      [tracked.client, stepsOf(now, (tr) => tr.insert(at, schema.text('x', [spoofed])))],
      [reviewer.client, stepsOf(now, (tr) => tr.delete(at, at + 3))],
      [reviewer.client, stepsOf(now, (tr) => tr.removeMark(at, at + 9, schema.marks.insertion))],
      [commenter.client, stepsOf(now, (tr) => tr.insert(at, schema.text('x', [mine])))],
      [commenter.client, stepsOf(now, (tr) => tr.addMark(at, at + 3, schema.marks.em.create()))],
    ];
    for (const [client, ds] of refusals)
      expect(await client.sendRaw({ v: 1, ds })).toMatchObject({ reason: 'rights' });

    // The reviewer suggests a deletion; the commenter anchors a comment.
    const deletion = schema.marks.deletion.create({ user: reviewer.user.id, username: 'r', date: 2 });
    expect(
      await reviewer.client.sendRaw({ v: 1, ds: stepsOf(now, (tr) => tr.addMark(at, at + 3, deletion)) }),
    ).toMatchObject({ type: 'confirm_diff', v: 2 });
    await waitFor(() => commenter.client.version === 2, 'the deletion at the commenter');
    expect(
      await commenter.client.sendRaw({
        v: 2,
        ds: stepsOf(commenter.client.state!.doc, (tr) =>
          tr.addMark(at, at + 5, schema.marks.comment.create({ id: 9 })),
        ),
      }),
    ).toMatchObject({ type: 'confirm_diff', v: 3 });

    // Only write accepts: the owner accepts everything.
    await waitFor(() => ownerClient.version === 3, 'all at the owner');
    const ownerState = EditorState.create({ doc: ownerClient.state!.doc });
    const changes = trackedChanges(ownerState.doc);
    expect(changes.map((c) => c.type).sort()).toEqual(['deletion', 'insertion']);
    const inserted = changes.find((c) => c.type === 'insertion')!;
    const deleted = changes.find((c) => c.type === 'deletion')!;
    const accept = stepsOf(ownerState.doc, (tr) => {
      tr.delete(deleted.from, deleted.to);
      tr.removeMark(inserted.from, inserted.to - 3, inserted.mark);
    });
    expect(await tracked.client.sendRaw({ v: 3, ds: accept })).toMatchObject({ reason: 'rights' });
    expect(await ownerClient.sendRaw({ v: 3, ds: accept })).toMatchObject({ type: 'confirm_diff', v: 5 });
    const content = await savedContent(id);
    expect(content.resolve(at).parent.textContent).toBe('gested');
    expect(trackedChanges(content)).toEqual([]);
  });

  it('takes structural suggestions (a new paragraph, a heading level) from write-tracked and review, not untracked ones', async () => {
    const { id, ownerClient } = await ownerEditing('Structure');
    const tracked = await holder(id, 'write-tracked');
    const reviewer = await holder(id, 'review');
    // In the body: the abstract allows no headings.
    const at = bodyStart(ownerClient.state!.doc);
    ownerClient.edit((tr) => tr.insertText('onetwo', at));
    await ownerClient.settled();
    await waitFor(() => tracked.client.version === 1 && reviewer.client.version === 1, 'the text relayed');

    // Enter as the editor tracks it is accepted; an untracked split or type change is not.
    const doc = tracked.client.state!.doc;
    expect(await tracked.client.sendRaw({ v: 1, ds: stepsOf(doc, (tr) => tr.split(at + 3)) })).toMatchObject({
      reason: 'rights',
    });
    const heading = (tr: Transform) => tr.setBlockType(at, at, schema.nodes.heading, { level: 2 });
    expect(await reviewer.client.sendRaw({ v: 1, ds: stepsOf(doc, heading) })).toMatchObject({
      reason: 'rights',
    });
    const state = EditorState.create({ doc });
    await sentTracked(tracked, 1, state.tr.split(at + 3), state);
    await waitFor(() => reviewer.client.version === 2, 'the split at the reviewer');
    const split2 = EditorState.create({ doc: reviewer.client.state!.doc });
    const level = new Transform(split2.doc);
    heading(level);
    const changed = split2.tr;
    for (const step of level.steps) changed.step(step);
    await sentTracked(reviewer, 2, changed, split2);

    // The owner rejects both: one paragraph again, as before.
    await waitFor(() => ownerClient.version === 3, 'both at the owner');
    const ownerState = EditorState.create({ doc: ownerClient.state!.doc });
    expect(trackedChanges(ownerState.doc).map((c) => `${c.type}:${c.block}`)).toEqual([
      'block_change:true',
      'insertion:true',
    ]);
    const reject = ownerState.tr;
    expect(decideChanges(reject, trackedChanges(ownerState.doc), false)).toBe(2);
    expect(await ownerClient.sendRaw({ v: 3, ds: reject.steps.map((s) => s.toJSON()) })).toMatchObject({
      type: 'confirm_diff',
    });
    const content = await savedContent(id);
    expect(content.resolve(at).parent.type.name).toBe('paragraph');
    expect(content.resolve(at).parent.textContent).toBe('onetwo');
    expect(trackedChanges(content)).toEqual([]);
  });

  it('takes a tracked list and a tracked table from write-tracked, refuses them untracked; the owner decides them', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Blocks');
    const ownerClient = await open(owner.browser, id);
    const tracked = await holder(id, 'write-tracked');
    const at = bodyStart(ownerClient.state!.doc);
    ownerClient.edit((tr) => tr.insertText('item', at));
    await ownerClient.settled();
    await waitFor(() => tracked.client.version === 1, 'the text relayed');
    const before = tracked.client.state!.doc;

    // The list and the table as the editor's commands make them.
    const state = EditorState.create({ doc: before, selection: TextSelection.create(before, at + 2) });
    const list = made(toggleBulletList, state);
    const table = made(insertTable(2, 2), state);

    // Untracked: refused, whole diff and nothing written.
    for (const tr of [list, table]) await refusedUntracked(tracked.client, 1, tr);
    // Tracked by the editor's rule: accepted.
    const trackedList = await sentTracked(tracked, 1, list, state);
    // The table after the item's text (inside the item, as the editor puts it there).
    const listed = state.apply(trackedList);
    const inEnd = listed.apply(
      listed.tr.setSelection(TextSelection.create(listed.doc, at + 2 + 'item'.length)),
    );
    await sentTracked(tracked, 2, made(insertTable(2, 2), inEnd), inEnd);

    // The owner accepts the list and rejects the table: the list stays, the table is gone.
    await waitFor(() => ownerClient.version === 3, 'both at the owner');
    const ownerDoc = ownerClient.state!.doc;
    const changes = trackedChanges(ownerDoc);
    expect(changes.map((c) => `${c.type}:${c.node}:${c.username}`)).toEqual([
      `block_change:bullet_list:${tracked.user.username}`,
      `insertion:table:${tracked.user.username}`,
    ]);
    await acceptFirstRejectRest(ownerClient, 3, changes);
    const content = schema.nodeFromJSON(JSON.parse((await currentContent(server().ctx.db, id))!));
    const accepted = made(toggleBulletList, state).doc;
    expect(content.toJSON()).toEqual(accepted.toJSON());
  });

  it('takes a citation of an entry new to the document from write-tracked, its entry with it; rejecting takes both out', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Cited');
    const ownerClient = await open(owner.browser, id);
    const tracked = await holder(id, 'write-tracked');
    const doc = tracked.client.state!.doc;
    const at = bodyStart(doc);
    const state = EditorState.create({ doc, selection: TextSelection.create(doc, at) });
    const entry = { entry_key: 'smith', bib_type: 'book', fields: { date: '2020' }, cats: [] };
    const cite = insertCitation(
      'autocite',
      [{ id: '9-1', prefix: '', locator: '' }],
      new Map([['9-1', entry]]),
    );
    // Untracked: refused. Tracked by the editor's rule (the bibliography made empty, the entry suggested in it): committed.
    const v = tracked.client.version;
    await refusedUntracked(tracked.client, v, made(cite, state));
    const suggested = trackTransaction(made(cite, state), state, tracked.user)!;
    const confirmed = await tracked.client.sendRaw({ v, ds: suggested.steps.map((step) => step.toJSON()) });
    expect(confirmed).toMatchObject({ type: 'confirm_diff' });
    const committed = (confirmed as { v: number }).v;
    expect(documentBibliography(await savedContent(id)).get('9-1')).toEqual(entry);

    await waitFor(() => ownerClient.version === committed, 'the citation at the owner');
    const changes = trackedChanges(ownerClient.state!.doc);
    expect(changes.map((c) => `${c.type}:${c.username}`)).toEqual([`insertion:${tracked.user.username}`]);
    const decide = EditorState.create({ doc: ownerClient.state!.doc }).tr;
    decideChanges(decide, changes, false);
    expect(
      await ownerClient.sendRaw({ v: committed, ds: decide.steps.map((s) => s.toJSON()) }),
    ).toMatchObject({
      type: 'confirm_diff',
    });
    const saved = await savedContent(id);
    expect(documentBibliography(saved).size).toBe(0);
    let citations = 0;
    saved.descendants((node) => {
      if (node.type.name === 'citation') citations++;
    });
    expect(citations).toBe(0);
  });

  it('takes a tracked indent from write-tracked and a tracked outdent from review, refuses them untracked; the owner decides them', async () => {
    const { id, ownerClient } = await ownerEditing('Nested');
    const tracked = await holder(id, 'write-tracked');
    const reviewer = await holder(id, 'review');
    const at = bodyStart(ownerClient.state!.doc);
    const p = (text: string) => schema.nodes.paragraph.create(null, schema.text(text));
    const item = (text: string) => schema.nodes.list_item.create(null, p(text));
    ownerClient.edit((tr) =>
      tr.replaceWith(at - 1, at + 1, schema.nodes.bullet_list.create(null, [item('a'), item('b')])),
    );
    await ownerClient.settled();
    await waitFor(() => tracked.client.version === 1 && reviewer.client.version === 1, 'the list relayed');
    // The caret in b: the list at `at - 1`, a's item and paragraph, "a", then b's item and paragraph.
    const inB = (doc: PMNode) => EditorState.create({ doc, selection: TextSelection.create(doc, at + 7) });

    const before = inB(tracked.client.state!.doc);
    const sink = made(sinkItem, before);
    await refusedUntracked(tracked.client, 1, sink);
    await sentTracked(tracked, 1, sink, before);

    // The reviewer outdents b again: the untracked lift refused, the recorded one taken.
    await waitFor(() => reviewer.client.version === 2, 'the indent relayed');
    const sunk = inB(reviewer.client.state!.doc);
    const lift = made(liftItem, sunk);
    await refusedUntracked(reviewer.client, 2, lift);
    await sentTracked(reviewer, 2, lift, sunk);

    // The owner accepts the indent and rejects the outdent: b is indented, nothing recorded.
    await waitFor(() => ownerClient.version === 3, 'both at the owner');
    const ownerDoc = ownerClient.state!.doc;
    const changes = trackedChanges(ownerDoc);
    expect(changes.map((c) => `${c.node}:${c.mark.attrs.before?.structure}:${c.username}`)).toEqual([
      `bullet_list:sink:${tracked.user.username}`,
      `list_item:outdent:${reviewer.user.username}`,
    ]);
    await acceptFirstRejectRest(ownerClient, 3, changes);
    expect((await savedContent(id)).toJSON()).toEqual(before.apply(sink).doc.toJSON());
  });

  it('stores threads with answers, edits, resolves, assigns, and shows each right what it may see', async () => {
    const { owner, id, ownerClient } = await ownerEditing('Threads');
    const commenter = await holder(id, 'comment');
    const reviewer = await holder(id, 'review');
    const hidden = await holder(id, 'read-without-comments');
    const reader = await holder(id, 'read');

    expect(
      await commenter.client.review({ type: 'thread_create', thread: 11, text: 'Cite this?' }),
    ).toMatchObject({
      type: 'review_answer',
    });
    expect(await reviewer.client.review({ type: 'thread_create', thread: 22, text: 'Unclear.' })).toEqual({
      type: 'review_answer',
      rid: expect.any(Number),
    });
    // The same id twice, a reader commenting, an empty text: refused with a reason, nothing stored.
    expect(await commenter.client.review({ type: 'thread_create', thread: 22, text: 'Again' })).toMatchObject(
      {
        error: 'exists',
      },
    );
    expect(await reader.client.review({ type: 'thread_create', thread: 33, text: 'No' })).toMatchObject({
      error: 'rights',
    });
    await ownerClient.review({ type: 'comment_answer', thread: 22, text: 'Fixed, see §2.' });
    await commenter.client.review({ type: 'comment_answer', thread: 22, text: 'Agreed' });
    // The reviewer may not answer a thread that is not theirs.
    expect(
      await reviewer.client.review({ type: 'comment_answer', thread: 11, text: 'me too' }),
    ).toMatchObject({
      error: 'rights',
    });

    await waitFor(() => threadsOf(ownerClient).get(22)?.comments.length === 3, 'all answers at the owner');
    await waitFor(
      () => threadsOf(reviewer.client).get(22)?.comments.length === 2,
      'the owner’s answer at the reviewer',
    );
    expect([...threadsOf(ownerClient).keys()].sort()).toEqual([11, 22]);
    expect(threadsOf(reader.client).size).toBe(2);
    // The reviewer: own thread, own text and the owner's answer, not the commenter's.
    expect([...threadsOf(reviewer.client).keys()]).toEqual([22]);
    expect(
      threadsOf(reviewer.client)
        .get(22)!
        .comments.map((c) => c.text),
    ).toEqual(['Unclear.', 'Fixed, see §2.']);
    // read-without-comments: no threads at all, no updates.
    expect(hidden.client.messages.some((m) => m.type === 'thread')).toBe(false);
    expect(threadsOf(hidden.client).size).toBe(0);

    // Edit and delete only one's own.
    const answer = threadsOf(ownerClient).get(22)!.comments[1];
    expect(
      await commenter.client.review({ type: 'comment_edit', comment: answer.id, text: 'Hacked' }),
    ).toMatchObject({
      error: 'rights',
    });
    await ownerClient.review({ type: 'comment_edit', comment: answer.id, text: 'Fixed in §2.' });
    await waitFor(
      () => threadsOf(reviewer.client).get(22)?.comments[1].text === 'Fixed in §2.',
      'the edit at the reviewer',
    );

    // Resolve, reopen, assign to a co-author (not to a stranger).
    await reviewer.client.review({ type: 'thread_resolve', thread: 22, resolved: true });
    await waitFor(() => threadsOf(ownerClient).get(22)?.resolved === true, 'resolved at the owner');
    await ownerClient.review({ type: 'thread_resolve', thread: 22, resolved: false });
    await ownerClient.review({ type: 'thread_assign', thread: 11, user: commenter.user.id });
    const stranger = await server().buildUser();
    expect(await ownerClient.review({ type: 'thread_assign', thread: 11, user: stranger.id })).toMatchObject({
      error: 'invalid',
    });
    await waitFor(
      () =>
        threadsOf(commenter.client).get(11)?.assigned === commenter.user.id &&
        !threadsOf(commenter.client).get(22)?.resolved,
      'assigned and reopened',
    );

    // Deleting the first comment deletes the thread; answering it afterwards says it is gone.
    const first = threadsOf(commenter.client).get(11)!.comments[0];
    await commenter.client.review({ type: 'comment_delete', comment: first.id });
    await waitFor(() => !threadsOf(ownerClient).has(11), 'the thread gone at the owner');
    expect(await ownerClient.review({ type: 'comment_answer', thread: 11, text: 'late' })).toMatchObject({
      error: 'gone',
    });
    // A reopened socket gets the same filtered view.
    const again = await open(reviewer.browser, id);
    expect(
      threadsOf(again)
        .get(22)!
        .comments.map((c) => c.user),
    ).toEqual([reviewer.user.id, owner.user.id]);
  });

  it('mails a co-author mentioned with @username a link to the document', async () => {
    const { id, ownerClient } = await ownerEditing('Mentions');
    const coauthor = await holder(id, 'write');
    const before = sink().messages.length;
    await ownerClient.review({
      type: 'thread_create',
      thread: 5,
      text: `@${coauthor.user.username} please check, and @nobody`,
    });
    const mails = await sink().waitFor(before + 1);
    const mail = mails[before];
    expect(mail.to).toEqual([coauthor.user.email]);
    expect(mail.raw).toContain(`https://scriptorium.example/document/${id}`);
    expect(mail.header('subject')).toContain('Mentions');
  });

  it('saves named revisions, lists and reads them, and restores one as a new version on top', async () => {
    const { id, ownerClient } = await ownerEditing('Revised');
    const reviewer = await holder(id, 'review');
    const at = firstParagraphStart(ownerClient.state!.doc);
    ownerClient.edit((tr) => tr.insertText('First draft.', at));
    await ownerClient.settled();
    expect(await ownerClient.review({ type: 'revision_save', name: 'Draft 1' })).toMatchObject({
      type: 'review_answer',
    });
    expect(await reviewer.client.review({ type: 'revision_save', name: 'Mine' })).toMatchObject({
      type: 'review_answer',
    });
    ownerClient.edit((tr) => tr.insertText(' More.', at + 12));
    await ownerClient.settled();
    const list = (await ownerClient.review({ type: 'revisions_list' })) as Extract<
      DocumentServerMessage,
      { type: 'revisions' }
    >;
    expect(list.revisions.map((r) => [r.name, r.auto, r.version])).toEqual([
      ['Mine', false, 1],
      ['Draft 1', false, 1],
    ]);
    const draft = list.revisions[1];
    const read = (await reviewer.client.review({ type: 'revision_get', revision: draft.id })) as Extract<
      DocumentServerMessage,
      { type: 'revision' }
    >;
    expect(schema.nodeFromJSON(read.content).resolve(at).parent.textContent).toBe('First draft.');

    // Only write restores.
    expect(await reviewer.client.review({ type: 'revision_restore', revision: draft.id })).toMatchObject({
      error: 'rights',
    });
    expect(await ownerClient.review({ type: 'revision_restore', revision: draft.id })).toMatchObject({
      type: 'review_answer',
    });
    await waitFor(() => reviewer.client.version === 3 && ownerClient.version === 3, 'the restore relayed');
    expect(reviewer.client.state!.doc.resolve(at).parent.textContent).toBe('First draft.');
    // The state before the restore is kept as an automatic revision: restoring it undoes the restore.
    const after = (await ownerClient.review({ type: 'revisions_list' })) as Extract<
      DocumentServerMessage,
      { type: 'revisions' }
    >;
    const kept = after.revisions.find((r) => r.auto && r.version === 2)!;
    expect(kept).toBeDefined();
    await ownerClient.review({ type: 'revision_restore', revision: kept.id });
    await waitFor(() => ownerClient.version === 4, 'the second restore');
    expect(ownerClient.state!.doc.resolve(at).parent.textContent).toBe('First draft. More.');
    const content = await savedContent(id);
    expect(content.eq(ownerClient.state!.doc)).toBe(true);
  });

  it('keeps an automatic revision when the last editor leaves', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Leaving');
    const client = await open(owner.browser, id);
    client.edit((tr) => tr.insertText('Bye.', firstParagraphStart(client.state!.doc)));
    await client.settled();
    client.close();
    const db = server().ctx.db;
    const rows = await eventually(
      () =>
        db
          .selectFrom('document_revisions')
          .select(['auto', 'version'])
          .where('document_id', '=', id)
          .execute(),
      (found) => found.length > 0,
      'the automatic revision',
    );
    expect(rows).toEqual([{ auto: 1, version: 1 }]);
  });
});
