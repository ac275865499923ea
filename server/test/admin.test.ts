import { ADMIN_ENDPOINTS, adminApi } from '@scriptorium/common/api/endpoints/admin';
import { baseApi, feedbackApi } from '@scriptorium/common/api/endpoints/base';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { afterEach, describe, expect, it } from 'vitest';
import { searchNames } from '../src/db/search-names';
import { ENGINES, formErrors, type TestClient, type TestUser, useServer } from './harness';
import { linkIn, useSmtpSink } from './smtp-sink';
import {
  baseSocketUrl,
  cookieHeader,
  eventually,
  nextAfterWelcome,
  openRaw,
  type RawSocket,
} from './ws-support';

/** Something each endpoint would accept from staff, so that only the policy decides. */
const PLAUSIBLE_INPUT: Record<string, unknown> = {
  id: 1,
  username: 'someone',
  email: 'someone@example.org',
  active: false,
  action: 'add',
  documents: 'delete',
  url: '/x/',
  title: 'X',
  content: '<p>x</p>',
  message: 'hello',
  done: true,
  support_email: '',
  provider_order: [],
  default_language: 'en',
};

type Log = { entries: { actor: string; action: string; target: string; details: Record<string, unknown> }[] };

describe.each(ENGINES)('staff administration (%s)', (engine) => {
  const sink = useSmtpSink();
  const server = useServer(engine, {
    env: () => ({ SMTP_URL: sink().url, MAIL_FROM: 'Scriptorium <noreply@scriptorium.example>' }),
  });
  const sockets: RawSocket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.socket.terminate();
  });

  let staffCounter = 0;
  async function staffBrowser(): Promise<{ staff: TestUser; browser: TestClient }> {
    staffCounter += 1;
    const { user, browser } = await server().loggedInUser({
      username: `staff${staffCounter}_${engine}`,
      isStaff: true,
    });
    return { staff: user, browser };
  }

  async function subscribedSocket(client: TestClient, path = '/ws/base/'): Promise<RawSocket> {
    const url = `${baseSocketUrl(server().baseUrl).replace('/ws/base/', '')}${path}`;
    const socket = await openRaw(url, { cookie: cookieHeader(client), origin: server().baseUrl });
    sockets.push(socket);
    expect((await socket.next()).type).toBe('welcome');
    socket.send({ type: 'subscribe', c: 1, s: 1 });
    expect((await nextAfterWelcome(socket)).type).toBe('subscribed');
    return socket;
  }

  async function nextOfType(socket: RawSocket, type: string): Promise<Record<string, unknown>> {
    for (;;) {
      const frame = await socket.next();
      if (frame.type === type) return frame;
    }
  }

  async function log(browser: TestClient): Promise<Log> {
    const response = await browser.call(adminApi.log, { page: 1 });
    expect(response.status).toBe(200);
    return response.json<Log>();
  }

  /**
   * Many accounts at once, written straight into the tables (buildUser hashes a password per user:
   * far too slow for hundreds): username, names, and an address when given.
   */
  async function seedUsers(
    count: number,
    make: (index: number) => { username: string; first_name: string; last_name: string; email?: string },
  ): Promise<string[]> {
    const people = Array.from({ length: count }, (_, index) => make(index));
    const { db } = server().ctx;
    for (let from = 0; from < count; from += 200) {
      const batch = people.slice(from, from + 200);
      const inserted = await db
        .insertInto('users')
        .values(
          batch.map((person) => ({
            username: person.username,
            username_lower: person.username.toLowerCase(),
            first_name: person.first_name,
            last_name: person.last_name,
            ...searchNames(person.first_name, person.last_name),
            password_hash: null,
            is_staff: 0,
            is_active: 1,
            language: null,
            avatar: null,
            created_at: Date.now(),
          })),
        )
        .returning('id')
        .execute();
      const addresses = batch.flatMap((person, index) =>
        person.email
          ? [
              {
                user_id: inserted[index].id,
                address: person.email,
                address_lower: person.email.toLowerCase(),
                is_primary: 1,
                verified: 1,
              },
            ]
          : [],
      );
      if (addresses.length > 0) await db.insertInto('user_emails').values(addresses).execute();
    }
    return people.map((person) => person.username);
  }

  it('answers 404 to visitors and to users who are not staff, on every admin call', async () => {
    const visitor = server().client();
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    for (const target of ADMIN_ENDPOINTS) {
      for (const client of [visitor, browser]) {
        const response = await client.call(target, PLAUSIBLE_INPUT);
        expect(response.status, `${target.method} ${target.path}`).toBe(404);
      }
    }
    const rows = await server().ctx.db.selectFrom('audit_log').select('id').execute();
    expect(rows).toEqual([]);
  });

  it('refuses a staff change without the CSRF header', async () => {
    const { browser } = await staffBrowser();
    const response = await browser.call(adminApi.sendSystemMessage, { message: 'no token' }, { csrf: false });
    expect(response.status).toBe(403);
  });

  it('searches users by a prefix of username, address or name, and pages them', async () => {
    const { browser } = await staffBrowser();
    await seedUsers(55, (index) => ({
      username: `pager${engine}${String(index).padStart(2, '0')}`,
      email: `p${index}@pager-${engine}.example`,
      first_name: 'Paula',
      last_name: `Zweig${index}`,
    }));
    await server().buildUser({ username: `ada_${engine}`, firstName: 'Ada', lastName: 'Lovelace' });

    const first = (await browser.call(adminApi.users, { q: `pager${engine}`, page: 1 })).json<{
      users: { username: string }[];
      total: number;
      page_size: number;
    }>();
    expect(first.total).toBe(55);
    expect(first.users).toHaveLength(first.page_size);
    expect(first.users[0].username).toBe(`pager${engine}00`);
    const second = (await browser.call(adminApi.users, { q: `pager${engine}`, page: 2 })).json<{
      users: { username: string }[];
    }>();
    expect(second.users.map((u) => u.username)).toEqual(
      [50, 51, 52, 53, 54].map((index) => `pager${engine}${index}`),
    );

    const byAddress = (await browser.call(adminApi.users, { q: `p7@pager-${engine}` })).json<{
      users: { username: string; emails: { address: string }[] }[];
    }>();
    expect(byAddress.users.map((u) => u.username)).toEqual([`pager${engine}07`]);
    const byFullName = (await browser.call(adminApi.users, { q: 'ada love' })).json<{
      users: { username: string }[];
    }>();
    expect(byFullName.users.map((u) => u.username)).toEqual([`ada_${engine}`]);
    const byLastName = (await browser.call(adminApi.users, { q: 'LOVELACE' })).json<{ total: number }>();
    expect(byLastName.total).toBe(1);
    // A LIKE wildcard is a character like any other.
    expect((await browser.call(adminApi.users, { q: '%' })).json<{ total: number }>().total).toBe(0);
    const staffOnly = (await browser.call(adminApi.users, { filter: 'staff' })).json<{
      users: { is_staff: boolean }[];
    }>();
    expect(staffOnly.users.length).toBeGreaterThan(0);
    expect(staffOnly.users.every((u) => u.is_staff)).toBe(true);
  });

  it('finds names in any script, and pages a term that matches more users than it counts', async () => {
    const { browser } = await staffBrowser();
    type Page = { users: { username: string; last_name: string }[]; total: number; capped: boolean };
    const search = async (q: string, page = 1) =>
      (await browser.call(adminApi.users, { q, page })).json<Page>();

    const emilie = await server().buildUser({
      username: `emilie_${engine}`,
      firstName: 'Émilie',
      lastName: 'Du Châtelet',
    });
    expect((await search('ÉMILIE DU CH')).users.map((u) => u.username)).toEqual([emilie.username]);
    expect((await search('du châ')).users.map((u) => u.username)).toEqual([emilie.username]);
    // Accents are ignored: typed without them, the name is found all the same.
    expect((await search('emilie du chat')).users.map((u) => u.username)).toEqual([emilie.username]);
    expect((await search('DU CHATELET')).users.map((u) => u.username)).toEqual([emilie.username]);
    // A changed name is found by its new spelling, whether staff or its owner changed it.
    const owner = await server().loginAs(emilie);
    const saved = await owner.call(userApi.saveProfile, {
      form_data: { user: { username: emilie.username, first_name: 'Ödön', last_name: 'Élan' } },
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await search('ödön él')).users.map((u) => u.username)).toEqual([emilie.username]);
    const grace = await server().buildUser({
      username: `grace_${engine}`,
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    await browser.call(adminApi.updateUser, {
      id: grace.id,
      username: grace.username,
      first_name: 'Grâce',
      last_name: 'Ørsted',
      is_staff: false,
    });
    expect((await search('ørst')).users.map((u) => u.username)).toEqual([grace.username]);

    // 1,100 users named Žofia: more than the search counts, so it walks the table in username order.
    const zofias = await seedUsers(1_100, (index) => ({
      username: `zofia${engine}${String(index).padStart(4, '0')}`,
      first_name: 'Žofia',
      last_name: `Nováková${index}`,
    }));
    const first = await search('žofia');
    expect(first).toMatchObject({ total: 1000, capped: true });
    expect(first.users.map((u) => u.username)).toEqual(zofias.slice(0, 50));
    const third = await search('ŽOFIA N', 3);
    expect(third.users.map((u) => u.username)).toEqual(zofias.slice(100, 150));
    // A narrow term among them is counted exactly.
    expect(await search(`zofia${engine}000`)).toMatchObject({ total: 10, capped: false });
  });

  it('creates a user without a password and mails a link to set one', async () => {
    const { staff, browser } = await staffBrowser();
    const before = sink().messages.length;
    const response = await browser.call(adminApi.createUser, {
      username: `newbie_${engine}`,
      email: `newbie_${engine}@example.org`,
      first_name: 'New',
      last_name: 'Bie',
    });
    expect(response.status, response.text).toBe(200);
    const { user } = response.json<{ user: { id: number; is_staff: boolean; last_login: null } }>();
    expect(user.is_staff).toBe(false);
    expect(user.last_login).toBeNull();
    const mail = (await sink().waitFor(before + 1))[before];
    expect(mail.to).toEqual([`newbie_${engine}@example.org`]);
    expect(mail.header('subject')).toMatch(/^Your account at /);
    const key = linkIn(mail.raw, '/account/change-password/');

    // The link sets the first password, and the new user can log in with it.
    const owner = server().client();
    const reset = await owner.call(userApi.passwordResetSet, {
      key,
      password1: 'a brand new passphrase',
      password2: 'a brand new passphrase',
    });
    expect(reset.status, reset.text).toBe(200);
    const login = await owner.call(userApi.login, {
      login: `newbie_${engine}`,
      password: 'a brand new passphrase',
    });
    expect(login.status).toBe(200);

    const taken = await browser.call(adminApi.createUser, {
      username: `NEWBIE_${engine}`,
      email: 'other@example.org',
    });
    expect(taken.status).toBe(400);
    expect(taken.json()).toEqual(formErrors({ username: ['This username is already taken.'] }));
    const entry = (await log(browser)).entries.find((e) => e.action === 'user.create');
    expect(entry).toMatchObject({ actor: staff.username, target: `newbie_${engine}` });
  });

  it('edits a user, makes them staff, and keeps staff from removing their own flag', async () => {
    const { staff, browser } = await staffBrowser();
    const user = await server().buildUser();
    const response = await browser.call(adminApi.updateUser, {
      id: user.id,
      username: `${user.username}x`,
      first_name: 'Grace',
      last_name: 'Hopper',
      is_staff: true,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json()).toMatchObject({
      user: { username: `${user.username}x`, first_name: 'Grace', last_name: 'Hopper', is_staff: true },
    });
    const own = await browser.call(adminApi.updateUser, {
      id: staff.id,
      username: staff.username,
      first_name: '',
      last_name: '',
      is_staff: false,
    });
    expect(own.status).toBe(400);
    expect(own.json()).toEqual(formErrors({ is_staff: ['You cannot remove your own staff flag.'] }));
    const actions = (await log(browser)).entries.map((e) => `${e.action} ${e.target}`);
    expect(actions).toContain(`user.staff ${user.username}x`);
    expect(actions).toContain(`user.update ${user.username}x`);
  });

  it("changes a user's addresses: adds a confirmed one, makes it primary, removes the old one", async () => {
    const { browser } = await staffBrowser();
    const user = await server().buildUser();
    const other = await server().buildUser();
    const change = (action: string, email: string) =>
      browser.call(adminApi.userEmail, { id: user.id, action, email });
    type Answer = { user: { emails: { address: string; primary: boolean; verified: boolean }[] } };

    const added = await change('add', `New.${user.username}@Example.org`);
    expect(added.status, added.text).toBe(200);
    expect(added.json<Answer>().user.emails).toEqual([
      { address: user.email, primary: true, verified: true },
      { address: `New.${user.username}@Example.org`, primary: false, verified: true },
    ]);
    expect((await change('add', other.email)).json()).toEqual(
      formErrors({ email: ['This e-mail address belongs to another account.'] }),
    );
    expect((await change('add', user.email.toUpperCase())).json()).toEqual(
      formErrors({ email: ['This user has this address already.'] }),
    );
    expect((await change('remove', user.email)).json()).toEqual(
      formErrors({ email: ['The primary address stays. Make another address primary first.'] }),
    );
    // Another user's address is as unknown as a made-up one.
    expect((await change('primary', other.email)).status).toBe(404);

    const primary = await change('primary', `new.${user.username}@example.org`);
    expect(primary.json<Answer>().user.emails.find((email) => email.primary)?.address).toBe(
      `New.${user.username}@Example.org`,
    );
    const removed = await change('remove', user.email);
    expect(removed.json<Answer>().user.emails.map((email) => email.address)).toEqual([
      `New.${user.username}@Example.org`,
    ]);
    // The audit log names each change.
    const actions = (await log(browser)).entries.slice(0, 3).map((entry) => entry.action);
    expect(actions).toEqual(['user.email.remove', 'user.email.primary', 'user.email.add']);
  });

  it('deactivating ends the sessions and closes the sockets at once; nobody deactivates themselves', async () => {
    const { staff, browser } = await staffBrowser();
    const user = await server().buildUser();
    const userBrowser = await server().loginAs(user);
    const socket = await subscribedSocket(userBrowser);

    const response = await browser.call(adminApi.setUserActive, { id: user.id, active: false });
    expect(response.status, response.text).toBe(200);
    expect(response.json()).toMatchObject({ user: { is_active: false } });
    expect((await nextOfType(socket, 'access_denied')).type).toBe('access_denied');
    expect((await socket.closed).code).toBe(1008);
    const configuration = (await userBrowser.call(baseApi.configuration)).json<{ user: unknown }>();
    expect(configuration.user).toEqual({ is_authenticated: false });
    const again = await server()
      .client()
      .call(userApi.login, { login: user.username, password: user.password });
    expect(again.status).toBe(400);

    const self = await browser.call(adminApi.setUserActive, { id: staff.id, active: false });
    expect(self.status).toBe(400);
    expect(self.json()).toEqual(formErrors({}, ['You cannot deactivate your own account.']));

    const back = await browser.call(adminApi.setUserActive, { id: user.id, active: true });
    expect(back.json()).toMatchObject({ user: { is_active: true } });
    const actions = (await log(browser)).entries.map((e) => e.action);
    expect(actions.slice(0, 2)).toEqual(['user.activate', 'user.deactivate']);
  });

  it('deletes a user after saying what goes, giving the documents to another user', async () => {
    const { staff, browser } = await staffBrowser();
    const owner = await server().buildUser();
    const heir = await server().buildUser();
    const ownerBrowser = await server().loginAs(owner);
    const created = (await ownerBrowser.call(documentsApi.create, { title: 'Thesis' })).json<{
      id: number;
    }>();

    const summary = await browser.call(adminApi.deletionSummary, { id: owner.id });
    expect(summary.json()).toEqual({ documents: 1, images: 0, bibliography: 0, contacts: 0 });

    const unknown = await browser.call(adminApi.deleteUser, {
      id: owner.id,
      documents: 'transfer',
      transfer_to: 'nobody-by-this-name',
    });
    expect(unknown.status).toBe(400);
    const response = await browser.call(adminApi.deleteUser, {
      id: owner.id,
      documents: 'transfer',
      transfer_to: heir.username,
    });
    expect(response.status, response.text).toBe(200);
    const document = await server()
      .ctx.db.selectFrom('documents')
      .select('owner_id')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(document.owner_id).toBe(heir.id);
    expect(
      await server().ctx.db.selectFrom('users').select('id').where('id', '=', owner.id).executeTakeFirst(),
    ).toBeUndefined();

    const self = await browser.call(adminApi.deleteUser, { id: staff.id, documents: 'delete' });
    expect(self.status).toBe(400);
    const entry = (await log(browser)).entries.find((e) => e.action === 'user.delete');
    expect(entry).toMatchObject({
      target: owner.username,
      details: { documents: 1, documents_to: heir.username },
    });
  });

  it('resends confirmations of unconfirmed addresses and lifts a login lock', async () => {
    const { browser } = await staffBrowser();
    const user = await server().buildUser({ emailVerified: false });
    const before = sink().messages.length;
    const resent = await browser.call(adminApi.resendConfirmation, { id: user.id });
    expect(resent.json()).toEqual({ count: 1 });
    const mail = (await sink().waitFor(before + 1))[before];
    expect(mail.to).toEqual([user.email]);
    expect(mail.raw).toContain('/account/confirm-email/');

    await server()
      .ctx.db.insertInto('login_attempts')
      .values({
        scope: `account:${user.id}@address:203.0.113.9`,
        failures: 5,
        last_failure_at: Date.now(),
        locked_until: Date.now() + 3_600_000,
      })
      .execute();
    const listed = (await browser.call(adminApi.users, { q: user.username })).json<{
      users: { locked: boolean }[];
    }>();
    expect(listed.users[0].locked).toBe(true);
    const reset = await browser.call(adminApi.resetLockout, { id: user.id });
    expect(reset.json()).toMatchObject({ user: { locked: false } });
    const left = await server()
      .ctx.db.selectFrom('login_attempts')
      .select('scope')
      .where('scope', 'like', `account:${user.id}@%`)
      .execute();
    expect(left).toEqual([]);
  });

  it('saves flat pages sanitised, previews them, and keeps terms and privacy', async () => {
    const { browser } = await staffBrowser();
    const html =
      '<h2>About</h2><p onclick="steal()">Hi <a href="javascript:alert(1)">x</a></p><script>alert(1)</script>';
    const preview = await browser.call(adminApi.previewFlatpage, { content: html });
    expect(preview.json()).toEqual({ content: '<h2>About</h2><p>Hi <a>x</a></p>' });
    const saved = await browser.call(adminApi.saveFlatpage, {
      url: `about-${engine}`,
      title: 'About us',
      content: html,
    });
    expect(saved.status, saved.text).toBe(200);
    const page = saved.json<{ page: { id: number; url: string; content: string } }>().page;
    expect(page).toMatchObject({ url: `/about-${engine}/`, content: '<h2>About</h2><p>Hi <a>x</a></p>' });
    const shown = await server()
      .client()
      .call(baseApi.flatpage, { url: `/about-${engine}/` });
    expect(shown.json()).toEqual({ title: 'About us', content: '<h2>About</h2><p>Hi <a>x</a></p>' });

    const list = (await browser.call(adminApi.flatpages)).json<{
      pages: { url: string; seeded: boolean; id: number }[];
    }>();
    const terms = list.pages.find((p) => p.url === '/terms/');
    expect(terms?.seeded).toBe(true);
    const clash = await browser.call(adminApi.saveFlatpage, {
      id: page.id,
      url: '/terms/',
      title: 'T',
      content: '',
    });
    expect(clash.status).toBe(400);
    expect((await browser.call(adminApi.deleteFlatpage, { id: terms?.id })).status).toBe(400);
    expect((await browser.call(adminApi.deleteFlatpage, { id: page.id })).status).toBe(200);
    const actions = (await log(browser)).entries.map((e) => `${e.action} ${e.target}`);
    expect(actions.slice(0, 2)).toEqual([
      `flatpage.delete /about-${engine}/`,
      `flatpage.create /about-${engine}/`,
    ]);
  });

  it('sends a system message to connected users and lists who is connected with their documents', async () => {
    const { browser } = await staffBrowser();
    const user = await server().buildUser({ firstName: 'Lise', lastName: 'Meitner' });
    const userBrowser = await server().loginAs(user);
    const created = (await userBrowser.call(documentsApi.create, { title: 'Fission' })).json<{
      id: number;
    }>();
    const base = await subscribedSocket(userBrowser);
    await subscribedSocket(userBrowser, `/ws/document/${created.id}/`);

    const presence = await eventually(
      async () =>
        (await browser.call(adminApi.presence)).json<{
          users: { username: string; name: string; documents: { id: number; title: string }[] }[];
        }>(),
      (value) => value.users.some((u) => u.username === user.username && u.documents.length === 1),
      'the user and the open document in the presence list',
    );
    expect(presence.users.find((u) => u.username === user.username)).toMatchObject({
      name: 'Lise Meitner',
      documents: [{ id: created.id, title: 'Fission' }],
    });

    const sent = await browser.call(adminApi.sendSystemMessage, { message: 'Maintenance at 18:00' });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json()).toEqual({ processes: 1 });
    expect(await nextOfType(base, 'system_message')).toMatchObject({ message: 'Maintenance at 18:00' });
    const entry = (await log(browser)).entries[0];
    expect(entry).toMatchObject({
      action: 'system_message.send',
      details: { message: 'Maintenance at 18:00' },
    });
  });

  it('lists feedback and marks it done', async () => {
    const { browser } = await staffBrowser();
    const user = await server().buildUser();
    const userBrowser = await server().loginAs(user);
    await userBrowser.call(feedbackApi.send, { message: `The export hangs (${engine})` });
    const open = (await browser.call(adminApi.feedback, { filter: 'open' })).json<{
      items: { id: number; message: string; username: string | null; email: string | null }[];
    }>();
    const item = open.items.find((i) => i.message === `The export hangs (${engine})`);
    expect(item).toMatchObject({ username: user.username, email: user.email });
    expect((await browser.call(adminApi.setFeedbackDone, { id: item?.id, done: true })).status).toBe(200);
    const stillOpen = (await browser.call(adminApi.feedback, { filter: 'open' })).json<{
      items: { id: number }[];
    }>();
    expect(stillOpen.items.map((i) => i.id)).not.toContain(item?.id);
    const done = (await browser.call(adminApi.feedback, { filter: 'done' })).json<{
      items: { id: number; done: number | null }[];
    }>();
    expect(done.items.find((i) => i.id === item?.id)?.done).toEqual(expect.any(Number));
    expect((await log(browser)).entries[0]).toMatchObject({
      action: 'feedback.done',
      target: `#${item?.id}`,
    });
  });

  it('keeps site settings in the database and applies them to the configuration', async () => {
    const { browser } = await staffBrowser();
    const bad = await browser.call(adminApi.saveSettings, {
      support_email: 'not an address',
      provider_order: [],
      default_language: 'de',
    });
    expect(bad.status).toBe(400);
    const saved = await browser.call(adminApi.saveSettings, {
      support_email: 'help@university.example',
      provider_order: ['unknown'],
      default_language: 'de',
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json()).toMatchObject({
      settings: { support_email: 'help@university.example', provider_order: [], default_language: 'de' },
    });
    const visitor = server().client({ 'accept-language': 'ja' });
    const configuration = (await visitor.call(baseApi.configuration)).json<{
      contact_email: string;
      language: string;
    }>();
    expect(configuration).toMatchObject({ contact_email: 'help@university.example', language: 'de' });
    const english = server().client({ 'accept-language': 'en-GB,en;q=0.9' });
    expect((await english.call(baseApi.configuration)).json<{ language: string }>().language).toBe('en');
    // Server-rendered answers follow it too, e.g. the sample terms page.
    const terms = async (client: typeof visitor) =>
      (await client.call(baseApi.flatpage, { url: '/terms/' })).json<{ title: string }>().title;
    expect(await terms(visitor)).toBe('Nutzungsbedingungen');
    expect(await terms(english)).toBe('Terms and Conditions');
    expect((await log(browser)).entries[0]).toMatchObject({
      action: 'settings.update',
      details: { support_email: ['', 'help@university.example'], default_language: ['en', 'de'] },
    });
    await browser.call(adminApi.saveSettings, {
      support_email: '',
      provider_order: [],
      default_language: 'en',
    });
  });
});

describe.each(ENGINES)('the last staff account (%s)', (engine) => {
  const server = useServer(engine);

  it('survives two staff members deactivating each other at the same moment', async () => {
    const ada = await server().buildUser({ username: `ada_${engine}`, isStaff: true });
    const bob = await server().buildUser({ username: `bob_${engine}`, isStaff: true });
    const [adaBrowser, bobBrowser] = [await server().loginAs(ada), await server().loginAs(bob)];
    const answers = await Promise.all([
      adaBrowser.call(adminApi.setUserActive, { id: bob.id, active: false }),
      bobBrowser.call(adminApi.setUserActive, { id: ada.id, active: false }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    // One wins; the other finds the last active staff account (or has just lost its session).
    expect(statuses[0]).toBe(200);
    expect([400, 404]).toContain(statuses[1]);
    const active = await server()
      .ctx.db.selectFrom('users')
      .select('username')
      .where('is_staff', '=', 1)
      .where('is_active', '=', 1)
      .execute();
    expect(active).toHaveLength(1);
    const survivor = active[0].username === ada.username ? adaBrowser : bobBrowser;
    const loser = active[0].username === ada.username ? bob : ada;
    // The survivor cannot make the loser's old role vanish twice, nor remove their own flag.
    const self = active[0].username === ada.username ? ada : bob;
    const own = await survivor.call(adminApi.updateUser, {
      id: self.id,
      username: self.username,
      is_staff: false,
    });
    expect(own.status).toBe(400);
    expect((await survivor.call(adminApi.setUserActive, { id: loser.id, active: true })).status).toBe(200);
  });
});
