import path from 'node:path';
import { configuration } from '@scriptorium/common/api/base';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { baseApi, i18nApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { seedFlatpages } from '../src/modules/base/commands/seed-flatpages';
import { ENGINES, useServer } from './harness';
import { addEmailAddress } from './seed';

describe.each(ENGINES)('while the server starts or migrates (%s)', (engine) => {
  const server = useServer(engine, { ready: false });

  it('answers the configuration with 405 and other API calls with 503, then opens', async () => {
    const browser = server().client();
    const configurationLoad = await browser.call(baseApi.configuration);
    expect(configurationLoad.status).toBe(405);
    expect(configurationLoad.json()).toEqual({
      error: 'not_ready',
      message: 'The server is currently being updated. Please wait.',
    });
    const flatpage = await browser.call(baseApi.flatpage, { url: '/terms/' }, { csrf: false });
    expect(flatpage.status).toBe(503);
    // Any path under /api/ (the readiness prefix check), even one no descriptor names.
    expect((await browser.get('/api/anything/')).status).toBe(503);
    // The app shell is served meanwhile: it shows the update page and retries.
    expect((await browser.get('/documents/')).status).toBe(200);

    await server().becomeReady();
    const ready = await browser.call(baseApi.configuration);
    expect(ready.status).toBe(200);
    const page = await browser.call(baseApi.flatpage, { url: '/terms/' });
    expect(page.status).toBe(200);
  });
});

describe.each(ENGINES)('configuration (%s)', (engine) => {
  const server = useServer(engine, {
    env: { PLUGINS: 'books, templates', CONTACT_EMAIL: 'help@example.org' },
  });

  it('describes a visitor', async () => {
    const response = await server()
      .client({ 'accept-language': 'it-IT,it;q=0.9,en;q=0.5' })
      .call(baseApi.configuration);
    expect(response.status).toBe(200);
    const body = response.json();
    expect(configuration.parse(body)).toEqual(body);
    expect(body).toEqual({
      user: { is_authenticated: false },
      socialaccount_providers: [],
      ws_url_base: '/ws',
      language: 'it',
      contact_email: 'help@example.org',
      plugins: ['templates', 'books'],
    });
  });

  it('describes the logged-in user, with nothing more than the contract', async () => {
    const user = await server().buildUser({
      username: 'marie',
      firstName: 'Marie',
      lastName: 'Curie',
      email: 'Marie@Example.org',
    });
    await addEmailAddress(server().ctx.db, user.id, 'mc@lab.example', false);
    const browser = await server().loginAs(user);
    const body = (await browser.call(baseApi.configuration)).json();
    expect(configuration.parse(body)).toEqual(body);
    expect(body.user).toEqual({
      is_authenticated: true,
      id: user.id,
      username: 'marie',
      first_name: 'Marie',
      last_name: 'Curie',
      name: 'Marie Curie',
      avatar: null,
      emails: [
        { address: 'Marie@Example.org', primary: true, verified: true },
        { address: 'mc@lab.example', primary: false, verified: false },
      ],
      socialaccounts: [],
      waiting_invites: false,
      is_staff: false,
    });
    expect(JSON.stringify(body)).not.toContain('argon2');
  });

  it("follows every change of a logged-in user's configuration, here or by another process", async () => {
    const user = await server().buildUser({ username: 'kept', firstName: 'Ada', lastName: 'Lovelace' });
    const staff = await server().loginAs(await server().buildUser({ isStaff: true }));
    const browser = await server().loginAs(user);
    const read = async () =>
      (await browser.call(baseApi.configuration)).json<{
        user: { name: string; emails: { address: string }[] };
        language: string;
        contact_email: string | null;
      }>();
    expect((await read()).user.name).toBe('Ada Lovelace');
    expect((await read()).user.name).toBe('Ada Lovelace');

    // A change through the API.
    await browser.call(userApi.saveProfile, {
      form_data: { user: { username: 'kept', first_name: 'Augusta', last_name: 'Lovelace' } },
    });
    expect((await read()).user.name).toBe('Augusta Lovelace');
    // A write by another process: the manage CLI's own connection, on SQLite.
    if (engine === 'sqlite') {
      const other = new SQLite(path.join(server().ctx.config.dataDir, 'db.sqlite3'));
      other.prepare('update users set first_name = ? where id = ?').run('Ada', user.id);
      other.close();
    } else {
      await server()
        .ctx.db.updateTable('users')
        .set({ first_name: 'Ada' })
        .where('id', '=', user.id)
        .execute();
    }
    expect((await read()).user.name).toBe('Ada Lovelace');
    await addEmailAddress(server().ctx.db, user.id, 'ada@lab.example', false);
    expect((await read()).user.emails.map((email) => email.address)).toContain('ada@lab.example');
    // The language, and the site settings staff save.
    await browser.call(i18nApi.setLanguage, { language: 'de' });
    expect((await read()).language).toBe('de');
    const settings = { provider_order: [], default_language: 'en' };
    await staff.call(adminApi.saveSettings, { ...settings, support_email: 'desk@example.org' });
    expect((await read()).contact_email).toBe('desk@example.org');
    await staff.call(adminApi.saveSettings, { ...settings, support_email: '' });
    expect((await read()).contact_email).toBe('help@example.org');
  });

  it('names a user without first and last name by the username', async () => {
    const user = await server().buildUser({ username: 'plainname' });
    const body = (await (await server().loginAs(user)).call(baseApi.configuration)).json<{
      user: { name: string };
    }>();
    expect(body.user.name).toBe('plainname');
  });
});

describe.each(ENGINES)('flat pages (%s)', (engine) => {
  const server = useServer(engine);

  it('serves the seeded Terms and Privacy pages as sample texts, not an operator command', async () => {
    const browser = server().client();
    const terms = await browser.call(baseApi.flatpage, { url: '/terms/' });
    expect(terms.status).toBe(200);
    const page = terms.json<{ title: string; content: string }>();
    expect(page.title).toBe('Terms and Conditions');
    expect(page.content).toContain('<h2>Using Scriptorium</h2>');
    expect(page.content).toContain(
      '<p>These terms are a sample that the operator of this site adapts to its own service.</p>',
    );
    expect(page.content).not.toContain('npm run manage');
    const privacy = await browser.call(baseApi.flatpage, { url: 'privacy' });
    expect(privacy.status).toBe(200);
    expect(privacy.json()).toEqual({
      title: 'Privacy policy',
      content: expect.stringContaining('<h2>Cookies</h2>'),
    });
  });

  it("shows the seeded pages in the reader's language", async () => {
    const german = await server()
      .client({ 'accept-language': 'de' })
      .call(baseApi.flatpage, { url: '/terms/' });
    expect(german.json<{ title: string }>().title).toBe('Nutzungsbedingungen');
    expect(german.json<{ content: string }>().content).toContain('<h2>Scriptorium nutzen</h2>');
    const bulgarian = await server()
      .client({ 'accept-language': 'bg' })
      .call(baseApi.flatpage, { url: '/privacy/' });
    expect(bulgarian.json<{ title: string }>().title).toBe('Политика за поверителност');
    expect(bulgarian.json<{ content: string }>().content).toContain('<h2>Бисквитки</h2>');
  });

  it('turns the command placeholder of earlier versions into the sample text, and keeps written pages', async () => {
    const { db } = server().ctx;
    const old =
      '<p>This page has not been written yet. The operator of this site can replace it with the command: ' +
      'npm run manage -- flatpage --url /privacy/ --title &#34;Privacy policy&#34; --content-file page.html</p>';
    await db.updateTable('flatpages').set({ content: old }).where('url', '=', '/privacy/').execute();
    await db
      .updateTable('flatpages')
      .set({ content: '<p>Our own terms.</p>' })
      .where('url', '=', '/terms/')
      .execute();
    expect(await seedFlatpages({ db })).toEqual([]);
    const privacy = await server().client().call(baseApi.flatpage, { url: '/privacy/' });
    expect(privacy.json<{ content: string }>().content).toContain('<h2>Cookies</h2>');
    const terms = await server().client().call(baseApi.flatpage, { url: '/terms/' });
    expect(terms.json()).toEqual({ title: 'Terms and Conditions', content: '<p>Our own terms.</p>' });
  });

  it('answers a missing page with 404 JSON', async () => {
    const response = await server().client().call(baseApi.flatpage, { url: '/no-such-page/' });
    expect(response.status).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: 'The requested item was not found.' });
  });

  it('requires the url', async () => {
    const response = await server().client().call(baseApi.flatpage, {});
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      form: { errors: [], fields: { url: { errors: ['This field is required.'] } } },
    });
  });
});

describe.each(ENGINES)('language choice (%s)', (engine) => {
  const server = useServer(engine);

  it('stores a visitor choice in a cookie for a year', async () => {
    const browser = server().client({ 'accept-language': 'de' });
    const response = await browser.call(i18nApi.setLanguage, { language: 'pt-br' });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ language: 'pt-br' });
    const cookie = response.setCookies.find((c) => c.name === 'language');
    expect(cookie?.value).toBe('pt-br');
    expect(cookie?.attributes['max-age']).toBe(String(365 * 24 * 3600));
    // The cookie beats the browser's Accept-Language.
    const body = (await browser.call(baseApi.configuration)).json<{ language: string }>();
    expect(body.language).toBe('pt-br');
    const error = await browser.call(baseApi.flatpage, { url: '/nope/' });
    expect(error.json<{ message: string }>().message).toBe('O item solicitado não foi encontrado.');
  });

  it('saves a user choice on the account, which wins over cookie and browser', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user, { 'accept-language': 'fr' });
    expect((await browser.call(i18nApi.setLanguage, { language: 'bg' })).status).toBe(200);
    const row = await server()
      .ctx.db.selectFrom('users')
      .select('language')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(row?.language).toBe('bg');

    // Another browser, another cookie and Accept-Language: the saved language still wins.
    const elsewhere = await server().loginAs(user, { 'accept-language': 'es' });
    elsewhere.cookies.set('language', 'it');
    const body = (await elsewhere.call(baseApi.configuration)).json<{ language: string }>();
    expect(body.language).toBe('bg');
  });

  it('refuses a language the interface does not offer', async () => {
    const response = await server().client().call(i18nApi.setLanguage, { language: 'xx' });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      form: { errors: [], fields: { language: { errors: ['Select a valid choice.'] } } },
    });
  });
});
