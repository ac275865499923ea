import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Endpoint } from '@scriptorium/common/api/endpoint';
import { baseApi, feedbackApi } from '@scriptorium/common/api/endpoints/base';
import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
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
    const cases: Array<[Endpoint, Record<string, unknown>, string]> = [
      [userApi.login, { login: NUL, password: 'x' }, 'login'],
      [userApi.login, { login: 'someone', password: NUL }, 'password'],
      [baseApi.flatpage, { url: `/terms/${NUL}` }, 'url'],
      [feedbackApi.send, { message: `Hello ${NUL}` }, 'message'],
      [userApi.passwordReset, { email: `a${NUL}@example.org` }, 'email'],
    ];
    for (const [target, form, field] of cases) {
      const response = await visitor.call(target, form);
      expect(response.status, `${target.path}: ${response.text}`).toBe(400);
      expect(fieldErrors(response.json())[field], target.path).toEqual([INVALID]);
    }
  });

  it('answers 400 to ids beyond a 32-bit column and to NUL bytes in the calls of a logged-in user', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const cases: Array<[Endpoint, Record<string, unknown>, string]> = [
      [documentsApi.get, { id: TOO_BIG_ID }, 'id'],
      [documentsApi.accessGet, { id: TOO_BIG_ID }, 'id'],
      [documentsApi.delete, { ids: [TOO_BIG_ID] }, 'ids'],
      [documentsApi.create, { title: NUL }, 'title'],
      [
        documentsApi.accessSave,
        { id: '1', access: [{ holder_type: 'user', holder_id: 2 ** 31, rights: 'read' }] },
        'access',
      ],
      [bibliographyApi.save, { is_new: 'false', bibs: { [TOO_BIG_ID]: {} } }, 'bibs'],
      [bibliographyApi.save, { is_new: 'true', bibs: { '-1': { fields: { title: NUL } } } }, 'bibs'],
      [bibliographyApi.delete, { ids: [TOO_BIG_ID] }, 'ids'],
      [bibliographyApi.saveCategories, { ids: ['0'], titles: [NUL] }, 'titles'],
      [contactsApi.delete, { contacts: [{ id: 2 ** 31, type: 'user' }] }, 'contacts'],
      [contactsApi.invite, { user_string: NUL }, 'user_string'],
      [usermediaApi.delete, { ids: [TOO_BIG_ID] }, 'ids'],
      [usermediaApi.save, { id: TOO_BIG_ID, title: 'x' }, 'id'],
      [usermediaApi.saveCategories, { ids: ['0'], titles: [NUL] }, 'titles'],
    ];
    for (const [target, form, field] of cases) {
      const response = await browser.call(target, form);
      expect(response.status, `${target.path}: ${response.text}`).toBe(400);
      expect(fieldErrors(response.json())[field], `${target.path} ${response.text}`).toEqual([INVALID]);
    }
    const entry = { entry_key: 'doe2020', bib_type: 'article', fields: {}, cats: [2 ** 31] };
    const bibliography = await browser.call(bibliographyApi.save, {
      is_new: 'true',
      bibs: { '-1': entry },
    });
    expect(bibliography.status, bibliography.text).toBe(400);
    expect(bibliography.json()).toMatchObject({
      error: 'invalid_entries',
      problems: [{ id: '-1', entry_key: 'doe2020', field: null, code: 'invalid_category' }],
    });
    const profile = await browser.call(userApi.saveProfile, {
      form_data: { user: { username: NUL, first_name: '', last_name: '' } },
    });
    expect(profile.status, profile.text).toBe(400);
  });

  it('bounds a typed path so that it still fits its column after cleaning', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const long = `${'a/'.repeat(499)}b`; // 999 characters; cleaning adds the leading slash
    const refused = await browser.call(documentsApi.create, { title: 'T', path: long });
    expect(refused.status, refused.text).toBe(400);
    expect(fieldErrors(refused.json()).path).toEqual(['Ensure this value has at most 998 characters.']);
    const fits = await browser.call(documentsApi.create, { title: 'T', path: long.slice(1) });
    expect(fits.status, fits.text).toBe(200);
    const created = fits.json<{ id: number; path: string }>();
    expect(created.path.length).toBeLessThanOrEqual(1000);
    const copied = await browser.call(documentsApi.copy, { ids: [created.id], path: long.slice(1) });
    expect(copied.status, copied.text).toBe(200);
    const moved = await browser.call(documentsApi.move, { id: created.id, path: 'x'.repeat(1000) });
    expect(moved.status, moved.text).toBe(400);
  });

  it('leaves no file behind when an image upload is refused', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';
    const image = new File([svg], 'a.svg', { type: 'image/svg+xml' });
    const response = await browser.call(usermediaApi.save, { title: `Figure ${NUL}`, image });
    expect(response.status).toBe(400);
    const dir = path.join(server().ctx.config.dataDir, 'media', 'images');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });
});
