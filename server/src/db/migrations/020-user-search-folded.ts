import type { Kysely } from 'kysely';
import { searchNames } from '../search-names';
import type { DualMigration } from './helpers';

/**
 * The staff users search ignores accents ("emilie" finds "Émilie"): migration 019's name columns
 * are filled (again, where 019 had lower-cased them), folded as the application writes them
 * (searchNames).
 */
export const userSearchFolded: DualMigration = {
  async up(db) {
    const users = db as Kysely<{
      users: {
        id: number;
        first_name: string;
        last_name: string;
        full_name_lower: string;
        last_name_lower: string;
      };
    }>;
    const BATCH = 1000;
    for (let after = 0; ; ) {
      const rows = await users
        .selectFrom('users')
        .select(['id', 'first_name', 'last_name'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      for (const row of rows) {
        await users
          .updateTable('users')
          .set(searchNames(row.first_name, row.last_name))
          .where('id', '=', row.id)
          .execute();
      }
      after = rows[rows.length - 1].id;
    }
  },
};
