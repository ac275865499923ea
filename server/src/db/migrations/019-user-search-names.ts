import { type Kysely, sql } from 'kysely';
import type { DualMigration } from './helpers';

/**
 * The staff users search matches name prefixes in any script: the lower-cased full name
 * ("ada lovelace", "émilie du châtelet") and last name are stored, computed by the application
 * (searchNames in modules/user/search-names.ts), since SQLite's lower() folds ASCII letters only.
 * A first-name prefix is a prefix of the full name, so two columns serve the three searches.
 * They replace migration 011's lower(...) expression indexes.
 */
export const userSearchNames: DualMigration = {
  async up(db, dialect) {
    await db.schema
      .alterTable('users')
      .addColumn('full_name_lower', 'varchar(301)', (col) => col.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('users')
      .addColumn('last_name_lower', 'varchar(150)', (col) => col.notNull().defaultTo(''))
      .execute();
    await backfill(db);
    for (const index of ['users_first_prefix', 'users_last_prefix', 'users_full_prefix']) {
      await sql`drop index if exists ${sql.ref(index)}`.execute(db);
    }
    // PostgreSQL: LIKE 'prefix%' needs text_pattern_ops whatever the database's collation.
    const ops = dialect === 'postgres' ? sql` text_pattern_ops` : sql``;
    await sql`create index users_full_name_prefix on users (full_name_lower${ops})`.execute(db);
    await sql`create index users_last_name_prefix on users (last_name_lower${ops})`.execute(db);
  },
};

async function backfill(db: Kysely<unknown>): Promise<void> {
  const trx = db as Kysely<{
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
    const rows = await trx
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      await trx
        .updateTable('users')
        .set({
          full_name_lower: `${row.first_name} ${row.last_name}`.toLowerCase(),
          last_name_lower: row.last_name.toLowerCase(),
        })
        .where('id', '=', row.id)
        .execute();
    }
    after = rows[rows.length - 1].id;
  }
}
