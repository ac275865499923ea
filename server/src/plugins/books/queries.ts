import type { Generated } from 'kysely';
import type { AppContext } from '../../context';

/** The plugin's own table, typed here rather than in the core schema: a plugin brings its tables along. */
export type BooksTables = {
  books: { id: Generated<number>; owner_id: number; title: string; updated: number };
};

/** The user's books, newest first. */
export async function listBooks(ctx: AppContext, ownerId: number) {
  const rows = await ctx.db
    .withTables<BooksTables>()
    .selectFrom('books')
    .select(['id', 'title', 'updated'])
    .where('owner_id', '=', ownerId)
    .orderBy('updated', 'desc')
    .execute();
  // PostgreSQL returns bigint columns as strings.
  return rows.map((row) => ({ id: row.id, title: row.title, updated: Number(row.updated) }));
}
