import { sql } from 'kysely';
import type { DualMigration } from './helpers';
import { withDefault } from './helpers';

/**
 * The staff users search matches name prefixes in any script: the folded full name
 * ("ada lovelace", "emilie du chatelet") and last name are stored, computed by the application
 * (searchNames in modules/user/search-names.ts), since SQLite's lower() folds ASCII letters only.
 * Migration 020 fills them (it first shipped here, lower-cased only).
 * A first-name prefix is a prefix of the full name, so two columns serve the three searches.
 * They replace migration 011's lower(...) expression indexes.
 */
export const userSearchNames: DualMigration = {
  async up(db, dialect) {
    await db.schema
      .alterTable('users')
      .addColumn('full_name_lower', 'varchar(301)', withDefault(''))
      .execute();
    await db.schema
      .alterTable('users')
      .addColumn('last_name_lower', 'varchar(150)', withDefault(''))
      .execute();
    for (const index of ['users_first_prefix', 'users_last_prefix', 'users_full_prefix']) {
      await sql`drop index if exists ${sql.ref(index)}`.execute(db);
    }
    // PostgreSQL: LIKE 'prefix%' needs text_pattern_ops whatever the database's collation.
    const ops = dialect === 'postgres' ? sql` text_pattern_ops` : sql``;
    await sql`create index users_full_name_prefix on users (full_name_lower${ops})`.execute(db);
    await sql`create index users_last_name_prefix on users (last_name_lower${ops})`.execute(db);
  },
};
