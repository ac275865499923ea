import { rebaseSteps } from '@scriptorium/common/editor/rebase-steps';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { decideChanges, type Reviewer, trackedChanges } from '@scriptorium/common/editor/track-changes';
import type {
  DocumentClientMessage,
  DocumentServerMessage,
  RejectReason,
} from '@scriptorium/common/ws/document-messages';
import { SEND_THROTTLE_START_MS } from '@scriptorium/common/ws/timing';
import { history, undo } from 'prosemirror-history';
import type { Node as PMNode } from 'prosemirror-model';
import { TextSelection } from 'prosemirror-state';
import { Step } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { compressSteps } from '../../offline/compress-steps';
import {
  CollabSession,
  confirmedStepsKept,
  type Divergence,
  LARGE_DIVERGENCE,
  savedDocument,
} from './collab-session';

/**
 * A minimal authority with the server's protocol (confirm after apply, stale catch-up, relay),
 * so that the client's rebase logic is tested on its own; the real server runs in the browser
 * spec (e2e/specs/editor.spec.ts).
 */
class Authority {
  doc: PMNode = createDocument(schema, standardArticle, { title: 'T' });
  steps: { step: Step; cid: string }[] = [];
  /** Each connection, with the version the server has sent it steps up to (as the server's session.sentVersion). */
  readonly clients = new Map<
    string,
    { session: CollabSession; inbox: DocumentServerMessage[]; sentVersion: number }
  >();
  refuse: RejectReason | null = null;
  /** While set, client messages wait here (in order) instead of arriving at once. */
  held: { from: string; message: DocumentClientMessage }[] | null = null;

  /** Every diff the clients sent, by size (the offline tests check the queue went out folded). */
  diffSizes: number[] = [];

  /** Maps a late diff of a client that asks for it over the steps since, as the server does. */
  rebases = false;

  /** How many diffs were refused as stale. */
  staleAnswers = 0;

  join(
    id: string,
    onRefused?: (reason: RejectReason) => void,
    onDivergence?: (divergence: Divergence) => void,
    author?: Reviewer,
    scheduleSend?: (send: () => void) => void,
  ): CollabSession {
    const session = new CollabSession({
      send: (message) => this.receive(id, message),
      onChange: () => {},
      plugins: () => [history()],
      schedule: () => {},
      onRefused,
      onDivergence,
      author: author && (() => author),
      scheduleSend,
      rebase: true,
    });
    this.connect(id, session);
    return session;
  }

  /** A (new) connection of a session: doc_data with the current document, as after a reconnect. */
  connect(id: string, session: CollabSession): void {
    const inbox: DocumentServerMessage[] = [];
    this.clients.set(id, { session, inbox, sentVersion: this.steps.length });
    inbox.push(this.docData(id, this.steps.length));
  }

  /** The doc_data a session gets on (re)connecting, claiming version v (a restarted server may lag). */
  docData(id: string, v: number): Extract<DocumentServerMessage, { type: 'doc_data' }> {
    return {
      type: 'doc_data',
      doc: { id: 1, v, title: 'T', content: this.doc.toJSON() },
      access_right: 'write',
      is_owner: true,
      session_id: id,
      participants: [],
    };
  }

  /** The connection of a session drops: nothing more reaches it, and what it sends is lost. */
  disconnect(id: string): void {
    this.clients.delete(id);
  }

  /** Lets the held client messages arrive, in order. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const { from, message } of held) this.receive(from, message);
  }

  receive(from: string, message: DocumentClientMessage): void {
    if (this.held) {
      this.held.push({ from, message });
      return;
    }
    const sender = this.clients.get(from);
    if (sender && message.type === 'catch_up') {
      const missing = this.steps.slice(message.v);
      if (missing.length)
        sender.inbox.push({
          type: 'diff',
          v: message.v,
          ds: missing.map(({ step }) => step.toJSON()),
          cids: missing.map(({ cid }) => cid),
        });
      sender.sentVersion = this.steps.length;
      return;
    }
    if (!sender || message.type !== 'diff') return;
    this.diffSizes.push(message.ds.length);
    if (this.refuse) {
      sender.inbox.push({ type: 'reject_diff', rid: message.rid, reason: this.refuse });
      return;
    }
    if (message.v < this.steps.length && this.rebases && message.rebase) {
      // The server's rebase: the steps it has not sent the client yet first, then the mapped
      // steps committed at `base`.
      const missing = this.steps.slice(message.v);
      const unsent = this.steps.slice(sender.sentVersion);
      if (unsent.length)
        sender.inbox.push({
          type: 'diff',
          v: sender.sentVersion,
          ds: unsent.map(({ step }) => step.toJSON()),
          cids: unsent.map(({ cid }) => cid),
        });
      const base = this.steps.length;
      const mapped = rebaseSteps(
        message.ds.map((json) => Step.fromJSON(schema, json)),
        missing.map(({ step }) => step),
        this.doc,
      );
      this.commit(from, mapped);
      sender.sentVersion = this.steps.length;
      sender.inbox.push({ type: 'confirm_diff', rid: message.rid, v: this.steps.length, base });
      this.relay(from, base, mapped);
      return;
    }
    if (message.v !== this.steps.length) {
      this.staleAnswers++;
      const missing = this.steps.slice(message.v);
      if (missing.some(({ cid }) => cid !== from))
        sender.inbox.push({
          type: 'diff',
          v: message.v,
          ds: missing.map(({ step }) => step.toJSON()),
          cids: missing.map(({ cid }) => cid),
        });
      sender.inbox.push({ type: 'reject_diff', rid: message.rid, reason: 'stale' });
      return;
    }
    const v = this.steps.length;
    const steps = message.ds.map((json) => Step.fromJSON(schema, json));
    this.commit(from, steps);
    sender.sentVersion = this.steps.length;
    sender.inbox.push({ type: 'confirm_diff', rid: message.rid, v: this.steps.length });
    this.relay(from, v, steps);
  }

  private commit(from: string, steps: readonly Step[]): void {
    for (const step of steps) {
      const result = step.apply(this.doc);
      if (!result.doc) throw new Error(result.failed ?? 'step failed');
      this.doc = result.doc;
      this.steps.push({ step, cid: from });
    }
  }

  private relay(from: string, v: number, steps: readonly Step[]): void {
    if (steps.length === 0) return;
    const ds = steps.map((step) => step.toJSON());
    for (const [id, client] of this.clients) {
      if (id === from) continue;
      client.inbox.push({ type: 'diff', v, ds, cids: steps.map(() => from) });
      client.sentVersion = v + steps.length;
    }
  }

  /** Delivers one waiting message to a client. */
  deliver(id: string): boolean {
    const client = this.clients.get(id);
    const message = client?.inbox.shift();
    if (!client || !message) return false;
    const { session } = client;
    if (message.type === 'doc_data') session.receiveDocData(message);
    else if (message.type === 'diff') session.receiveDiff(message);
    else if (message.type === 'confirm_diff') session.confirm(message);
    else if (message.type === 'reject_diff') session.reject(message);
    else if (message.type === 'caret') session.receiveCaret(message);
    return true;
  }

  /** Delivers everything, alternating between clients, until all is quiet. */
  settle(): void {
    let moved = true;
    while (moved) {
      moved = false;
      for (const id of this.clients.keys()) moved = this.deliver(id) || moved;
    }
  }
}

function bodyTextStart(doc: PMNode, part = 'body'): number {
  let start = 0;
  doc.forEach((node, offset) => {
    if (node.attrs.id === part) start = offset + 2;
  });
  return start;
}

function type(session: CollabSession, text: string, at?: number): void {
  const state = session.state;
  if (!state) throw new Error('no state');
  const pos = at ?? state.selection.from;
  const tr = state.tr.insertText(text, pos);
  session.apply(tr.setSelection(TextSelection.create(tr.doc, pos + text.length)));
}

/** A server with Ann connected and up to date; `start` is where the body's text begins. */
function annAlone(): { server: Authority; ann: CollabSession; start: number } {
  const server = new Authority();
  const ann = server.join('ann-session');
  server.settle();
  return { server, ann, start: bodyTextStart(ann.state?.doc as PMNode) };
}

/** Ann and Bob connected and up to date. */
function annAndBob(): { server: Authority; ann: CollabSession; bob: CollabSession; start: number } {
  const server = new Authority();
  const ann = server.join('ann-session');
  const bob = server.join('bob-session');
  server.settle();
  return { server, ann, bob, start: bodyTextStart(ann.state?.doc as PMNode) };
}

/** Ann (who hears of divergences, and writes as `author` if given) and Bob, up to date. */
function divergingPair(author?: Reviewer) {
  const server = new Authority();
  const divergences: Divergence[] = [];
  const ann = server.join('ann-session', undefined, (d) => divergences.push(d), author);
  const bob = server.join('bob-session');
  server.settle();
  return { server, ann, bob, divergences };
}

/**
 * Ann, offline, writes LARGE_DIVERGENCE + 10 times in two places by turns (nothing folds); Bob
 * writes as often online: a[i]. and b[i] each time.
 */
function divergeLargely(server: Authority, ann: CollabSession, bob: CollabSession): void {
  for (let i = 0; i < LARGE_DIVERGENCE + 10; i++)
    type(ann, `a${i}.`, bodyTextStart(ann.state!.doc, i % 2 ? 'body' : 'abstract'));
  for (let i = 0; i < LARGE_DIVERGENCE + 10; i++) {
    type(bob, `b${i}`, bodyTextStart(bob.state!.doc));
    server.settle();
  }
}

const bodyText = (session: CollabSession) => session.state?.doc.lastChild?.textContent;

/** Once all is delivered: nothing of the session unconfirmed, the server's body is `text`, as on its screen. */
function expectSavedAs(server: Authority, session: CollabSession, text: string): void {
  server.settle();
  expect(session.unconfirmed).toBe(0);
  expect(server.doc.lastChild?.textContent).toBe(text);
  expect(session.state?.doc.eq(server.doc)).toBe(true);
}

describe('collab session', () => {
  it('sends one diff at a time, is unsaved until confirmed, then saved', () => {
    const { server, ann, start } = annAlone();
    type(ann, 'Hello', start);
    type(ann, ' world');
    expect(ann.unconfirmed).toBe(2);
    server.settle();
    expect(ann.unconfirmed).toBe(0);
    expect(ann.version).toBe(2);
    expect(server.doc.eq(ann.state?.doc as PMNode)).toBe(true);
  });

  /** Ann alone, her sends waiting in `scheduled` until a test runs them (the page's after-paint). */
  function annWithScheduledSends() {
    const server = new Authority();
    const scheduled: (() => void)[] = [];
    const ann = server.join('ann', undefined, undefined, undefined, (send) => scheduled.push(send));
    server.settle();
    return { server, ann, scheduled, start: bodyTextStart(ann.state!.doc) };
  }

  it('with scheduleSend, sends the keys typed before the scheduled send in one diff, then the next ones', () => {
    const { server, ann, scheduled, start } = annWithScheduledSends();
    type(ann, 'H', start);
    type(ann, 'i');
    // One send waits for both keys; nothing went out yet, and the steps count as unsaved.
    expect(scheduled).toHaveLength(1);
    expect(server.diffSizes).toEqual([]);
    expect(ann.unconfirmed).toBe(2);
    scheduled.shift()?.();
    expect(server.diffSizes).toEqual([2]);
    type(ann, '!');
    expect(scheduled).toHaveLength(1);
    server.settle();
    scheduled.shift()?.();
    server.settle();
    expect(server.diffSizes).toEqual([2, 1]);
    expectSavedAs(server, ann, 'Hi!');
  });

  it('never waits longer than the send throttle of spec section 9: a scheduled send that does not come is made by a timer', () => {
    const server = new Authority();
    const timers: { ms: number; run: () => void }[] = [];
    const ann = new CollabSession({
      send: (message) => server.receive('ann', message),
      onChange: () => {},
      plugins: () => [history()],
      schedule: (run, ms) => timers.push({ run, ms }),
      // A page without frames: the scheduled send never comes.
      scheduleSend: () => {},
      rebase: true,
    });
    server.connect('ann', ann);
    server.settle();
    type(ann, 'H', bodyTextStart(ann.state!.doc));
    type(ann, 'i');
    expect(server.diffSizes).toEqual([]);
    expect(timers.map((timer) => timer.ms)).toEqual([SEND_THROTTLE_START_MS]);
    timers.shift()?.run();
    expect(server.diffSizes).toEqual([2]);
    // Typed while that diff is in flight: sent the moment it is confirmed, not later.
    type(ann, '!');
    expect(server.diffSizes).toEqual([2]);
    server.settle();
    expect(server.diffSizes).toEqual([2, 1]);
    // The timer of a send already made sends nothing more.
    for (const timer of timers.splice(0)) timer.run();
    server.settle();
    expect(server.diffSizes).toEqual([2, 1]);
    expectSavedAs(server, ann, 'Hi!');
  });

  it("with scheduleSend, a change that is not the document's (a caret, rendered citations) leaves the send to its time", () => {
    const { server, ann, scheduled, start } = annWithScheduledSends();
    type(ann, 'H', start);
    ann.apply(ann.state!.tr.setSelection(TextSelection.create(ann.state!.doc, start)));
    expect(server.diffSizes).toEqual([]);
    scheduled.shift()?.();
    expect(server.diffSizes).toEqual([1]);
    // With no send waiting, such a change still sends what is left (nothing here).
    ann.apply(ann.state!.tr.setSelection(TextSelection.create(ann.state!.doc, start + 1)));
    expect(server.diffSizes).toEqual([1]);
    server.settle();
    expectSavedAs(server, ann, 'H');
  });

  it('rebases after a stale refusal: two writers at once converge without losing text', () => {
    const { server, ann, bob, start } = annAndBob();
    type(ann, 'Ann writes. ', start);
    type(bob, 'Bob writes. ', start);
    type(ann, 'More from Ann.');
    type(bob, 'More from Bob.');
    server.settle();
    expect(ann.unconfirmed).toBe(0);
    expect(bob.unconfirmed).toBe(0);
    expect(bodyText(ann)).toBe(bodyText(bob));
    expect(server.doc.eq(ann.state?.doc as PMNode)).toBe(true);
    for (const piece of ['Ann writes. ', 'Bob writes. ', 'More from Ann.', 'More from Bob.']) {
      expect(bodyText(ann)).toContain(piece);
    }
  });

  it('takes a rebased confirmation of a late diff: two writers at once converge with no stale refusal', () => {
    const { server, ann, bob, start } = annAndBob();
    server.rebases = true;
    type(ann, 'Ann writes. ', start);
    type(bob, 'Bob writes. ', start);
    server.settle();
    type(ann, 'More from Ann.');
    type(bob, 'More from Bob.');
    server.settle();
    expect(server.staleAnswers).toBe(0);
    expect(ann.unconfirmed).toBe(0);
    expect(bob.unconfirmed).toBe(0);
    expect(bodyText(ann)).toBe(bodyText(bob));
    expect(server.doc.eq(ann.state?.doc as PMNode)).toBe(true);
    for (const piece of ['Ann writes. ', 'Bob writes. ', 'More from Ann.', 'More from Bob.']) {
      expect(bodyText(ann)).toContain(piece);
    }
  });

  it('takes a rebased confirmation that committed fewer steps: the ones the others deleted fell away on both sides', () => {
    const { server, ann, bob, start } = annAndBob();
    type(ann, 'abcdef', start);
    server.settle();
    server.rebases = true;
    // Bob deletes the word while Ann, not yet knowing, formats inside it and then types after it.
    const state = ann.state as NonNullable<typeof ann.state>;
    ann.apply(state.tr.addMark(start + 1, start + 3, schema.marks.strong.create()));
    type(ann, ' and more', start + 6);
    const bobState = bob.state as NonNullable<typeof bob.state>;
    bob.apply(bobState.tr.delete(start, start + 6));
    server.settle();
    expect(server.staleAnswers).toBe(0);
    expect(ann.unconfirmed).toBe(0);
    expect(bob.unconfirmed).toBe(0);
    expect(server.doc.eq(ann.state?.doc as PMNode)).toBe(true);
    expect(server.doc.eq(bob.state?.doc as PMNode)).toBe(true);
    expect(bodyText(ann)).toBe(' and more');
  });

  it("after a reconnect, takes once its own diff that the server rebased behind the others' steps", () => {
    const { server, ann, bob, start } = annAndBob();
    server.rebases = true;
    // Ann's diff is on its way when her socket drops; Bob writes meanwhile and Ann goes on typing.
    server.held = [];
    type(ann, 'A', start);
    const unanswered = server.held;
    server.held = null;
    server.disconnect('ann-session');
    type(bob, 'B', start);
    server.settle();
    type(ann, 'C');
    // Back: the transport resends the unanswered diff at once, so the server commits it, rebased,
    // behind Bob's step before Ann's catch_up; the answer then holds Bob's step, then hers.
    server.connect('ann-session', ann);
    server.held = unanswered;
    server.release();
    server.settle();
    expect(server.staleAnswers).toBe(0);
    expectSavedAs(server, ann, 'BAC');
    expectSavedAs(server, bob, 'BAC');
  });

  it('undoes only its own changes while the other writes', () => {
    const { server, ann, bob, start } = annAndBob();
    type(ann, 'mine ', start);
    server.settle();
    type(bob, 'theirs', bodyTextStart(bob.state?.doc as PMNode) + 5);
    server.settle();
    expect(bodyText(ann)).toBe('mine theirs');
    const state = ann.state;
    if (!state) throw new Error('no state');
    undo(state, (tr) => ann.apply(tr));
    server.settle();
    expect(bodyText(ann)).toBe('theirs');
    expect(bodyText(bob)).toBe('theirs');
  });

  it('keeps text the server refuses on screen, stops sending and reports the reason', () => {
    const server = new Authority();
    const refused: RejectReason[] = [];
    const ann = server.join('ann-session', (reason) => refused.push(reason));
    server.settle();
    server.refuse = 'rights';
    type(ann, 'not allowed', bodyTextStart(ann.state?.doc as PMNode));
    server.settle();
    expect(refused).toEqual(['rights']);
    expect(ann.refused).toBe('rights');
    expect(bodyText(ann)).toBe('not allowed');
    expect(ann.unconfirmed).toBe(1);
  });

  it('maps a caret that refers to an older version through the steps since', () => {
    const { server, ann, bob, start } = annAndBob();
    type(ann, 'abc', start);
    server.settle();
    // Bob's caret after "abc" at version 1; Ann meanwhile inserted "XY" before it (version 2).
    type(ann, 'XY', start);
    server.settle();
    ann.receiveCaret({
      type: 'caret',
      session_id: 'bob-session',
      id: 2,
      v: 1,
      anchor: start + 3,
      head: start + 3,
    });
    expect(ann.carets.get('bob-session')?.head).toBe(start + 5);
    // And a later local edit before it moves it on.
    type(ann, '!', start);
    expect(ann.carets.get('bob-session')?.head).toBe(start + 6);
    // Bob has seen both of Ann's confirmed diffs.
    expect(bob.version).toBe(2);
  });

  it('maps a caret sent between the steps of one relayed diff', () => {
    const { server, ann, bob, start } = annAndBob();
    // Ann's one diff of two steps: "abc" at the start, then "XY" before it (versions 0 -> 2).
    const state = ann.state;
    if (!state) throw new Error('no state');
    ann.apply(state.tr.insertText('abc', start).insertText('XY', start));
    server.settle();
    expect(bob.version).toBe(2);
    // Ann's caret after "abc" as she saw it at version 1: behind "XYabc" at version 2.
    bob.receiveCaret({
      type: 'caret',
      session_id: 'ann-session',
      id: 1,
      v: 1,
      anchor: start + 3,
      head: start + 3,
    });
    expect(bob.carets.get('ann-session')?.head).toBe(start + 5);
  });

  it('after a server restart that lost the diff, sends the unconfirmed steps again', () => {
    const { server, ann } = annAlone();
    // The diff goes out, but the server restarts before committing it.
    server.held = [];
    type(ann, 'kept', bodyTextStart(ann.state?.doc as PMNode));
    server.held = null;
    ann.receiveDocData(server.docData('ann-session', 0));
    server.settle();
    expect(ann.unconfirmed).toBe(0);
    expect(server.doc.lastChild?.textContent).toBe('kept');
  });

  it('after a server restart that committed the diff but lost its confirm, sends nothing twice', () => {
    const { server, ann } = annAlone();
    type(ann, 'Just ', bodyTextStart(ann.state?.doc as PMNode));
    server.settle();
    type(ann, 'once');
    type(ann, ' more');
    // The diff with 'once' is committed; its confirm is lost with the old server process.
    server.clients.get('ann-session')?.inbox.splice(0);
    expect(server.steps).toHaveLength(2);
    ann.receiveDocData(server.docData('ann-session', 2));
    expectSavedAs(server, ann, 'Just once more');
  });

  it('counts the confirm of an older copy of its diff that arrives after a new session', () => {
    const { server, ann } = annAlone();
    // Ann's first diff is on its way when the connection drops and a new server session begins.
    server.held = [];
    type(ann, 'one', bodyTextStart(ann.state?.doc as PMNode));
    type(ann, ' two');
    ann.receiveDocData(server.docData('ann-session', 0));
    // The old copy (one step) arrives first, then the full resend made on the same version.
    server.release();
    expectSavedAs(server, ann, 'one two');
  });

  it('after a restart that lost a committed confirm while another wrote, takes each step once and keeps undo', () => {
    const { server, ann, bob } = annAndBob();
    type(ann, 'Just ', bodyTextStart(ann.state?.doc as PMNode));
    server.settle();
    type(ann, 'once');
    // Committed, but the confirm dies with the old server process; Bob writes on the new one.
    server.clients.get('ann-session')?.inbox.splice(0);
    server.deliver('bob-session');
    type(bob, 'Bob ', bodyTextStart(bob.state?.doc as PMNode));
    server.deliver('bob-session');
    type(ann, ' more');
    expect(server.steps.map(({ cid }) => cid)).toEqual(['ann-session', 'ann-session', 'bob-session']);
    ann.receiveDocData(server.docData('ann-session', 3));
    server.settle();
    expect(ann.unconfirmed).toBe(0);
    expect(server.steps).toHaveLength(4);
    expect(server.doc.lastChild?.textContent).toBe('Bob Just once more');
    expect(ann.state?.doc.eq(server.doc)).toBe(true);
    expect(bob.state?.doc.eq(server.doc)).toBe(true);
    // The undo history survived the new session: Ann's own typing goes, Bob's stays.
    expect(undo(ann.state!, (tr) => ann.apply(tr))).toBe(true);
    server.settle();
    expect(server.doc.lastChild?.textContent).toBe('Bob ');
    expect(bob.state?.doc.eq(server.doc)).toBe(true);
  });
});

/** Types `count` single characters, each its own step, as a person at the keyboard does. */
function typeChars(session: CollabSession, text: string, at?: number): void {
  let pos = at;
  for (const char of text) {
    type(session, char, pos);
    pos = undefined;
  }
}

/** A new page of Ann's session (a reloaded or reopened tab), not yet connected. */
function pageOfAnn(server: Authority): CollabSession {
  return new CollabSession({
    send: (message) =>
      (server as unknown as { receive(id: string, m: unknown): void }).receive('ann-session', message),
    onChange: () => {},
    plugins: () => [history()],
  });
}

describe('offline editing', () => {
  it('folds a typed run with Step.merge into far fewer steps that make the same document', () => {
    const { server, ann } = annAlone();
    server.disconnect('ann-session');
    const before = ann.state!.doc;
    typeChars(ann, 'a sentence typed on a train. '.repeat(20), bodyTextStart(before));
    // The unconfirmed queue: one step per keystroke, on top of the document as it arrived.
    expect(ann.unconfirmed).toBe(580);
    const folded = compressSteps(ann.saved()!.steps.map((json) => Step.fromJSON(schema, json)));
    expect(folded.length).toBeLessThan(5);
    let doc = before;
    for (const step of folded) doc = step.apply(doc).doc!;
    expect(doc.eq(ann.state!.doc)).toBe(true);
  });

  it('edits offline while another writes, then catches up, rebases folded steps and sends: both see all text', () => {
    const { server, ann, bob } = annAndBob();
    server.disconnect('ann-session');
    const start = bodyTextStart(ann.state!.doc);
    typeChars(ann, 'Ann offline. '.repeat(40), start);
    for (let i = 0; i < 30; i++) {
      type(bob, `b${i} `, bodyTextStart(bob.state!.doc));
      server.settle();
    }
    expect(server.steps).toHaveLength(30);
    server.diffSizes = [];
    server.connect('ann-session', ann);
    server.settle();
    expect(ann.unconfirmed).toBe(0);
    expect(ann.state!.doc.eq(server.doc)).toBe(true);
    expect(bob.state!.doc.eq(server.doc)).toBe(true);
    expect(server.doc.lastChild!.textContent).toContain('Ann offline. '.repeat(40));
    for (let i = 0; i < 30; i++) expect(server.doc.lastChild!.textContent).toContain(`b${i} `);
    // 520 keystrokes went out as a handful of folded steps, not one by one.
    expect(server.diffSizes.reduce((a, b) => a + b, 0)).toBeLessThan(10);
  });

  it('a reloaded or reopened tab restores its saved queue and sends every step exactly once', () => {
    const { server, ann, bob } = annAndBob();
    type(ann, 'Saved ', bodyTextStart(ann.state!.doc));
    server.settle();
    // A diff goes out and is committed, but its confirm never comes back; then offline.
    type(ann, 'committed');
    server.clients.get('ann-session')!.inbox.splice(0);
    server.disconnect('ann-session');
    typeChars(ann, ' and queued');
    type(bob, 'Bob ', bodyTextStart(bob.state!.doc));
    server.settle();
    const saved = JSON.parse(JSON.stringify(ann.saved()));
    expect(saved.steps.length).toBeGreaterThan(11);
    // The tab closes; a new page restores the queue under the same client id.
    const reopened = pageOfAnn(server);
    expect(reopened.restore(saved).lost).toBe(0);
    expect(reopened.state!.doc.lastChild!.textContent).toBe('Saved committed and queued');
    server.connect('ann-session', reopened);
    server.settle();
    expect(reopened.unconfirmed).toBe(0);
    expect(server.doc.lastChild!.textContent).toBe('Bob Saved committed and queued');
    expect(reopened.state!.doc.eq(server.doc)).toBe(true);
    expect(bob.state!.doc.eq(server.doc)).toBe(true);
  });

  it('a saved queue older than what the server has of ours (its last save cut off by leaving the page) loses nothing', () => {
    const { server, ann, start } = annAlone();
    typeChars(ann, 'Field', start);
    const stale = JSON.parse(JSON.stringify(ann.saved()));
    // Typed, sent and committed after the last save that reached IndexedDB.
    typeChars(ann, ' notes');
    server.settle();
    expect(server.doc.lastChild!.textContent).toBe('Field notes');
    server.disconnect('ann-session');
    // Reopened offline from that save: the confirmed steps it lacks are not in its queue.
    const reopened = pageOfAnn(server);
    expect(reopened.restore(stale).lost).toBe(0);
    expect(reopened.state!.doc.lastChild!.textContent).toBe('Field');
    typeChars(reopened, ' Written offline.', start + 'Field'.length);
    server.connect('ann-session', reopened);
    expectSavedAs(server, reopened, 'Field notes Written offline.');
  });

  it('saves the document once and the confirmed steps after it, until confirmedStepsKept of them', () => {
    const { server, ann, bob } = annAndBob();
    const first = ann.saved()!;
    expect(first.confirmed).toEqual([]);
    typeChars(ann, 'Kept');
    type(bob, 'Bob ', bodyTextStart(bob.state!.doc));
    server.settle();
    const later = ann.saved()!;
    // The same document object (IndexedDB does not copy it again), the confirmed steps after it.
    expect(later.doc).toBe(first.doc);
    expect(later.confirmed!.length).toBeGreaterThan(4);
    expect(later.version).toBe(first.version + later.confirmed!.length);
    const reopened = new CollabSession({ send: () => {}, onChange: () => {}, plugins: () => [history()] });
    expect(reopened.restore(JSON.parse(JSON.stringify(later))).lost).toBe(0);
    expect(reopened.state!.doc.eq(server.doc)).toBe(true);
    expect(savedDocument(later).eq(server.doc)).toBe(true);
    // Past the limit the document is saved anew, at the confirmed version.
    const kept = confirmedStepsKept(server.doc);
    for (let i = 0; i <= kept; i++) {
      type(bob, 'x', bodyTextStart(bob.state!.doc));
      server.settle();
    }
    const renewed = ann.saved()!;
    expect(renewed.doc).not.toBe(first.doc);
    expect(renewed.confirmed!.length).toBeLessThan(kept);
    expect(savedDocument(renewed).eq(server.doc)).toBe(true);
  });

  it('renews a short document after few confirmed steps and a long one after more, within 20 and 300', () => {
    const withText = (characters: number) =>
      schema.nodes.doc.create(null, schema.nodes.paragraph.create(null, schema.text('x'.repeat(characters))));
    expect(confirmedStepsKept(withText(100))).toBe(20);
    // A long article (about 100,000 positions): some 55 steps, not 300, are rewritten on a keystroke.
    expect(confirmedStepsKept(withText(100_000))).toBe(55);
    expect(confirmedStepsKept(withText(10_000_000))).toBe(300);
  });

  it('a large divergence is merged and reported with the offline copy; nothing is dropped silently', () => {
    const { server, ann, bob, divergences } = divergingPair();
    server.disconnect('ann-session');
    // Ann writes in two places by turns (nothing folds); Bob writes meanwhile.
    divergeLargely(server, ann, bob);
    const offlineText = ann.state!.doc.lastChild!.textContent;
    server.connect('ann-session', ann);
    server.settle();
    expect(divergences).toHaveLength(1);
    expect(divergences[0].remote).toBe(LARGE_DIVERGENCE + 10);
    expect(divergences[0].local).toBe(LARGE_DIVERGENCE + 10);
    expect(divergences[0].dropped).toBe(0);
    expect(divergences[0].offline as { content: { content?: { text?: string }[] }[] }).toBeTruthy();
    expect(ann.state!.doc.eq(server.doc)).toBe(true);
    for (let i = 0; i < LARGE_DIVERGENCE + 10; i++) {
      expect(server.doc.textContent).toContain(`a${i}.`);
      expect(server.doc.textContent).toContain(`b${i}`);
    }
    expect(offlineText).not.toContain('b0');
  });

  it('a rebase that cannot place a step reports it and keeps the offline copy', () => {
    const { server, ann, bob, divergences } = divergingPair();
    const start = bodyTextStart(ann.state!.doc);
    type(ann, 'shared text', start);
    server.settle();
    server.disconnect('ann-session');
    // Ann bolds a word offline; Bob deletes the whole sentence meanwhile.
    const strong = schema.marks.strong ?? Object.values(schema.marks)[0];
    ann.apply(ann.state!.tr.addMark(start, start + 6, strong.create()));
    bob.apply(bob.state!.tr.delete(start, start + 11));
    server.settle();
    server.connect('ann-session', ann);
    server.settle();
    expect(ann.state!.doc.eq(server.doc)).toBe(true);
    expect(divergences).toHaveLength(1);
    expect(divergences[0].dropped).toBe(1);
    expect(JSON.stringify(divergences[0].offline)).toContain('"text":"shared"');
  });

  const ANN: Reviewer = { id: 7, username: 'Ann Offline' };

  /** The texts of the tracked changes of one kind in a document, in order. */
  const changed = (doc: PMNode, type: string) =>
    trackedChanges(doc)
      .filter((change) => change.type === type && change.user === ANN.id)
      .map((change) => doc.textBetween(change.from, change.to));

  it("a large divergence lays the offline work on the co-authors' version as suggestions", () => {
    const { server, ann, bob, divergences } = divergingPair(ANN);
    type(ann, 'Kept. Gone.', bodyTextStart(ann.state!.doc));
    server.settle();
    server.disconnect('ann-session');
    // Ann writes in two places by turns and deletes a word; Bob writes meanwhile.
    const gone = bodyTextStart(ann.state!.doc) + 'Kept. '.length;
    ann.apply(ann.state!.tr.delete(gone, gone + 'Gone.'.length));
    // A typo mended inside her own offline text stays where she wrote it.
    const abstract = bodyTextStart(ann.state!.doc, 'abstract');
    type(ann, 'helo', abstract);
    type(ann, 'l', abstract + 3);
    divergeLargely(server, ann, bob);
    server.connect('ann-session', ann);
    server.settle();
    expect(divergences).toHaveLength(1);
    expect(divergences[0]).toMatchObject({ suggested: true, dropped: 0 });
    expect(ann.unconfirmed).toBe(0);
    expect(ann.state!.doc.eq(server.doc)).toBe(true);
    expect(bob.state!.doc.eq(server.doc)).toBe(true);
    // Bob's text is plain; each of Ann's is her insertion, her deleted word is kept, marked.
    const inserted = changed(server.doc, 'insertion').join('');
    for (let i = 0; i < LARGE_DIVERGENCE + 10; i++) {
      expect(inserted).toContain(`a${i}.`);
      expect(inserted).not.toContain(`b${i}`);
      expect(server.doc.textContent).toContain(`b${i}`);
    }
    expect(changed(server.doc, 'deletion')).toEqual(['Gone.']);
    expect(inserted).toContain('hello');
    // Accepting everything gives what a plain merge gives.
    const tr = bob.state!.tr;
    decideChanges(tr, trackedChanges(tr.doc), true);
    expect(trackedChanges(tr.doc)).toEqual([]);
    expect(tr.doc.textContent).not.toContain('Gone.');
    for (let i = 0; i < LARGE_DIVERGENCE + 10; i++) expect(tr.doc.textContent).toContain(`a${i}.`);
  });

  it('sends nothing while disconnected: the offline work goes after the catch-up, a large divergence as suggestions', () => {
    const { server, ann, bob, divergences } = divergingPair(ANN);
    server.rebases = true;
    // The page saw the connection go: a diff sent now would reach the server only after the
    // reconnect (the transport resends it), to be committed there rebased, not as suggestions.
    ann.disconnected();
    const sent = server.diffSizes.length;
    type(ann, 'Offline. ', bodyTextStart(ann.state!.doc, 'abstract'));
    expect(server.diffSizes).toHaveLength(sent);
    server.disconnect('ann-session');
    divergeLargely(server, ann, bob);
    server.connect('ann-session', ann);
    server.settle();
    expect(divergences.map((divergence) => divergence.suggested)).toEqual([true]);
    expect(ann.unconfirmed).toBe(0);
    expect(ann.state?.doc.eq(server.doc)).toBe(true);
    expect(bob.state?.doc.eq(server.doc)).toBe(true);
  });

  it('an offline change whose text the co-authors deleted is suggested again where it stood', () => {
    const { server, ann, bob, divergences } = divergingPair(ANN);
    const start = bodyTextStart(ann.state!.doc);
    type(ann, 'Before. shared text', start);
    server.settle();
    server.disconnect('ann-session');
    // Ann bolds a word and then italicises it offline; Bob deletes the sentence meanwhile.
    const word = start + 'Before. '.length;
    ann.apply(ann.state!.tr.addMark(word, word + 6, schema.marks.strong.create()));
    ann.apply(ann.state!.tr.addMark(word, word + 6, schema.marks.em.create()));
    bob.apply(bob.state!.tr.delete(word, word + 11));
    server.settle();
    server.connect('ann-session', ann);
    server.settle();
    expect(divergences).toHaveLength(1);
    expect(divergences[0]).toMatchObject({ suggested: true, dropped: 2 });
    expect(JSON.stringify(divergences[0].offline)).toContain('"text":"shared"');
    expect(ann.state!.doc.eq(server.doc)).toBe(true);
    // Once, with Ann's formatting, as her insertion after what Bob left.
    expect(server.doc.lastChild!.textContent).toBe('Before. shared');
    expect(changed(server.doc, 'insertion')).toEqual(['shared']);
    const restored = server.doc.nodeAt(word)!;
    expect(restored.marks.map((mark) => mark.type.name).sort()).toEqual(['em', 'insertion', 'strong']);
    // Rejecting it leaves Bob's version.
    const tr = bob.state!.tr;
    decideChanges(tr, trackedChanges(tr.doc), false);
    expect(tr.doc.lastChild!.textContent).toBe('Before. ');
  });

  it('sends a long queue in diffs the server accepts (at most 500 steps each)', () => {
    const { server, ann } = annAlone();
    server.disconnect('ann-session');
    // Steps that cannot fold: each one in a different place.
    for (let i = 0; i < 1200; i++) type(ann, 'x', bodyTextStart(ann.state!.doc) + (i % 2));
    server.connect('ann-session', ann);
    server.settle();
    expect(ann.unconfirmed).toBe(0);
    expect(Math.max(...server.diffSizes)).toBeLessThanOrEqual(500);
    expect(server.doc.lastChild!.textContent).toBe('x'.repeat(1200));
  });
});

/** A small seeded generator, so that a failing run can be repeated. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function bodyEnd(session: CollabSession): number {
  const doc = session.state!.doc;
  return bodyTextStart(doc) + (doc.lastChild!.firstChild?.content.size ?? 0);
}

describe('faults while typing', () => {
  for (const seed of [1, 2, 3]) {
    it(`1,000 keystrokes, network cut at random points, confirms lost, reloads, two server restarts: nothing lost or doubled (seed ${seed})`, () => {
      const next = random(seed);
      const server = new Authority();
      let ann = server.join('ann');
      const bob = server.join('bob');
      server.settle();
      // Bob writes before the bar, Ann after it: the expected text is then one order only.
      type(ann, '|', bodyTextStart(ann.state!.doc));
      server.settle();
      const typed = 'The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1000);
      let bobTyped = '';
      let annOnline = true;
      let bobOnline = true;
      const restartAt = new Set([333, 666]);
      for (let i = 0; i < typed.length; i++) {
        type(ann, typed[i], bodyEnd(ann));
        if (i % 9 === 0) {
          type(bob, 'B', bodyTextStart(bob.state!.doc));
          bobTyped += 'B';
        }
        const r = next();
        if (restartAt.has(i)) {
          // The server process goes: every socket and everything on the wire with it.
          server.disconnect('ann');
          server.disconnect('bob');
          annOnline = bobOnline = false;
        } else if (annOnline && r < 0.03) {
          server.disconnect('ann');
          annOnline = false;
        } else if (!annOnline && r < 0.08) {
          server.connect('ann', ann);
          annOnline = true;
        } else if (annOnline && r < 0.1) {
          // A diff arrived and was committed, but the answer is lost with the connection.
          server.clients.get('ann')!.inbox.splice(0);
          server.disconnect('ann');
          annOnline = false;
        } else if (r < 0.105) {
          // The tab reloads: its saved queue comes back under the same client id.
          const saved = JSON.parse(JSON.stringify(ann.saved()));
          if (annOnline) server.disconnect('ann');
          ann = new CollabSession({
            send: (message) =>
              (server as unknown as { receive(id: string, m: unknown): void }).receive('ann', message),
            onChange: () => {},
            plugins: () => [history()],
          });
          expect(ann.restore(saved).lost).toBe(0);
          annOnline = false;
        }
        if (!bobOnline && r > 0.9) {
          server.connect('bob', bob);
          bobOnline = true;
        }
        // Some of the waiting messages arrive now, the rest later.
        for (const id of ['ann', 'bob']) {
          const count = Math.floor(next() * 3);
          for (let k = 0; k < count; k++) server.deliver(id);
        }
      }
      if (!annOnline) server.connect('ann', ann);
      if (!bobOnline) server.connect('bob', bob);
      server.settle();
      const text = server.doc.lastChild!.textContent;
      expect(ann.unconfirmed).toBe(0);
      expect(bob.unconfirmed).toBe(0);
      expect(text).toBe(`${bobTyped}|${typed}`);
      expect(ann.state!.doc.eq(server.doc)).toBe(true);
      expect(bob.state!.doc.eq(server.doc)).toBe(true);
    });
  }
});
