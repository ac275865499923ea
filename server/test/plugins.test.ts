import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { booksApi, templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import { describe, expect, it } from 'vitest';
import type { BooksTables } from '../src/plugins/books/queries';
import type { TemplatesTables } from '../src/plugins/templates/queries';
import { ENGINES, useServer } from './harness';

describe.each(ENGINES)('plugins turned on with PLUGINS=templates,books (%s)', (engine) => {
  const server = useServer(engine, { env: { PLUGINS: 'books,templates' } });

  it('names them in the configuration in header order', async () => {
    const response = await server().client().call(baseApi.configuration);
    expect(response.json()).toMatchObject({ plugins: ['templates', 'books'] });
  });

  it("answer their API with the user's own rows only", async () => {
    const owner = await server().buildUser();
    const other = await server().buildUser();
    const db = server().ctx.db.withTables<TemplatesTables & BooksTables>();
    await db
      .insertInto('document_templates')
      .values({ owner_id: owner.id, title: 'Thesis', updated: 2 })
      .execute();
    await db
      .insertInto('document_templates')
      .values({ owner_id: other.id, title: 'Theirs', updated: 3 })
      .execute();
    await db
      .insertInto('books')
      .values({ owner_id: owner.id, title: 'Collected papers', updated: 5 })
      .execute();

    const browser = await server().loginAs(owner);
    const templates = await browser.call(templatesApi.list);
    expect(templates.status).toBe(200);
    expect(templates.json()).toEqual({
      templates: [
        { id: expect.any(Number), title: 'Thesis', added: 0, updated: 2, site: false, is_owner: true },
      ],
    });
    const books = await browser.call(booksApi.list);
    expect(books.json()).toEqual({
      books: [
        {
          id: expect.any(Number),
          title: 'Collected papers',
          added: 0,
          updated: 5,
          is_owner: true,
          owner: expect.any(String),
          rights: null,
        },
      ],
    });
  });

  it('ask for a login like every other login-only API', async () => {
    expect((await server().client().call(templatesApi.list)).status).toBe(401);
  });
});

describe.each(ENGINES)('plugins turned off (%s)', (engine) => {
  const server = useServer(engine, { env: { PLUGINS: 'templates' } });

  it('leave the configuration and answer 404 on their API', async () => {
    const response = await server().client().call(baseApi.configuration);
    expect(response.json()).toMatchObject({ plugins: ['templates'] });
    const browser = await server().loginAs(await server().buildUser());
    expect((await browser.call(booksApi.list)).status).toBe(404);
    expect((await browser.call(booksApi.export, { id: '1', format: 'epub' })).status).toBe(404);
    expect((await browser.call(templatesApi.list)).status).toBe(200);
  });

  it('still have their tables, so that turning a plugin on later needs no migration run', async () => {
    const rows = await server().ctx.db.withTables<BooksTables>().selectFrom('books').select('id').execute();
    expect(rows).toEqual([]);
  });
});
