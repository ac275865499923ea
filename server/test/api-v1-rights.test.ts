import { ACCESS_RIGHTS, type AccessRight } from '@scriptorium/common/api/documents';
import { describe, expect, it } from 'vitest';
import { ENGINES, useServer } from './harness';
import { shareDocument } from './seed';
import { callV1, type Operation, tokenOf } from './v1-support';

/**
 * Issue 57: every document operation of the public API, called through a token by the owner, by
 * a holder of each document right and by a stranger, answers as the app's own rules say, and a
 * refused call changes nothing. (Anonymous and out-of-scope calls: api-v1.test.ts.)
 */

type Caller = 'owner' | AccessRight | 'stranger';
const CALLERS: Caller[] = ['owner', ...ACCESS_RIGHTS, 'stranger'];

/** The rights whose changes are recorded as suggestions (the editor's suggestion mode). */
const suggests = (caller: Caller) => caller === 'write-tracked' || caller === 'review';

/** What each caller gets: 200, or the refusal. The owner and `write` change the content. */
function expected(caller: Caller, operation: Operation): number {
  if (caller === 'stranger') return 404;
  switch (operation) {
    case 'documentsGet':
    case 'documentsExport':
    case 'documentsMove': // each holder files the document in their own folder
    case 'documentsDelete': // a holder's delete takes it off their own list
      return 200;
    case 'documentsContent':
    case 'documentsRename':
      return caller === 'owner' || caller === 'write' || suggests(caller) ? 200 : 403;
    case 'documentsAccess':
    case 'documentsShare':
      return caller === 'owner' ? 200 : 403;
    default:
      throw new Error(`no rule for ${operation}`);
  }
}

/** The calls, in an order where each one still finds the document (delete last). */
const CALLS: Array<[Operation, Record<string, string>?, Record<string, string>?]> = [
  ['documentsGet'],
  ['documentsExport', { format: 'html' }],
  ['documentsContent', {}, { markdown: 'Added by the API.' }],
  ['documentsRename', {}, { title: 'Renamed by the API' }],
  ['documentsAccess'],
  ['documentsShare', {}, { access: '[]' }],
  ['documentsMove', {}, { path: '/filed/' }],
  ['documentsDelete'],
];

describe.each(ENGINES)('public API v1: each document right (%s)', (engine) => {
  const server = useServer(engine, { env: { API_TOKEN_RATE_LIMIT: '10000' } });

  it.each(CALLERS)(
    '%s: every document operation answers as the rights say and a refusal changes nothing',
    async (caller) => {
      const owner = await server().loggedInUser();
      const ownerToken = await tokenOf(owner.browser);
      const created = await callV1(server(), ownerToken, 'documentsCreate', {}, { title: 'Shared paper' });
      const { id } = created.json<{ id: number }>();
      const other = await server().loggedInUser();
      const token = caller === 'owner' ? ownerToken : await tokenOf(other.browser);
      if (caller !== 'owner' && caller !== 'stranger') {
        await shareDocument(server().ctx.db, id, { userId: other.user.id }, caller);
      }
      const [before] = await server().rows('documents', { id });
      const accessBefore = await server().rows('document_access', { document_id: id });

      const listed = await callV1(server(), token, 'documentsList');
      const ids = listed.json<{ documents: { id: number }[] }>().documents.map((d) => d.id);
      expect(ids.includes(id), 'documentsList').toBe(caller !== 'stranger');

      const answers: Record<string, number> = {};
      for (const [operation, params = {}, fields = {}] of CALLS) {
        answers[operation] = (await callV1(server(), token, operation, { id, ...params }, fields)).status;
      }
      expect(answers).toEqual(Object.fromEntries(CALLS.map(([op]) => [op, expected(caller, op)])));

      const [after] = await server().rows('documents', { id });
      if (caller === 'owner') {
        expect(after).toBeUndefined();
        return;
      }
      // Not the owner: the document is still there for its owner, written by `write`, suggested
      // to by a tracked right (the text is there, marked as the caller's insertion), unchanged else.
      expect(after.owner_id).toBe(owner.user.id);
      expect(after.path).toBe(before.path);
      if (caller === 'write') {
        expect(after.title).toBe('Renamed by the API');
        expect(after.content).toContain('Added by the API.');
        expect(after.content).not.toContain('"insertion"');
      } else if (suggests(caller)) {
        const inserted = insertedText(JSON.parse(after.content ?? 'null'), other.user.id);
        expect(inserted).toContain('Added by the API.');
        expect(inserted).toContain('Renamed by the API');
        expect(after.content).toContain('Shared paper');
      } else {
        expect([after.title, after.content, after.version]).toEqual([
          before.title,
          before.content,
          before.version,
        ]);
      }
      // A holder's delete removed their own access only; nobody else's access changed.
      const accessAfter = await server().rows('document_access', { document_id: id });
      expect(accessAfter).toEqual(accessBefore.filter((row) => row.user_id !== other.user.id));
    },
  );
});

describe.each(ENGINES)('public API v1: a cited entry suggested (%s)', (engine) => {
  const server = useServer(engine, { env: { API_TOKEN_RATE_LIMIT: '10000' } });

  it("a write-tracked script's citation of an entry new to the document is suggested with its entry", async () => {
    const owner = await server().loggedInUser();
    const ownerToken = await tokenOf(owner.browser);
    const { id } = (await callV1(server(), ownerToken, 'documentsCreate', {}, { title: 'Paper' })).json<{
      id: number;
    }>();
    const other = await server().loggedInUser();
    await shareDocument(server().ctx.db, id, { userId: other.user.id }, 'write-tracked');
    const token = await tokenOf(other.browser);
    const csl = { id: 'knuth1984', type: 'book', title: 'Literate Programming' };
    const added = await callV1(server(), token, 'bibliographyAdd', {}, { csl: JSON.stringify(csl) });
    expect(added.status).toBe(200);
    const answer = await callV1(
      server(),
      token,
      'documentsContent',
      { id },
      { markdown: 'As @knuth1984 said.' },
    );
    expect([answer.status, answer.json().unknown_citations]).toEqual([200, []]);
    const [after] = await server().rows('documents', { id });
    const content = JSON.parse(after.content ?? 'null');
    expect(insertedText(content, other.user.id)).toContain('As  said.');
    // The citation and the entry it brings are the co-author's insertion, for the owner to decide.
    expect(insertedNodes(content, other.user.id)).toEqual(expect.arrayContaining(['citation', 'bib_entry']));
    expect(after.content).toContain('Literate Programming');
  });
});

/** The text of a document's JSON that carries an insertion mark of `userId`. */
function insertedText(node: unknown, userId: number): string {
  const { text, marks, content } = node as {
    text?: string;
    marks?: { type: string; attrs?: { user?: number } }[];
    content?: unknown[];
  };
  if (text !== undefined)
    return marks?.some((m) => m.type === 'insertion' && m.attrs?.user === userId) ? text : '';
  return (content ?? []).map((child) => insertedText(child, userId)).join('');
}

/** The types of the atoms (citations, entries) that carry an insertion mark of `userId`. */
function insertedNodes(node: unknown, userId: number): string[] {
  const { type, marks, content } = node as {
    type: string;
    marks?: { type: string; attrs?: { user?: number } }[];
    content?: unknown[];
  };
  const own = marks?.some((m) => m.type === 'insertion' && m.attrs?.user === userId) && type !== 'text';
  return [...(own ? [type] : []), ...(content ?? []).flatMap((child) => insertedNodes(child, userId))];
}
