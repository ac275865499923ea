import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { booksApi } from '@scriptorium/common/api/endpoints/plugins';
import type { BookEntry, BookListEntry } from '@scriptorium/common/plugins/books-api';
import { describe, expect, it } from 'vitest';
import { connect } from '../src/modules/contacts/queries';
import { createDocument } from '../src/modules/documents/commands/create-document';
import { ENGINES, type TestClient, useServer } from './harness';
import { shareDocument } from './seed';

async function book(browser: TestClient, id: number): Promise<BookEntry> {
  const response = await browser.call(booksApi.get, { id });
  expect(response.status, response.text).toBe(200);
  return response.json<{ book: BookEntry }>().book;
}

describe.each(ENGINES)('Books plugin API (%s)', (engine) => {
  const server = useServer(engine, { env: { PLUGINS: 'books' } });

  const author = (firstName: string) => server().loggedInUser({ firstName, lastName: 'Author' });

  async function document(ownerId: number, title: string): Promise<number> {
    return (await createDocument(server().ctx.db, ownerId, { title, path: '' })).id;
  }

  it('keeps chapters in the order saved, grouped in parts, with metadata and settings', async () => {
    const ann = await author('Ann');
    const [one, two, three] = [
      await document(ann.user.id, 'One'),
      await document(ann.user.id, 'Two'),
      await document(ann.user.id, 'Three'),
    ];
    const id = (await ann.browser.call(booksApi.create, { title: 'Collected papers' })).json<{ id: number }>()
      .id;
    const saved = await ann.browser.call(booksApi.chapters, {
      id,
      chapters: [
        { document_id: three, part: 'Beginnings' },
        { document_id: one, part: 'Beginnings' },
        { document_id: two, part: 'Endings' },
      ],
    });
    expect(saved.status, saved.text).toBe(200);
    const chapters = (await book(ann.browser, id)).chapters;
    expect(chapters.map((c) => [c.title, c.part, c.available])).toEqual([
      ['Three', 'Beginnings', true],
      ['One', 'Beginnings', true],
      ['Two', 'Endings', true],
    ]);
    // Reordering is the same call with the new order.
    await ann.browser.call(booksApi.chapters, {
      id,
      chapters: [{ document_id: one }, { document_id: two }, { document_id: three }],
    });
    expect((await book(ann.browser, id)).chapters.map((c) => c.title)).toEqual(['One', 'Two', 'Three']);

    const metadata = {
      authors: 'Ann Author',
      publisher: 'Press',
      isbn: '978-3-16-148410-0',
      copyright: '© 2026',
      language: 'en-GB',
      cover_image: null,
    };
    const settings = { citation_style: 'chicago-author-date', paper_size: 'US Letter' };
    const result = await ann.browser.call(booksApi.save, {
      id,
      title: 'Collected essays',
      metadata,
      settings,
    });
    expect(result.status, result.text).toBe(200);
    expect(await book(ann.browser, id)).toMatchObject({
      title: 'Collected essays',
      metadata,
      settings,
      is_owner: true,
      rights: null,
    });

    const duplicate = await ann.browser.call(booksApi.chapters, {
      id,
      chapters: [{ document_id: one }, { document_id: one }],
    });
    expect(duplicate.status).toBe(400);
    expect((await book(ann.browser, id)).chapters).toHaveLength(3);
  });

  it('refuses a cover image from another user and a chapter the user cannot read', async () => {
    const ann = await author('Ann');
    const bob = await author('Bob');
    const bobs = await document(bob.user.id, 'Private');
    const id = (await ann.browser.call(booksApi.create, { title: 'B' })).json<{ id: number }>().id;
    expect(
      (await ann.browser.call(booksApi.chapters, { id, chapters: [{ document_id: bobs }] })).status,
    ).toBe(404);
    const cover = await ann.browser.call(booksApi.save, {
      id,
      title: 'B',
      metadata: { cover_image: 999999 },
      settings: {},
    });
    expect(cover.status).toBe(400);
  });

  it('shares read and write with contacts only; readers cannot change, writers can, others get 404', async () => {
    const ann = await author('Ann');
    const bob = await author('Bob');
    const cy = await author('Cy');
    const stranger = await author('Dee');
    await connect(server().ctx.db, ann.user.id, bob.user.id);
    await connect(server().ctx.db, ann.user.id, cy.user.id);
    const doc = await document(ann.user.id, 'Chapter');
    const id = (await ann.browser.call(booksApi.create, { title: 'Shared' })).json<{ id: number }>().id;
    await ann.browser.call(booksApi.chapters, { id, chapters: [{ document_id: doc }] });

    const notContact = await ann.browser.call(booksApi.accessSave, {
      id,
      access: [{ user_id: stranger.user.id, rights: 'read' }],
    });
    expect(notContact.status).toBe(400);
    const shared = await ann.browser.call(booksApi.accessSave, {
      id,
      access: [
        { user_id: bob.user.id, rights: 'read' },
        { user_id: cy.user.id, rights: 'write' },
      ],
    });
    expect(shared.status, shared.text).toBe(200);
    expect((await ann.browser.call(booksApi.accessGet, { id })).json()).toEqual({
      access: [
        { user_id: bob.user.id, name: 'Bob Author', rights: 'read' },
        { user_id: cy.user.id, name: 'Cy Author', rights: 'write' },
      ],
    });

    const bobsList = (await bob.browser.call(booksApi.list)).json<{ books: BookListEntry[] }>().books;
    expect(bobsList).toEqual([
      expect.objectContaining({ id, title: 'Shared', is_owner: false, rights: 'read', owner: 'Ann Author' }),
    ]);
    // Bob cannot read the chapter's document: it is listed without its title.
    expect((await book(bob.browser, id)).chapters).toEqual([
      { document_id: doc, part: '', available: false, title: '', path: '' },
    ]);
    expect(
      (await bob.browser.call(booksApi.save, { id, title: 'Mine', metadata: {}, settings: {} })).status,
    ).toBe(403);
    expect((await bob.browser.call(booksApi.chapters, { id, chapters: [] })).status).toBe(403);
    expect((await bob.browser.call(booksApi.accessGet, { id })).status).toBe(403);

    const written = await cy.browser.call(booksApi.save, {
      id,
      title: 'Renamed by Cy',
      metadata: {},
      settings: {},
    });
    expect(written.status, written.text).toBe(200);
    expect((await book(ann.browser, id)).title).toBe('Renamed by Cy');

    for (const [target, input] of [
      [booksApi.get, { id }],
      [booksApi.save, { id, title: 'x', metadata: {}, settings: {} }],
      [booksApi.chapters, { id, chapters: [] }],
      [booksApi.delete, { ids: [id] }],
      [booksApi.accessGet, { id }],
    ] as const) {
      expect((await stranger.browser.call(target, input)).status, target.path).toBe(404);
    }

    // A collaborator deleting the book leaves it; the owner's delete removes it for everybody.
    await bob.browser.call(booksApi.delete, { ids: [id] });
    expect((await bob.browser.call(booksApi.list)).json()).toEqual({ books: [] });
    expect((await ann.browser.call(booksApi.delete, { ids: [id] })).status).toBe(200);
    expect((await cy.browser.call(booksApi.get, { id })).status).toBe(404);
  });

  it('ends the book rights between two users, both ways, when they stop being contacts', async () => {
    const ann = await author('Ann');
    const bob = await author('Bob');
    const cy = await author('Cy');
    await connect(server().ctx.db, ann.user.id, bob.user.id);
    await connect(server().ctx.db, ann.user.id, cy.user.id);
    const create = async (owner: typeof ann, title: string) =>
      (await owner.browser.call(booksApi.create, { title })).json<{ id: number }>().id;
    const annsBook = await create(ann, 'Ann shares');
    const bobsBook = await create(bob, 'Bob shares');
    await ann.browser.call(booksApi.accessSave, {
      id: annsBook,
      access: [
        { user_id: bob.user.id, rights: 'write' },
        { user_id: cy.user.id, rights: 'read' },
      ],
    });
    await bob.browser.call(booksApi.accessSave, {
      id: bobsBook,
      access: [{ user_id: ann.user.id, rights: 'read' }],
    });
    const titles = async (who: typeof ann) =>
      (await who.browser.call(booksApi.list))
        .json<{ books: BookListEntry[] }>()
        .books.map((b) => b.title)
        .sort();
    expect(await titles(ann)).toEqual(['Ann shares', 'Bob shares']);

    const removed = await bob.browser.call(contactsApi.delete, {
      contacts: [{ id: ann.user.id, type: 'user' }],
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await titles(ann)).toEqual(['Ann shares']);
    expect(await titles(bob)).toEqual(['Bob shares']);
    // Others keep theirs.
    expect(await titles(cy)).toEqual(['Ann shares']);
  });

  it('drops a deleted chapter document and hides an unshared one without losing its place', async () => {
    const ann = await author('Ann');
    const bob = await author('Bob');
    const own = await document(ann.user.id, 'Own');
    const borrowed = await document(bob.user.id, 'Borrowed');
    const doomed = await document(ann.user.id, 'Doomed');
    await shareDocument(server().ctx.db, borrowed, { userId: ann.user.id }, 'read');
    const id = (await ann.browser.call(booksApi.create, { title: 'Volume' })).json<{ id: number }>().id;
    await ann.browser.call(booksApi.chapters, {
      id,
      chapters: [{ document_id: borrowed }, { document_id: doomed }, { document_id: own }],
    });
    expect((await book(ann.browser, id)).chapters.map((c) => c.title)).toEqual(['Borrowed', 'Doomed', 'Own']);

    expect((await ann.browser.call(documentsApi.delete, { ids: [doomed] })).status).toBe(200);
    await bob.browser.call(documentsApi.accessSave, { id: borrowed, access: [] });
    const chapters = (await book(ann.browser, id)).chapters;
    expect(chapters.map((c) => [c.document_id, c.available, c.title])).toEqual([
      [borrowed, false, ''],
      [own, true, 'Own'],
    ]);
    // Saving the order again keeps the chapter Ann can no longer read.
    const resaved = await ann.browser.call(booksApi.chapters, {
      id,
      chapters: [{ document_id: own }, { document_id: borrowed }],
    });
    expect(resaved.status, resaved.text).toBe(200);
    expect((await book(ann.browser, id)).chapters.map((c) => c.document_id)).toEqual([own, borrowed]);
  });
});
