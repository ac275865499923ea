import 'fake-indexeddb/auto';
import type { BibEntry } from '@scriptorium/common/bibliography/types';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BIB_CACHE_DB,
  type BibCache,
  clearBibCache,
  emptyCache,
  readBibCache,
  writeBibCache,
} from './bib-cache';
import { loadLibrary, rememberWrite } from './bibliography-api';

const entry = (id: number): BibEntry => ({
  id,
  entry_key: `key${id}`,
  bib_type: 'book',
  fields: { title: [{ type: 'text', text: `Book ${id}` }] },
  cats: [],
});

/** Answers biblist like the server and records what the page sent. */
function stubServer(answer: Record<string, unknown>) {
  const bodies: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      bodies.push(new URLSearchParams(String(init.body)));
      return new Response(JSON.stringify(answer), { status: 200 });
    }),
  );
  return bodies;
}

/** Owner 7's cached list at stamp 1000. */
function cacheOfOwner7(biblist: BibEntry[], more: Partial<BibCache> = {}): Promise<void> {
  return writeBibCache({
    ...emptyCache(),
    last_modified_biblist: 1000,
    number_of_entries: biblist.length,
    owner_id: 7,
    biblist,
    ...more,
  });
}

afterEach(async () => {
  await clearBibCache();
});

describe('bibliography cache (spec 3, 4)', () => {
  it('starts empty with every value -1', async () => {
    expect(await readBibCache()).toEqual(emptyCache());
    expect(emptyCache()).toMatchObject({
      version: '1.1',
      last_modified_biblist: -1,
      number_of_entries: -1,
      owner_id: -1,
    });
  });

  it('discards a cache of another version', async () => {
    const db = await openDB(BIB_CACHE_DB, 1);
    await db.put(
      'cache',
      { ...emptyCache(), version: '1.0', owner_id: 7, biblist: [entry(1)] },
      'bibliography',
    );
    db.close();
    expect(await readBibCache()).toEqual(emptyCache());
  });

  it('sends the full state with the first check and stores the list', async () => {
    const bodies = stubServer({
      bib_categories: [{ id: 3, category_title: 'Physics' }],
      user_id: 7,
      bib_list: [entry(1), entry(2)],
      last_modified: 1000,
      number_of_entries: 2,
    });
    const shown: number[] = [];
    const library = await loadLibrary(7, (cached) => shown.push(cached.entries.length));
    expect(shown).toEqual([]); // nothing cached yet
    expect(Object.fromEntries(bodies[0])).toEqual({
      last_modified: '-1',
      number_of_entries: '-1',
      user_id: '-1',
    });
    expect(library.entries).toHaveLength(2);
    expect(await readBibCache()).toMatchObject({
      version: '1.1',
      last_modified_biblist: 1000,
      number_of_entries: 2,
      owner_id: 7,
      biblist: [entry(1), entry(2)],
    });
  });

  it('shows the cached list at once and keeps it when the server sends none', async () => {
    await cacheOfOwner7([entry(1), entry(2)]);
    const bodies = stubServer({ bib_categories: [], user_id: 7 });
    const shown: number[] = [];
    const library = await loadLibrary(7, (cached) => shown.push(cached.entries.length));
    expect(shown).toEqual([2]);
    expect(Object.fromEntries(bodies[0])).toEqual({
      last_modified: '1000',
      number_of_entries: '2',
      user_id: '7',
    });
    expect(library.entries.map((e) => e.id)).toEqual([1, 2]);
  });

  it('takes over the stamp of its own write only when no one else wrote in between', async () => {
    await cacheOfOwner7([entry(1)]);
    const library = { entries: [entry(1), entry(2)], categories: [] };
    await rememberWrite(
      7,
      { previous_last_modified: 1000, last_modified: 1005, number_of_entries: 2 },
      library,
    );
    expect(await readBibCache()).toMatchObject({ last_modified_biblist: 1005, number_of_entries: 2 });
    await rememberWrite(
      7,
      { previous_last_modified: 2000, last_modified: 2005, number_of_entries: 3 },
      library,
    );
    expect(await readBibCache()).toMatchObject({ last_modified_biblist: -1, number_of_entries: -1 });
  });

  it('stores categories from an unchanged check without rewriting the cached list', async () => {
    await cacheOfOwner7([entry(1)], { bib_categories: [{ id: 1, category_title: 'Old' }] });
    const put = vi.spyOn(IDBObjectStore.prototype, 'put');
    stubServer({ bib_categories: [{ id: 1, category_title: 'Renamed' }], user_id: 7 });
    const library = await loadLibrary(7);
    expect(library).toEqual({ entries: [entry(1)], categories: [{ id: 1, category_title: 'Renamed' }] });
    // One small write: the categories record, not the list.
    expect(put.mock.calls.map((call) => call[1])).toEqual(['categories']);
    expect(await readBibCache()).toMatchObject({
      biblist: [entry(1)],
      bib_categories: [{ id: 1, category_title: 'Renamed' }],
    });
    put.mockRestore();
  });
});
