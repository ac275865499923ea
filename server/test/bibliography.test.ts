import { readFileSync } from 'node:fs';
import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import { importBibtex } from '@scriptorium/common/bibliography/import-bibtex';
import type { BibEntry, EntryData, RichText } from '@scriptorium/common/bibliography/types';
import { describe, expect, it } from 'vitest';
import { ENGINES, type TestClient, useServer } from './harness';

const text = (t: string): RichText => [{ type: 'text', text: t }];

function entry(key: string, extra: Partial<EntryData> = {}): EntryData {
  return {
    entry_key: key,
    bib_type: 'article',
    fields: {
      title: text(`Title of ${key}`),
      author: [{ family: text('Doe'), given: text('Jane') }],
      date: '2020',
    },
    cats: [],
    ...extra,
  };
}

interface Biblist {
  bib_categories: { id: number; category_title: string }[];
  user_id: number;
  bib_list?: BibEntry[];
  last_modified?: number;
  number_of_entries?: number;
}

async function biblist(
  client: TestClient,
  cache = { last_modified: -1, number_of_entries: -1, user_id: -1 },
) {
  const response = await client.call(bibliographyApi.list, cache);
  expect(response.status, response.text).toBe(200);
  return response.json<Biblist>();
}

async function save(client: TestClient, bibs: Record<string, EntryData>, isNew = true) {
  return client.call(bibliographyApi.save, { is_new: isNew, bibs: bibs });
}

describe.each(ENGINES)('bibliography API (%s)', (engine) => {
  const server = useServer(engine);

  it('needs a login', async () => {
    const response = await server().client().call(bibliographyApi.list, {});
    expect(response.status).toBe(401);
  });

  it('lists categories always and the entries only when the cache is stale', async () => {
    const user = await server().buildUser();
    const client = await server().loginAs(user);
    const empty = await biblist(client);
    expect(empty).toEqual({
      bib_categories: [],
      user_id: user.id,
      bib_list: [],
      last_modified: 0,
      number_of_entries: 0,
    });

    const saved = await save(client, { '-1': entry('doe2020'), '-2': entry('roe2021') });
    expect(saved.status, saved.text).toBe(200);
    const answer = saved.json<{
      id_translations: [number, number][];
      last_modified: number;
      number_of_entries: number;
    }>();
    expect(answer.id_translations.map(([old]) => old)).toEqual([-1, -2]);
    expect(answer.number_of_entries).toBe(2);

    const full = await biblist(client);
    expect(full.bib_list?.map((e) => e.entry_key)).toEqual(['doe2020', 'roe2021']);
    expect(full.bib_list?.[0]).toEqual({ id: answer.id_translations[0][1], ...entry('doe2020') });
    expect(full.last_modified).toBe(answer.last_modified);
    expect(full.number_of_entries).toBe(2);

    // Unchanged: only categories and user id.
    const cache = { last_modified: full.last_modified ?? 0, number_of_entries: 2, user_id: user.id };
    expect(await biblist(client, cache)).toEqual({ bib_categories: [], user_id: user.id });
    // Different count, different user, older stamp: the list comes.
    expect((await biblist(client, { ...cache, number_of_entries: 3 })).bib_list).toHaveLength(2);
    expect((await biblist(client, { ...cache, user_id: user.id + 1000 })).bib_list).toHaveLength(2);
    expect(
      (await biblist(client, { ...cache, last_modified: cache.last_modified - 1 })).bib_list,
    ).toHaveLength(2);
  });

  it('makes keys safe and unique per user, case-insensitively', async () => {
    const client = await server().loginAs(await server().buildUser());
    await save(client, { '1': entry('Smith 2000,{x}') });
    const response = await save(client, {
      '1': entry('smith2000x'),
      '2': entry('smith2000x'),
      '3': entry('  '),
    });
    expect(response.status).toBe(400); // a blank key is refused
    const ok = await save(client, { '1': entry('smith2000x'), '2': entry('SMITH2000x') });
    expect(ok.json<{ entry_keys: [number, string][] }>().entry_keys.map(([, key]) => key)).toEqual([
      'smith2000x_2',
      'SMITH2000x_3',
    ]);
    const list = await biblist(client);
    expect(list.bib_list?.map((e) => e.entry_key)).toEqual(['Smith2000x', 'smith2000x_2', 'SMITH2000x_3']);
    // Another user may use the same key.
    const other = await server().loginAs(await server().buildUser());
    const theirs = await save(other, { '1': entry('Smith2000x') });
    expect(theirs.json<{ entry_keys: [number, string][] }>().entry_keys[0][1]).toBe('Smith2000x');
  });

  it('refuses bad data with the entry and field named, saving nothing of the request', async () => {
    const client = await server().loginAs(await server().buildUser());
    const bad = {
      '-1': entry('good'),
      '-2': entry('baddate', { fields: { date: 'yesterday', title: text('x') } }),
      '-3': { ...entry('badtype'), bib_type: 'nonsense' },
      '-4': entry('badfield', {
        fields: { colour: text('red'), author: [{ family: 'not rich text' }] } as never,
      }),
      '-5': entry('badmark', {
        fields: { title: [{ type: 'text', text: 'x', marks: [{ type: 'blink' }] }] } as never,
      }),
    };
    const response = await save(client, bad);
    expect(response.status).toBe(400);
    const body = response.json<{ error: string; problems: unknown[] }>();
    expect(body.error).toBe('invalid_entries');
    expect(body.problems).toEqual(
      expect.arrayContaining([
        { id: '-2', entry_key: 'baddate', field: 'date', code: 'invalid_date' },
        { id: '-3', entry_key: 'badtype', field: null, code: 'bib_type' },
        { id: '-4', entry_key: 'badfield', field: 'colour', code: 'unknown_field' },
        { id: '-4', entry_key: 'badfield', field: 'author', code: 'invalid_value' },
        { id: '-5', entry_key: 'badmark', field: 'title', code: 'invalid_value' },
      ]),
    );
    expect((await biblist(client)).bib_list).toEqual([]);
    // Not JSON at all: a form error on bibs.
    const notJson = await client.call(bibliographyApi.save, { is_new: true, bibs: '{' });
    expect(notJson.status).toBe(400);
  });

  it('updates entries and keeps other users out (404, nothing changes)', async () => {
    const owner = await server().loginAs(await server().buildUser());
    const saved = (await save(owner, { '-1': entry('mine') })).json<{
      id_translations: [number, number][];
    }>();
    const id = saved.id_translations[0][1];
    const update = await save(
      owner,
      { [id]: entry('mine', { bib_type: 'book', fields: { title: text('New') } }) },
      false,
    );
    expect(update.status, update.text).toBe(200);
    expect(update.json<{ id_translations: [number, number][] }>().id_translations).toEqual([[id, id]]);
    expect((await biblist(owner)).bib_list?.[0]).toMatchObject({
      id,
      bib_type: 'book',
      fields: { title: text('New') },
    });

    const intruder = await server().loginAs(await server().buildUser());
    expect((await save(intruder, { [id]: entry('stolen') }, false)).status).toBe(404);
    expect((await intruder.call(bibliographyApi.delete, { ids: [id] })).status).toBe(404);
    const list = await biblist(owner);
    expect(list.bib_list?.map((e) => e.entry_key)).toEqual(['mine']);
    expect(list.bib_list?.[0].bib_type).toBe('book');
  });

  it('manages categories: add, rename, assign, delete (taken off the entries), owner only', async () => {
    const owner = await server().loginAs(await server().buildUser());
    const created = await owner.call(bibliographyApi.saveCategories, {
      ids: [0, 0, 0],
      titles: [' Physics ', 'Maths', '  '],
    });
    expect(created.status, created.text).toBe(200);
    const cats = created.json<{ entries: { id: number; category_title: string }[] }>().entries;
    expect(cats.map((c) => c.category_title)).toEqual(['Physics', 'Maths']);
    const [physics, maths] = cats.map((c) => c.id);

    const renamed = await owner.call(bibliographyApi.saveCategories, {
      ids: [maths],
      titles: ['Mathematics'],
    });
    expect(renamed.json<{ entries: unknown[] }>().entries).toEqual([
      { id: physics, category_title: 'Physics' },
      { id: maths, category_title: 'Mathematics' },
    ]);

    const saved = await save(owner, { '-1': entry('both', { cats: [physics, maths] }) });
    const id = saved.json<{ id_translations: [number, number][] }>().id_translations[0][1];

    const intruder = await server().loginAs(await server().buildUser());
    expect(
      (await intruder.call(bibliographyApi.saveCategories, { ids: [physics], titles: ['Mine'] })).status,
    ).toBe(404);
    expect((await intruder.call(bibliographyApi.deleteCategories, { ids: [physics] })).status).toBe(404);
    expect((await save(intruder, { '-1': entry('x', { cats: [physics] }) })).status).toBe(404);
    expect((await biblist(intruder)).bib_list).toEqual([]);

    const deleted = await owner.call(bibliographyApi.deleteCategories, { ids: [physics] });
    expect(deleted.status, deleted.text).toBe(200);
    const list = await biblist(owner);
    expect(list.bib_categories).toEqual([{ id: maths, category_title: 'Mathematics' }]);
    expect(list.bib_list?.find((e) => e.id === id)?.cats).toEqual([maths]);
  });

  it('deletes entries and reports the new stamp', async () => {
    const client = await server().loginAs(await server().buildUser());
    const saved = (await save(client, { '-1': entry('a'), '-2': entry('b'), '-3': entry('c') })).json<{
      id_translations: [number, number][];
      last_modified: number;
    }>();
    const ids = saved.id_translations.map(([, id]) => id);
    const response = await client.call(bibliographyApi.delete, { ids: ids.slice(0, 2) });
    expect(response.status, response.text).toBe(200);
    const stamp = response.json<{
      last_modified: number;
      previous_last_modified: number;
      number_of_entries: number;
    }>();
    expect(stamp.previous_last_modified).toBe(saved.last_modified);
    expect(stamp.last_modified).toBeGreaterThan(saved.last_modified);
    expect(stamp.number_of_entries).toBe(1);
    expect((await biblist(client)).bib_list?.map((e) => e.entry_key)).toEqual(['c']);
    // A CSRF-less delete is refused.
    expect((await client.call(bibliographyApi.delete, { ids: [ids[2]] }, { csrf: false })).status).toBe(403);
  });

  it('stores an imported real-world library unchanged', async () => {
    const client = await server().loginAs(await server().buildUser());
    const bib = readFileSync(
      new URL('../../common/src/bibliography/fixtures/hard-cases.bib', import.meta.url),
      'utf8',
    );
    const { entries } = importBibtex(bib);
    const bibs = Object.fromEntries(entries.map((e, i) => [String(-1 - i), e]));
    const response = await save(client, bibs);
    expect(response.status, response.text).toBe(200);
    const list = await biblist(client);
    expect(list.bib_list?.map(({ id: _id, ...data }) => data)).toEqual(entries);
  });
});
