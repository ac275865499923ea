import { afterEach, describe, expect, it } from 'vitest';
import type { BooksTables } from '../../plugins/books/queries';
import type { TemplatesTables } from '../../plugins/templates/queries';
import type { Database } from '../schema';
import { type TemporarySqlite, temporarySqlite } from '../temporary-sqlite';
import { openSqlite } from './connection';
import { inDependencyOrder, siteTables } from './site-tables';

/**
 * Every table of the typed schema: the compiler refuses this object when a table is added to the
 * types and not here, and the test fails when the catalog (what migrate and backup move) and the
 * types disagree.
 */
const TYPED_TABLES: Record<keyof (Database & BooksTables & TemplatesTables), true> = {
  users: true,
  user_emails: true,
  sessions: true,
  login_attempts: true,
  password_resets: true,
  email_confirmations: true,
  social_accounts: true,
  social_states: true,
  flatpages: true,
  feedback: true,
  contacts: true,
  user_invites: true,
  usermedia_images: true,
  usermedia_categories: true,
  usermedia_image_categories: true,
  bib_entries: true,
  bib_categories: true,
  bib_owner_state: true,
  usermedia_owner_state: true,
  documents: true,
  document_access: true,
  document_images: true,
  document_steps: true,
  document_creation_keys: true,
  audit_log: true,
  site_settings: true,
  document_threads: true,
  document_comments: true,
  document_revisions: true,
  books: true,
  book_chapters: true,
  book_access: true,
  document_templates: true,
  template_export_files: true,
  api_tokens: true,
  bib_sources: true,
  bib_source_entries: true,
};

describe('the site tables read from the catalog', () => {
  let sqlite: TemporarySqlite;
  afterEach(() => sqlite.remove());

  it('are every table of the schema, each after the tables it refers to, with its key', async () => {
    sqlite = await temporarySqlite('site-tables-');
    const connection = openSqlite(sqlite.file, { readonly: true });
    try {
      const tables = await siteTables(connection);
      expect(tables.map((table) => table.name).sort()).toEqual(Object.keys(TYPED_TABLES).sort());
      const seen = new Set<string>();
      for (const table of tables) {
        for (const parent of table.parents)
          expect(seen.has(parent), `${table.name} after ${parent}`).toBe(true);
        seen.add(table.name);
      }
      const byName = new Map(tables.map((table) => [table.name, table]));
      expect(byName.get('document_steps')?.parents).toEqual(['documents', 'users']);
      expect(byName.get('documents')?.primaryKey).toEqual(['id']);
      expect(byName.get('usermedia_image_categories')?.parents).toEqual([
        'usermedia_categories',
        'usermedia_images',
      ]);
    } finally {
      await connection.close();
    }
  });

  it('refuse an order for tables that refer to each other in a cycle', () => {
    const table = (name: string, parents: string[]) => ({
      name,
      columns: ['id'],
      primaryKey: ['id'],
      parents,
    });
    expect(inDependencyOrder([table('b', ['a']), table('a', [])]).map((t) => t.name)).toEqual(['a', 'b']);
    expect(() => inDependencyOrder([table('a', ['b']), table('b', ['a'])])).toThrow(
      'The tables a, b refer to each other in a cycle.',
    );
  });
});
