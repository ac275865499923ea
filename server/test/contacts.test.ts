import type { Contact } from '@scriptorium/common/api/contacts';
import type { Endpoint } from '@scriptorium/common/api/endpoint';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { describe, expect, it } from 'vitest';
import { runManage } from '../src/cli/run-manage';
import { claimPendingInvitesForEmail } from '../src/modules/contacts/commands/claim-invites';
import { registerContactRemovedHook } from '../src/modules/contacts/hooks';
import { ENGINES, type TestClient, type TestServer, type TestUser, useServer } from './harness';
import { insertSharedDocument } from './seed';
import { type ReceivedMail, useSmtpSink } from './smtp-sink';

const SPEC_ERRORS = {
  1: 'You cannot add yourself to your contacts!',
  2: 'This person is already in your contacts!',
  3: 'Invalid email!',
} as const;

interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** RFC 2047 encoded words ("=?UTF-8?B?...?="), joined byte-wise because a character may span two. */
function decodeHeader(value: string): string {
  const words = [...value.matchAll(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi)];
  if (words.length === 0) return value;
  const bytes = words.map(([, kind, data]) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16))),
          'latin1',
        ),
  );
  return Buffer.concat(bytes).toString('utf8');
}

function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A mail as the SMTP sink received it, with the subject and a single text part decoded. */
function parseMail(mail: ReceivedMail): Mail {
  const raw = mail.raw.replace(/\r\n/g, '\n');
  const split = raw.indexOf('\n\n');
  const head = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const body = raw.slice(split + 2);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1] ?? '';
  const text = /quoted-printable/i.test(header('Content-Transfer-Encoding'))
    ? decodeQuotedPrintable(body)
    : body;
  return { to: mail.to.join(', '), subject: decodeHeader(header('Subject')), text };
}

async function list(browser: TestClient): Promise<Contact[]> {
  const response = await browser.call(contactsApi.list);
  expect(response.status, response.text).toBe(200);
  return response.json<{ contacts: Contact[] }>().contacts;
}

async function invite(browser: TestClient, userString: string) {
  return browser.call(contactsApi.invite, { user_string: userString });
}

async function waitingInvites(browser: TestClient): Promise<boolean> {
  const response = await browser.call(baseApi.configuration);
  return response.json<{ user: { waiting_invites: boolean } }>().user.waiting_invites;
}

function fullName(user: TestUser): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.username;
}

describe.each(ENGINES)('contacts and invites (%s)', (engine) => {
  // Mail goes through real SMTP into a sink; each mail has arrived when the API call answers.
  const sink = useSmtpSink();
  const server = useServer(engine, { env: () => ({ SMTP_URL: sink().url }) });

  function mailsTo(address: string): Mail[] {
    return sink()
      .messages.filter((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()))
      .map(parseMail);
  }

  /** Raw messages with quoted-printable soft line breaks undone: enough to find a link in any part. */
  function rawMails(): string[] {
    return sink().messages.map((mail) => mail.raw.replace(/=\r?\n/g, ''));
  }

  const person = (overrides: Parameters<TestServer['buildUser']>[0] = {}) =>
    server().loggedInUser({
      firstName: 'Ada',
      lastName: `L${Math.random().toString(36).slice(2, 7)}`,
      ...overrides,
    });

  /** A and B as connected contacts, the way users get there. */
  async function connectedPair() {
    const a = await person();
    const b = await person();
    const sent = await invite(a.browser, b.user.username);
    expect(sent.status).toBe(201);
    const [received] = await list(b.browser);
    const accepted = await b.browser.call(contactsApi.accept, {
      invites: [{ id: received.id }],
    });
    expect(accepted.status, accepted.text).toBe(200);
    return { a, b };
  }

  it('asks for a login on every contacts call', async () => {
    const visitor = server().client();
    const calls: Array<[Endpoint, Record<string, unknown>]> = [
      [contactsApi.list, {}],
      [contactsApi.invite, { user_string: 'x' }],
      [contactsApi.accept, { invites: [{ id: 1 }] }],
      [contactsApi.decline, { invites: [{ id: 1 }] }],
      [contactsApi.delete, { contacts: [{ id: 1, type: 'user' }] }],
      [contactsApi.claim, { key: 'abc' }],
    ];
    for (const [target, form] of calls) {
      expect((await visitor.call(target, form)).status, target.path).toBe(401);
    }
  });

  it('starts with an empty list and no waiting invites', async () => {
    const { browser } = await person();
    expect(await list(browser)).toEqual([]);
    expect(await waitingInvites(browser)).toBe(false);
  });

  it('invites by username: a sent invite for me, a received one for them, and a mail in their language', async () => {
    const a = await person();
    const b = await person({ language: 'de' });
    const response = await invite(a.browser, b.user.username.toUpperCase());
    expect(response.status).toBe(201);
    const { contact } = response.json<{ contact: Contact }>();
    // The invitee's address is not revealed before they agree.
    expect(contact).toEqual({
      id: expect.any(Number),
      type: 'userinvite',
      name: fullName(b.user),
      email: '',
    });
    expect(await list(a.browser)).toEqual([contact]);

    expect(await list(b.browser)).toEqual([
      { id: contact.id, type: 'to_userinvite', name: fullName(a.user), email: a.user.email },
    ]);
    expect(await waitingInvites(b.browser)).toBe(true);
    expect(await waitingInvites(a.browser)).toBe(false);

    const [mail] = mailsTo(b.user.email);
    expect(mail.subject).toMatch(
      new RegExp(`^${fullName(a.user)} lädt Sie ein, auf .+ gemeinsam zu schreiben$`),
    );
    expect(mail.text).toContain(`${fullName(a.user)} (${a.user.email})`);
    expect(mail.text).toContain('/user/contacts/');
  });

  it('invites an existing user by their verified address and shows only the typed address', async () => {
    const a = await person();
    const b = await person();
    const typed = b.user.email.toUpperCase();
    const response = await invite(a.browser, typed);
    expect(response.status).toBe(201);
    // Issue 50: the same answer as for an address without an account, so it tells nobody which
    // addresses are registered; the owner hears of the invite by mail instead.
    const { contact } = response.json<{ contact: Contact }>();
    expect(contact).toEqual({ id: expect.any(Number), type: 'userinvite', name: typed, email: typed });
    const unknown = `nobody-${b.user.id}@example.net`;
    const other = await invite(a.browser, unknown);
    expect(other.status).toBe(201);
    expect(other.json<{ contact: Contact }>().contact).toEqual({
      id: expect.any(Number),
      type: 'userinvite',
      name: unknown,
      email: unknown,
    });
    expect((await list(a.browser)).find((row) => row.id === contact.id)).toEqual(contact);
    expect((await list(b.browser)).map((c) => c.type)).toEqual(['to_userinvite']);
    expect(mailsTo(b.user.email)).toHaveLength(1);
  });

  it('answers error 1 for yourself, by username or by any of your addresses', async () => {
    const a = await person();
    for (const userString of [a.user.username, a.user.email.toUpperCase()]) {
      const response = await invite(a.browser, userString);
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({ error: 1, message: SPEC_ERRORS[1] });
    }
    expect(await list(a.browser)).toEqual([]);
  });

  it('answers error 2 for a second invite, a contact, or an address invited before', async () => {
    const a = await person();
    const b = await person();
    expect((await invite(a.browser, b.user.username)).status).toBe(201);
    const again = await invite(a.browser, b.user.username);
    expect(again.status).toBe(409);
    expect(again.json()).toEqual({ error: 2, message: SPEC_ERRORS[2] });
    expect((await invite(a.browser, b.user.email)).json()).toMatchObject({ error: 2 });

    const pair = await connectedPair();
    expect((await invite(pair.a.browser, pair.b.user.username)).json()).toEqual({
      error: 2,
      message: SPEC_ERRORS[2],
    });
    expect((await invite(pair.b.browser, pair.a.user.email)).json()).toMatchObject({ error: 2 });

    expect((await invite(a.browser, 'Someone@Elsewhere.example')).status).toBe(201);
    const sameAddress = await invite(a.browser, 'someone@elsewhere.example');
    expect(sameAddress.status).toBe(409);
    expect(sameAddress.json()).toMatchObject({ error: 2 });
  });

  it('answers error 3 for an unknown username or a broken address, in the user language', async () => {
    const a = await person();
    for (const userString of ['nobody_by_this_name', 'broken@', 'two@@example.org']) {
      const response = await invite(a.browser, userString);
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({ error: 3, message: SPEC_ERRORS[3] });
    }
    const german = await person({ language: 'de' });
    expect((await invite(german.browser, 'nobody_by_this_name')).json()).toEqual({
      error: 3,
      message: 'Ungültige E-Mail-Adresse!',
    });
    const blank = await invite(a.browser, '   ');
    expect(blank.status).toBe(400);
    expect(blank.json()).toEqual({
      form: { errors: [], fields: { user_string: { errors: ['This field is required.'] } } },
    });
  });

  it('accepts: both become contacts, the invite leaves both lists and the inviter gets a mail', async () => {
    const a = await person({ language: 'fr' });
    const b = await person();
    await invite(a.browser, b.user.username);
    const [received] = await list(b.browser);
    const response = await b.browser.call(contactsApi.accept, {
      invites: [received],
    });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({
      contacts: [{ id: a.user.id, type: 'user', name: fullName(a.user), email: a.user.email }],
    });
    expect(await list(b.browser)).toEqual([
      { id: a.user.id, type: 'user', name: fullName(a.user), email: a.user.email },
    ]);
    expect(await list(a.browser)).toEqual([
      { id: b.user.id, type: 'user', name: fullName(b.user), email: b.user.email },
    ]);
    expect(await waitingInvites(b.browser)).toBe(false);
    const [mail] = mailsTo(a.user.email);
    expect(mail.subject).toBe(`${fullName(b.user)} a accepté votre invitation`);
  });

  it('declines: the invite is removed on both sides and the inviter is told', async () => {
    const a = await person();
    const b = await person();
    await invite(a.browser, b.user.username);
    const [received] = await list(b.browser);
    const response = await b.browser.call(contactsApi.decline, {
      invites: [{ id: received.id }],
    });
    expect(response.status).toBe(200);
    expect(await list(a.browser)).toEqual([]);
    expect(await list(b.browser)).toEqual([]);
    expect(mailsTo(a.user.email).map((m) => m.subject)).toEqual([
      `${fullName(b.user)} has declined your invitation`,
    ]);
  });

  it('connects at once when you invite someone who has already invited you', async () => {
    const a = await person();
    const b = await person();
    await invite(a.browser, b.user.username);
    const back = await invite(b.browser, a.user.username);
    expect(back.status).toBe(201);
    expect(back.json()).toEqual({
      contact: { id: a.user.id, type: 'user', name: fullName(a.user), email: a.user.email },
    });
    expect((await list(a.browser)).map((c) => [c.type, c.id])).toEqual([['user', b.user.id]]);
  });

  it('invites an address without an account: a pending invite, a mail with a link that a logged-in user claims once', async () => {
    const a = await person();
    const address = `newcomer-${engine}@example.net`;
    const response = await invite(a.browser, address);
    expect(response.status).toBe(201);
    const { contact } = response.json<{ contact: Contact }>();
    expect(contact).toEqual({ id: expect.any(Number), type: 'userinvite', name: address, email: address });

    const [mail] = mailsTo(address);
    expect(mail.subject).toMatch(new RegExp(`^${fullName(a.user)} invites you to write together on `));
    const link = /https?:\/\/\S+\/invite\/(\S+)/.exec(mail.text);
    expect(link).not.toBeNull();
    const key = decodeURIComponent(link?.[1] ?? '');

    // The inviter opening their own link changes nothing.
    expect((await a.browser.call(contactsApi.claim, { key })).json()).toEqual({ redirect: '/' });

    const b = await person();
    expect((await b.browser.call(contactsApi.claim, { key })).json()).toEqual({
      redirect: '/user/contacts/',
    });
    expect(await list(b.browser)).toEqual([
      { id: contact.id, type: 'to_userinvite', name: fullName(a.user), email: a.user.email },
    ]);
    // A's list still shows only the address A typed until B answers (issue 50).
    expect(await list(a.browser)).toEqual([contact]);

    // A claimed key and an unknown key lead home with no effect.
    const c = await person();
    expect((await c.browser.call(contactsApi.claim, { key })).json()).toEqual({ redirect: '/' });
    expect((await c.browser.call(contactsApi.claim, { key: 'no-such-key' })).json()).toEqual({
      redirect: '/',
    });
    expect(await list(c.browser)).toEqual([]);
  });

  it('drops a claimed link that would duplicate an existing connection', async () => {
    const { a, b } = await connectedPair();
    await invite(a.browser, `other-address-${engine}@example.net`);
    const key = /\/invite\/(\S+)/.exec(mailsTo(`other-address-${engine}@example.net`)[0].text)?.[1] ?? '';
    expect((await b.browser.call(contactsApi.claim, { key })).json()).toEqual({
      redirect: '/user/contacts/',
    });
    expect((await list(a.browser)).map((c) => c.type)).toEqual(['user']);
    expect((await list(b.browser)).map((c) => c.type)).toEqual(['user']);
  });

  it('hands pending invites to the owner once the address is verified, never before', async () => {
    const a = await person();
    const b = await person();
    const address = `later-${engine}@example.net`;
    expect((await invite(a.browser, address)).status).toBe(201);

    // B adds the address: unverified, it does not name its owner, and a new invite waits like the first.
    expect((await b.browser.call(userApi.addEmail, { email: address })).status).toBe(200);
    const second = await person();
    const pending = await invite(second.browser, address);
    expect(pending.status).toBe(201);
    expect(pending.json<{ contact: Contact }>().contact).toMatchObject({ type: 'userinvite', name: address });
    expect(await list(b.browser)).toEqual([]);
    expect(await waitingInvites(b.browser)).toBe(false);

    // B confirms the address from the mail: both invites arrive.
    const raw = rawMails().find((text) => text.includes('/account/confirm-email/') && text.includes(address));
    const key = /\/account\/confirm-email\/([A-Za-z0-9_-]+)/.exec(raw ?? '')?.[1];
    expect(key).toBeDefined();
    expect((await b.browser.call(userApi.confirmEmail, { key })).status).toBe(200);
    expect((await list(b.browser)).map((c) => [c.type, c.name]).sort()).toEqual(
      [
        ['to_userinvite', fullName(a.user)],
        ['to_userinvite', fullName(second.user)],
      ].sort(),
    );
    expect(await waitingInvites(b.browser)).toBe(true);
    // Still only the address A typed: the invite does not name the account before B answers.
    expect((await list(a.browser))[0]).toEqual({
      id: expect.any(Number),
      type: 'userinvite',
      name: address,
      email: address,
    });
    // Nothing is left to claim.
    expect(await claimPendingInvitesForEmail(server().ctx.db, b.user.id, address.toUpperCase())).toBe(0);
  });

  it('claims pending invites inside the caller transaction and drops your own', async () => {
    const a = await person();
    const b = await person();
    const address = `direct-${engine}@example.net`;
    await invite(a.browser, address);
    await invite(b.browser, address);
    const claimed = await server()
      .ctx.db.transaction()
      .execute((trx) => claimPendingInvitesForEmail(trx, b.user.id, address));
    expect(claimed).toBe(1);
    expect((await list(b.browser)).map((c) => c.type)).toEqual(['to_userinvite']);
  });

  it('connects at once when the claimer had invited the inviter', async () => {
    const a = await person();
    const b = await person();
    const address = `mutual-${engine}@example.net`;
    await invite(b.browser, a.user.username);
    await invite(a.browser, address);
    expect(await claimPendingInvitesForEmail(server().ctx.db, b.user.id, address)).toBe(0);
    expect(await list(a.browser)).toMatchObject([{ type: 'user', id: b.user.id }]);
    expect(await list(b.browser)).toMatchObject([{ type: 'user', id: a.user.id }]);
  });

  it('merges a second invite of the same person into the first, with its document rights', async () => {
    const a = await person();
    const b = await person();
    const address = `twice-${engine}@example.net`;
    const first = (await invite(a.browser, b.user.username)).json<{ contact: Contact }>().contact;
    const second = (await invite(a.browser, address)).json<{ contact: Contact }>().contact;
    const documentId = await insertSharedDocument(server().ctx.db, a.user.id, { inviteId: second.id });

    expect(await claimPendingInvitesForEmail(server().ctx.db, b.user.id, address)).toBe(0);
    expect((await list(a.browser)).map((c) => c.id)).toEqual([first.id]);
    const rights = await server()
      .ctx.db.selectFrom('document_access')
      .select(['invite_id', 'user_id'])
      .where('document_id', '=', documentId)
      .execute();
    expect(rights).toEqual([{ invite_id: first.id, user_id: null }]);

    // Accepting hands the right to the user.
    await b.browser.call(contactsApi.accept, { invites: [{ id: first.id }] });
    const after = await server()
      .ctx.db.selectFrom('document_access')
      .select(['invite_id', 'user_id'])
      .where('document_id', '=', documentId)
      .execute();
    expect(after).toEqual([{ invite_id: null, user_id: b.user.id }]);
  });

  it('hands pending invites to an account created later with the createuser command', async () => {
    const a = await person();
    const address = `cli-${engine}@example.net`;
    expect((await invite(a.browser, address)).status).toBe(201);
    const username = `cli_${engine}_${Date.now()}`;
    const out: string[] = [];
    const code = await runManage(
      ['createuser', '--username', username, '--email', address, '--password', 'a long enough password'],
      { env: { ...server().env }, out: (line) => out.push(line), err: (line) => out.push(line) },
    );
    expect(code, out.join('\n')).toBe(0);
    const browser = server().client();
    expect(
      (await browser.call(userApi.login, { login: username, password: 'a long enough password' })).status,
    ).toBe(200);
    expect(await list(browser)).toMatchObject([{ type: 'to_userinvite', name: fullName(a.user) }]);
  });

  it('deletes a contact on both sides, running the removal hooks in the same transaction', async () => {
    const { a, b } = await connectedPair();
    const removed: Array<[number, number]> = [];
    registerContactRemovedHook('contacts-test', async (_trx, x, y) => {
      removed.push([x, y]);
    });
    try {
      const response = await a.browser.call(contactsApi.delete, {
        contacts: [{ id: b.user.id, type: 'user' }],
      });
      expect(response.status).toBe(200);
      expect(await list(a.browser)).toEqual([]);
      expect(await list(b.browser)).toEqual([]);
      expect(removed).toEqual([[a.user.id, b.user.id]]);
    } finally {
      registerContactRemovedHook('contacts-test', async () => undefined);
    }
  });

  it('keeps the connection when a removal hook fails', async () => {
    const { a, b } = await connectedPair();
    registerContactRemovedHook('contacts-test', async () => {
      throw new Error('document rights could not be removed');
    });
    try {
      const response = await a.browser.call(contactsApi.delete, {
        contacts: [{ id: b.user.id, type: 'user' }],
      });
      expect(response.status).toBe(500);
      expect((await list(a.browser)).map((c) => c.id)).toEqual([b.user.id]);
      expect((await list(b.browser)).map((c) => c.id)).toEqual([a.user.id]);
    } finally {
      registerContactRemovedHook('contacts-test', async () => undefined);
    }
  });

  it('shows the avatar where the person has one', async () => {
    const { a, b } = await connectedPair();
    await server()
      .ctx.db.updateTable('users')
      .set({ avatar: '7-avatar.png' })
      .where('id', '=', b.user.id)
      .execute();
    expect(await list(a.browser)).toEqual([
      {
        id: b.user.id,
        type: 'user',
        name: fullName(b.user),
        email: b.user.email,
        avatar: '/media/avatars/7-avatar.png',
      },
    ]);
    expect((await list(b.browser))[0]).not.toHaveProperty('avatar');
  });

  it('withdraws a sent invite and declines a received one through delete', async () => {
    const a = await person();
    const b = await person();
    const c = await person();
    const sent = (await invite(a.browser, b.user.username)).json<{ contact: Contact }>().contact;
    await invite(c.browser, a.user.username);
    const received = (await list(a.browser)).find((row) => row.type === 'to_userinvite');
    expect(received).toBeDefined();

    const response = await a.browser.call(contactsApi.delete, {
      contacts: [
        { id: sent.id, type: 'userinvite' },
        { id: received?.id, type: 'to_userinvite' },
      ],
    });
    expect(response.status).toBe(200);
    expect(await list(a.browser)).toEqual([]);
    expect(await list(b.browser)).toEqual([]);
    expect(await list(c.browser)).toEqual([]);
    expect(mailsTo(c.user.email).map((m) => m.subject)).toEqual([
      `${fullName(a.user)} has declined your invitation`,
    ]);
    // A withdrawn invite is not announced.
    expect(mailsTo(b.user.email)).toHaveLength(1);
  });

  it("answers 404 for every id from another user's list and changes nothing", async () => {
    const a = await person();
    const b = await person();
    const stranger = await person();
    const sent = (await invite(a.browser, b.user.username)).json<{ contact: Contact }>().contact;
    const pair = await connectedPair();

    const attempts: Array<[Endpoint, Record<string, unknown>]> = [
      [contactsApi.accept, { invites: [{ id: sent.id }] }],
      [contactsApi.decline, { invites: [{ id: sent.id }] }],
      [contactsApi.delete, { contacts: [{ id: sent.id, type: 'userinvite' }] }],
      [contactsApi.delete, { contacts: [{ id: sent.id, type: 'to_userinvite' }] }],
      [contactsApi.delete, { contacts: [{ id: pair.b.user.id, type: 'user' }] }],
      [contactsApi.delete, { contacts: [{ id: 999999, type: 'user' }] }],
    ];
    for (const [target, form] of attempts) {
      const response = await stranger.browser.call(target, form);
      expect(response.status, `${target.path} ${JSON.stringify(form)}`).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
    // The inviter cannot accept their own invite either: it is not in their list as received.
    expect((await a.browser.call(contactsApi.accept, { invites: [{ id: sent.id }] })).status).toBe(404);

    // A valid id next to a foreign one: all or nothing.
    await invite(stranger.browser, pair.a.user.username);
    const own = (await list(stranger.browser))[0];
    const mixed = await stranger.browser.call(contactsApi.delete, {
      contacts: [
        { id: own.id, type: 'userinvite' },
        { id: pair.b.user.id, type: 'user' },
      ],
    });
    expect(mixed.status).toBe(404);
    expect(await list(stranger.browser)).toEqual([own]);
    expect((await list(b.browser)).map((row) => row.id)).toEqual([sent.id]);
    expect((await list(pair.a.browser)).map((row) => row.type).sort()).toEqual(['to_userinvite', 'user']);
  });

  it('rejects malformed lists with a form error', async () => {
    const { browser } = await person();
    const broken = await browser.call(contactsApi.delete, { contacts: '[{' });
    expect(broken.status).toBe(400);
    expect(broken.json()).toEqual({
      form: { errors: [], fields: { contacts: { errors: ['This field must contain valid JSON.'] } } },
    });
    const badType = await browser.call(contactsApi.delete, {
      contacts: '[{"id":1,"type":"friend"}]',
    });
    expect(badType.status).toBe(400);
  });
});
