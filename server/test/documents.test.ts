import type { Contact } from '@scriptorium/common/api/contacts';
import type { AccessEntry, DocumentEntry } from '@scriptorium/common/api/documents';
import type { Endpoint } from '@scriptorium/common/api/endpoint';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { Fragment, Slice } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { claimPendingInvitesForEmail } from '../src/modules/contacts/commands/claim-invites';
import { ENGINES, type TestClient, type TestServer, type TestUser, useServer } from './harness';

interface Person {
  user: TestUser;
  browser: TestClient;
}

function person(server: TestServer): Promise<Person> {
  return server.loggedInUser({
    firstName: 'First',
    lastName: `Last${Math.random().toString(36).slice(2, 6)}`,
  });
}

async function list(browser: TestClient): Promise<DocumentEntry[]> {
  const response = await browser.call(documentsApi.list);
  expect(response.status, response.text).toBe(200);
  return response.json<{ documents: DocumentEntry[] }>().documents;
}

async function create(browser: TestClient, form: Record<string, unknown> = {}): Promise<number> {
  const response = await browser.call(documentsApi.create, form);
  expect(response.status, response.text).toBe(200);
  return response.json<{ id: number }>().id;
}

/** The real contact flow: a invites b by username, b accepts. */
async function connect(a: Person, b: Person): Promise<void> {
  const invite = await a.browser.call(contactsApi.invite, { user_string: b.user.username });
  expect(invite.status, invite.text).toBe(201);
  const received = (await b.browser.call(contactsApi.list)).json<{ contacts: Contact[] }>().contacts;
  const mine = received.filter((c) => c.type === 'to_userinvite');
  const accepted = await b.browser.call(contactsApi.accept, {
    invites: mine.map(({ id }) => ({ id })),
  });
  expect(accepted.status, accepted.text).toBe(200);
}

async function share(owner: Person, id: number, access: unknown[]) {
  return owner.browser.call(documentsApi.accessSave, { id, access: access });
}

describe.each(ENGINES)('documents API (%s)', (engine) => {
  const server = useServer(engine);

  it('creates, lists and gets documents of the user only', async () => {
    const ann = await person(server());
    const bob = await person(server());
    const before = Date.now();
    const id = await create(ann.browser, { path: 'thesis//drafts/' });
    const [entry] = await list(ann.browser);
    expect(entry).toMatchObject({
      id,
      title: '',
      path: '/thesis/drafts/',
      owner: { id: ann.user.id, username: ann.user.username, name: `First ${ann.user.last_name}` },
      is_owner: true,
      rights: 'write',
    });
    expect(entry.created).toBeGreaterThanOrEqual(before);
    expect(entry.updated).toBe(entry.created);
    expect(Object.keys(entry).sort()).toEqual([
      'created',
      'id',
      'is_owner',
      'owner',
      'path',
      'rights',
      'title',
      'updated',
    ]);
    expect(await list(bob.browser)).toEqual([]);

    const got = await ann.browser.call(documentsApi.get, { id });
    expect(got.json()).toEqual({ document: entry });
    const row = await server()
      .ctx.db.selectFrom('documents')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.content)).toEqual({ type: 'doc', content: [] });
    expect(row.version).toBe(0);
  });

  it('creates a document written offline once, with its content, however often the call is retried', async () => {
    const ann = await person(server());
    const bob = await person(server());
    const content = createDocument(schema, standardArticle, { title: 'Field notes' });
    const withBody = content.replace(
      content.content.size - 2,
      content.content.size - 2,
      new Slice(Fragment.from(schema.text('Written on a train')), 0, 0),
    );
    const form = {
      path: '/trips/',
      client_key: 'offline-key-0001',
      content: JSON.stringify(withBody.toJSON()),
    };
    const first = await create(ann.browser, form);
    // The answer was lost: the same call again, twice at once.
    const retries = await Promise.all([create(ann.browser, form), create(ann.browser, form)]);
    expect(retries).toEqual([first, first]);
    // Another user's key space is their own.
    expect(await create(bob.browser, form)).not.toBe(first);
    const mine = await list(ann.browser);
    expect(mine.map((entry) => [entry.id, entry.title, entry.path])).toEqual([
      [first, 'Field notes', '/trips/'],
    ]);
    const row = await server()
      .ctx.db.selectFrom('documents')
      .select(['content', 'version'])
      .where('id', '=', first)
      .executeTakeFirstOrThrow();
    expect(schema.nodeFromJSON(JSON.parse(row.content)).textContent).toContain('Written on a train');
    expect(row.version).toBe(0);
    // Content that is not a document of the schema makes nothing.
    const bad = await ann.browser.call(documentsApi.create, {
      client_key: 'offline-key-0002',
      content: JSON.stringify({ type: 'doc', content: [{ type: 'nonsense' }] }),
    });
    expect(bad.status).toBe(400);
    expect(await list(ann.browser)).toHaveLength(1);
  });

  it('answers 401 without a session and 403 without the CSRF header', async () => {
    const visitor = server().client();
    expect((await visitor.call(documentsApi.list)).status).toBe(401);
    const ann = await person(server());
    expect((await ann.browser.call(documentsApi.create, {}, { csrf: false })).status).toBe(403);
  });

  it("answers 404 for another user's id and changes nothing", async () => {
    const ann = await person(server());
    const eve = await person(server());
    const id = await create(ann.browser, { path: '/secret/' });
    const calls: Array<[Endpoint, Record<string, unknown>]> = [
      [documentsApi.get, { id }],
      [documentsApi.move, { id, path: '/stolen/' }],
      [documentsApi.delete, { ids: [id] }],
      [documentsApi.copy, { ids: [id] }],
      [documentsApi.accessGet, { id }],
      [documentsApi.accessSave, { id, access: '[]' }],
      [documentsApi.get, { id: 999999 }],
    ];
    for (const [target, form] of calls) {
      const response = await eve.browser.call(target, form);
      expect(response.status, `${target.path} ${response.text}`).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'The requested item was not found.' });
    }
    // One foreign id in a bulk delete stops the whole delete.
    const own = await create(eve.browser);
    expect((await eve.browser.call(documentsApi.delete, { ids: [own, id] })).status).toBe(404);
    expect((await list(eve.browser)).map((d) => d.id)).toEqual([own]);
    expect((await list(ann.browser))[0]).toMatchObject({ id, path: '/secret/' });
    expect(await list(eve.browser)).toHaveLength(1);
  });

  it('validates the form fields', async () => {
    const ann = await person(server());
    const bad = await ann.browser.call(documentsApi.move, { id: 'x', path: '/a/' });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({
      form: { errors: [], fields: { id: { errors: ['Enter a valid value.'] } } },
    });
    const missing = await ann.browser.call(documentsApi.delete, {});
    expect(missing.status).toBe(400);
    const id = await create(ann.browser);
    const badJson = await ann.browser.call(documentsApi.accessSave, { id, access: '{' });
    expect(badJson.json()).toEqual({
      form: { errors: [], fields: { access: { errors: ['This field must contain valid JSON.'] } } },
    });
  });

  it('lists own and shared documents of several owners, each with its own owner and as get answers it', async () => {
    const ann = await person(server());
    const bob = await person(server());
    const cat = await server().loggedInUser({ firstName: '', lastName: '' });
    await connect(bob, ann);
    await connect(cat, ann);
    const own = await create(ann.browser, { title: 'Mine' });
    const fromBob = [
      await create(bob.browser, { title: 'Bob 1' }),
      await create(bob.browser, { title: 'Bob 2' }),
    ];
    const fromCat = await create(cat.browser, { title: 'Cat' });
    for (const [owner, id] of [
      [bob, fromBob[0]],
      [bob, fromBob[1]],
      [cat, fromCat],
    ] as const) {
      const shared = await share(owner, id, [
        { holder_type: 'user', holder_id: ann.user.id, rights: 'read' },
      ]);
      expect(shared.status, shared.text).toBe(200);
    }
    const entries = await list(ann.browser);
    expect(entries.map((entry) => entry.id).sort((a, b) => a - b)).toEqual(
      [own, ...fromBob, fromCat].sort((a, b) => a - b),
    );
    const owners = Object.fromEntries(entries.map((entry) => [entry.id, entry.owner]));
    expect(owners[own]).toEqual({
      id: ann.user.id,
      username: ann.user.username,
      name: `First ${ann.user.last_name}`,
    });
    for (const id of fromBob)
      expect(owners[id]).toEqual({
        id: bob.user.id,
        username: bob.user.username,
        name: `First ${bob.user.last_name}`,
      });
    // Without a first or last name, the name shown is the username.
    expect(owners[fromCat]).toEqual({
      id: cat.user.id,
      username: cat.user.username,
      name: cat.user.username,
    });
    // Each listed entry is what the single get answers for it.
    for (const entry of entries) {
      const got = await ann.browser.call(documentsApi.get, { id: entry.id });
      expect(got.json<{ document: DocumentEntry }>().document).toEqual(entry);
    }
  });

  it('moves with the path rules and answers done; the owner and each collaborator keep their own path', async () => {
    const ann = await person(server());
    const bob = await person(server());
    await connect(ann, bob);
    const id = await create(ann.browser, { title: 'Paper' });
    const moved = await ann.browser.call(documentsApi.move, { id, path: 'thesis//Paper' });
    expect(moved.json()).toEqual({ done: true });
    expect((await list(ann.browser))[0].path).toBe('/thesis/');

    expect(
      (await share(ann, id, [{ holder_type: 'user', holder_id: bob.user.id, rights: 'write' }])).status,
    ).toBe(200);
    // A new collaborator finds it in their top folder, and may file it elsewhere for themselves.
    expect((await list(bob.browser))[0]).toMatchObject({ id, path: '', is_owner: false, rights: 'write' });
    await bob.browser.call(documentsApi.move, { id, path: '/from ann/' });
    expect((await list(bob.browser))[0].path).toBe('/from ann/');
    expect((await list(ann.browser))[0].path).toBe('/thesis/');
  });

  it('moves many documents', async () => {
    const ann = await person(server());
    const ids: number[] = [];
    for (let i = 0; i < 60; i++)
      ids.push(await create(ann.browser, { title: `Doc ${i}`, path: `/f${i % 3}/` }));
    const answers = await Promise.all(
      ids.map((id) => ann.browser.call(documentsApi.move, { id, path: '/archive/2024/' })),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const docs = await list(ann.browser);
    expect(docs).toHaveLength(60);
    expect(new Set(docs.map((doc) => doc.path))).toEqual(new Set(['/archive/2024/']));
  });

  it('gives each right to users and invites, and only the owner sees and saves rights, atomically', async () => {
    const ann = await person(server());
    const bob = await person(server());
    const cid = await person(server());
    const stranger = await person(server());
    await connect(ann, bob);
    await connect(ann, cid);
    const invite = await ann.browser.call(contactsApi.invite, {
      user_string: 'new.author@example.org',
    });
    expect(invite.status, invite.text).toBe(201);
    const inviteId = invite.json<{ contact: Contact }>().contact.id;

    const id = await create(ann.browser, { title: 'Shared' });
    const rights = ['read', 'read-without-comments', 'comment', 'review', 'write-tracked', 'write'] as const;
    for (const right of rights) {
      const saved = await share(ann, id, [
        { holder_type: 'user', holder_id: bob.user.id, rights: right },
        { holder_type: 'userinvite', holder_id: inviteId, rights: right },
      ]);
      expect(saved.json()).toEqual({ done: true });
      expect((await list(bob.browser))[0]).toMatchObject({ id, rights: right, is_owner: false });
      const access = (await ann.browser.call(documentsApi.accessGet, { id })).json<{
        access: AccessEntry[];
      }>().access;
      expect(access).toEqual([
        {
          holder_type: 'user',
          holder_id: bob.user.id,
          name: `First ${bob.user.last_name}`,
          email: null,
          rights: right,
        },
        {
          holder_type: 'userinvite',
          holder_id: inviteId,
          name: 'new.author@example.org',
          email: 'new.author@example.org',
          rights: right,
        },
      ]);
    }

    // A collaborator may not read or change the rights.
    expect((await bob.browser.call(documentsApi.accessGet, { id })).status).toBe(403);
    expect((await share(bob, id, [])).status).toBe(403);

    // A non-contact in the list fails the whole save: nothing changes.
    const refused = await share(ann, id, [
      { holder_type: 'user', holder_id: cid.user.id, rights: 'read' },
      { holder_type: 'user', holder_id: stranger.user.id, rights: 'read' },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.json()).toEqual({
      form: { errors: [], fields: { access: { errors: ['Select a valid choice.'] } } },
    });
    expect(await list(cid.browser)).toEqual([]);
    expect((await list(bob.browser))[0].rights).toBe('write');
    expect(await list(stranger.browser)).toEqual([]);

    // Changing and removing: bob goes, cid comes; the stranger sees nothing.
    await share(ann, id, [{ holder_type: 'user', holder_id: cid.user.id, rights: 'comment' }]);
    expect(await list(bob.browser)).toEqual([]);
    expect((await list(cid.browser))[0].rights).toBe('comment');
    expect((await bob.browser.call(documentsApi.get, { id })).status).toBe(404);
  });

  it('passes the rights of an invite to the person who accepts it', async () => {
    const ann = await person(server());
    const id = await create(ann.browser, { title: 'For a newcomer' });
    // By e-mail, before the person has an account.
    const invite = await ann.browser.call(contactsApi.invite, { user_string: 'Newcomer@Example.org' });
    const inviteId = invite.json<{ contact: Contact }>().contact.id;
    await share(ann, id, [{ holder_type: 'userinvite', holder_id: inviteId, rights: 'review' }]);

    const newcomer = await server().buildUser({ email: 'newcomer@example.org' });
    await claimPendingInvitesForEmail(server().ctx.db, newcomer.id, newcomer.email);
    const browser = await server().loginAs(newcomer);
    expect(await list(browser)).toEqual([]);
    const received = (await browser.call(contactsApi.list)).json<{ contacts: Contact[] }>().contacts;
    await browser.call(contactsApi.accept, {
      invites: received.map(({ id: row }) => ({ id: row })),
    });
    expect((await list(browser))[0]).toMatchObject({ id, rights: 'review', path: '' });
    const access = (await ann.browser.call(documentsApi.accessGet, { id })).json<{ access: AccessEntry[] }>()
      .access;
    expect(access).toEqual([
      { holder_type: 'user', holder_id: newcomer.id, name: newcomer.username, email: null, rights: 'review' },
    ]);

    // By username, to someone who already has an account.
    const dan = await person(server());
    const byName = await ann.browser.call(contactsApi.invite, { user_string: dan.user.username });
    await share(ann, id, [
      { holder_type: 'user', holder_id: newcomer.id, rights: 'review' },
      {
        holder_type: 'userinvite',
        holder_id: byName.json<{ contact: Contact }>().contact.id,
        rights: 'read',
      },
    ]);
    expect(await list(dan.browser)).toEqual([]);
    const danInvites = (await dan.browser.call(contactsApi.list)).json<{ contacts: Contact[] }>().contacts;
    await dan.browser.call(contactsApi.accept, {
      invites: danInvites.map(({ id: row }) => ({ id: row })),
    });
    expect((await list(dan.browser))[0]).toMatchObject({ id, rights: 'read' });
  });

  it('drops the rights of a declined or withdrawn invite', async () => {
    const ann = await person(server());
    const eve = await person(server());
    const id = await create(ann.browser);
    const invite = await ann.browser.call(contactsApi.invite, { user_string: eve.user.username });
    const inviteId = invite.json<{ contact: Contact }>().contact.id;
    await share(ann, id, [{ holder_type: 'userinvite', holder_id: inviteId, rights: 'write' }]);
    await eve.browser.call(contactsApi.decline, { invites: [{ id: inviteId }] });
    const access = (await ann.browser.call(documentsApi.accessGet, { id })).json<{ access: AccessEntry[] }>()
      .access;
    expect(access).toEqual([]);
    expect(await list(eve.browser)).toEqual([]);
  });

  it('removing a contact removes the rights between the two, both ways', async () => {
    const ann = await person(server());
    const bob = await person(server());
    const cid = await person(server());
    await connect(ann, bob);
    await connect(ann, cid);
    const annDoc = await create(ann.browser);
    const bobDoc = await create(bob.browser);
    await share(ann, annDoc, [
      { holder_type: 'user', holder_id: bob.user.id, rights: 'write' },
      { holder_type: 'user', holder_id: cid.user.id, rights: 'read' },
    ]);
    await share(bob, bobDoc, [{ holder_type: 'user', holder_id: ann.user.id, rights: 'comment' }]);
    expect(await list(ann.browser)).toHaveLength(2);

    const removed = await bob.browser.call(contactsApi.delete, {
      contacts: [{ id: ann.user.id, type: 'user' }],
    });
    expect(removed.status, removed.text).toBe(200);
    expect((await list(ann.browser)).map((doc) => doc.id)).toEqual([annDoc]);
    expect((await list(bob.browser)).map((doc) => doc.id)).toEqual([bobDoc]);
    // Others keep theirs.
    expect((await list(cid.browser)).map((doc) => doc.id)).toEqual([annDoc]);
  });

  it('deletes for the owner, and lets a collaborator leave instead', async () => {
    const ann = await person(server());
    const bob = await person(server());
    await connect(ann, bob);
    const kept = await create(ann.browser);
    const gone = await create(ann.browser);
    await share(ann, kept, [{ holder_type: 'user', holder_id: bob.user.id, rights: 'write' }]);
    await share(ann, gone, [{ holder_type: 'user', holder_id: bob.user.id, rights: 'write' }]);

    const left = await bob.browser.call(documentsApi.delete, { ids: [kept] });
    expect(left.json()).toEqual({ deleted: [], left: [kept] });
    expect((await list(bob.browser)).map((doc) => doc.id)).toEqual([gone]);
    expect((await list(ann.browser)).map((doc) => doc.id).sort()).toEqual([kept, gone].sort());

    const deleted = await ann.browser.call(documentsApi.delete, { ids: [gone] });
    expect(deleted.json()).toEqual({ deleted: [gone], left: [] });
    expect(await list(bob.browser)).toEqual([]);
    expect((await list(ann.browser)).map((doc) => doc.id)).toEqual([kept]);
  });

  it('copies into documents of the user, with the content and without the rights', async () => {
    const ann = await person(server());
    const bob = await person(server());
    await connect(ann, bob);
    const id = await create(ann.browser, { title: 'Original', path: '/a/' });
    await server()
      .ctx.db.updateTable('documents')
      .set({ content: '{"type":"doc","content":[{"type":"paragraph"}]}' })
      .where('id', '=', id)
      .execute();
    await share(ann, id, [{ holder_type: 'user', holder_id: bob.user.id, rights: 'read' }]);
    const copied = await bob.browser.call(documentsApi.copy, { ids: [id], path: 'mine' });
    const [copy] = copied.json<{ documents: DocumentEntry[] }>().documents;
    expect(copy).toMatchObject({
      title: 'Original',
      path: '/mine/',
      is_owner: true,
      owner: { id: bob.user.id },
    });
    const row = await server()
      .ctx.db.selectFrom('documents')
      .select('content')
      .where('id', '=', copy.id)
      .executeTakeFirstOrThrow();
    expect(row.content).toContain('paragraph');
    expect((await ann.browser.call(documentsApi.accessGet, { id: copy.id })).status).toBe(404);
    expect((await bob.browser.call(documentsApi.accessGet, { id: copy.id })).json()).toEqual({ access: [] });
  });
});
