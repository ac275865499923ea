import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINES, useServer } from './harness';

const INVALID = 'Enter a valid value.';
const NUL = 'a\u0000b';
const TOO_BIG_ID = '2147483648';

/** The login-style field error body of a 400. */
function fieldErrors(body: Record<string, unknown>): Record<string, string[]> {
  const form = body.form as { fields: Record<string, { errors: string[] }> };
  return Object.fromEntries(Object.entries(form.fields).map(([name, value]) => [name, value.errors]));
}

describe.each(ENGINES)('hardening: unchecked input (%s)', (engine) => {
  const server = useServer(engine);

  it('answers 400 with a field error to NUL bytes in the text fields a visitor can send', async () => {
    const visitor = server().client();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/user/login/', { login: NUL, password: 'x' }, 'login'],
      ['/api/user/login/', { login: 'someone', password: NUL }, 'password'],
      ['/api/base/flatpage/', { url: `/terms/${NUL}` }, 'url'],
      ['/api/feedback/feedback/', { message: `Hello ${NUL}` }, 'message'],
      ['/api/user/password/reset/', { email: `a${NUL}@example.org` }, 'email'],
    ];
    for (const [target, form, field] of cases) {
      const response = await visitor.post(target, form);
      expect(response.status, `${target}: ${response.text}`).toBe(400);
      expect(fieldErrors(response.json())[field], target).toEqual([INVALID]);
    }
  });

  it('answers 400 to ids beyond a 32-bit column and to NUL bytes in the calls of a logged-in user', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/api/documents/get/', { id: TOO_BIG_ID }, 'id'],
      ['POST', '/api/documents/access/get/', { id: TOO_BIG_ID }, 'id'],
      ['POST', '/api/documents/delete/', { ids: [TOO_BIG_ID] }, 'ids'],
      ['POST', '/api/documents/create/', { title: NUL }, 'title'],
      [
        'POST',
        '/api/documents/access/save/',
        { id: '1', access: JSON.stringify([{ holder_type: 'user', holder_id: 2 ** 31, rights: 'read' }]) },
        'access',
      ],
      [
        'POST',
        '/api/bibliography/save/',
        { is_new: 'false', bibs: JSON.stringify({ [TOO_BIG_ID]: {} }) },
        'bibs',
      ],
      [
        'POST',
        '/api/bibliography/save/',
        { is_new: 'true', bibs: JSON.stringify({ '-1': { fields: { title: NUL } } }) },
        'bibs',
      ],
      ['DELETE', '/api/bibliography/delete/', { ids: [TOO_BIG_ID] }, 'ids'],
      ['POST', '/api/bibliography/save_category/', { ids: ['0'], titles: [NUL] }, 'titles'],
      [
        'POST',
        '/api/user/contacts/delete/',
        { contacts: JSON.stringify([{ id: 2 ** 31, type: 'user' }]) },
        'contacts',
      ],
      ['POST', '/api/user/invites/add/', { user_string: NUL }, 'user_string'],
      ['DELETE', '/api/usermedia/delete/', { ids: [TOO_BIG_ID] }, 'ids'],
      ['POST', '/api/usermedia/save/', { id: TOO_BIG_ID, title: 'x' }, 'id'],
      ['POST', '/api/usermedia/save_category/', { ids: ['0'], titles: [NUL] }, 'titles'],
    ];
    for (const [method, target, form, field] of cases) {
      const response = await browser.request(method, target, { form });
      expect(response.status, `${target}: ${response.text}`).toBe(400);
      expect(fieldErrors(response.json())[field], `${target} ${response.text}`).toEqual([INVALID]);
    }
    const entry = { entry_key: 'doe2020', bib_type: 'article', fields: {}, cats: [2 ** 31] };
    const bibliography = await browser.post('/api/bibliography/save/', {
      is_new: 'true',
      bibs: JSON.stringify({ '-1': entry }),
    });
    expect(bibliography.status, bibliography.text).toBe(400);
    expect(bibliography.json()).toMatchObject({
      error: 'invalid_entries',
      problems: [{ id: '-1', entry_key: 'doe2020', field: null, code: 'invalid_category' }],
    });
    const profile = await browser.post('/api/user/save/', {
      form_data: JSON.stringify({ user: { username: NUL, first_name: '', last_name: '' } }),
    });
    expect(profile.status, profile.text).toBe(400);
  });

  it('bounds a typed path so that it still fits its column after cleaning', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const long = `${'a/'.repeat(499)}b`; // 999 characters; cleaning adds the leading slash
    const refused = await browser.post('/api/documents/create/', { title: 'T', path: long });
    expect(refused.status, refused.text).toBe(400);
    expect(fieldErrors(refused.json()).path).toEqual(['Ensure this value has at most 998 characters.']);
    const fits = await browser.post('/api/documents/create/', { title: 'T', path: long.slice(1) });
    expect(fits.status, fits.text).toBe(200);
    const created = fits.json<{ id: number; path: string }>();
    expect(created.path.length).toBeLessThanOrEqual(1000);
    const copied = await browser.post('/api/documents/copy/', { ids: [created.id], path: long.slice(1) });
    expect(copied.status, copied.text).toBe(200);
    const moved = await browser.post('/api/documents/move/', { id: created.id, path: 'x'.repeat(1000) });
    expect(moved.status, moved.text).toBe(400);
  });

  it('leaves no file behind when an image upload is refused', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const form = new FormData();
    form.append('title', `Figure ${NUL}`);
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';
    form.append('image', new Blob([svg], { type: 'image/svg+xml' }), 'a.svg');
    const cookie = [...browser.cookies]
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
      .join('; ');
    const response = await fetch(`${server().baseUrl}/api/usermedia/save/`, {
      method: 'POST',
      headers: { cookie, 'x-csrftoken': browser.cookies.get('csrftoken') ?? '', accept: 'application/json' },
      body: form,
    });
    expect(response.status).toBe(400);
    const dir = path.join(server().ctx.config.dataDir, 'media', 'images');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });
});
