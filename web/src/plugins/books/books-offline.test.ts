import 'fake-indexeddb/auto';
import { booksApi, templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import type { BookEntry, BookListEntry } from '@scriptorium/common/plugins/books-api';
import type { TemplateListEntry } from '@scriptorium/common/plugins/templates-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, route } from '../../app/testing/fake-fetch';
import { readRows, setLocalUser } from '../../offline/local-db';
import { fetchTemplates } from '../templates/templates-api';
import { fetchBook, fetchBooks } from './books-api';

const listed: BookListEntry = {
  id: 4,
  title: 'Ink and paper',
  added: 1,
  updated: 2,
  is_owner: true,
  owner: 'Ann Editor',
  rights: null,
};
const full: BookEntry = {
  ...listed,
  metadata: { authors: 'Ann', publisher: '', isbn: '', copyright: '', language: '', cover_image: null },
  settings: { citation_style: '', paper_size: 'A4', bibliography: 'book' },
  chapters: [{ document_id: 9, part: '', available: true, title: 'Results', path: '/' }],
};
const template: TemplateListEntry = {
  id: 3,
  title: 'Thesis',
  added: 1,
  updated: 2,
  site: false,
  is_owner: true,
};

afterEach(() => {
  setLocalUser(null);
  vi.unstubAllGlobals();
});

describe('Books and Templates offline (spec 3: books_data and templates_list)', () => {
  it('keep the last lists and the last opened book in the local database and answer from it offline', async () => {
    setLocalUser('ann-offline');
    fakeFetch({
      [route(booksApi.list)]: [json({ books: [listed] }), new TypeError('Failed to fetch')],
      [route(booksApi.get)]: [json({ book: full }), new TypeError('Failed to fetch')],
      [route(templatesApi.list)]: [json({ templates: [template] }), new TypeError('Failed to fetch')],
    });
    expect(await fetchBooks()).toEqual([listed]);
    expect(await fetchBook(4)).toEqual(full);
    expect(await fetchTemplates()).toEqual([template]);
    await vi.waitFor(async () => expect(await readRows('templates_list')).toEqual([template]));
    await vi.waitFor(async () => expect(await readRows('books_data')).toEqual([full]));

    // The server cannot be reached: the cached copies answer.
    expect(await fetchBooks()).toEqual([full]);
    expect(await fetchBook(4)).toEqual(full);
    expect(await fetchTemplates()).toEqual([template]);
  });
});
