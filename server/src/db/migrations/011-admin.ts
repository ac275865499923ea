import { sql } from 'kysely';
import type { DualMigration } from './helpers';
import { notNull, timestamp, withId } from './helpers';

/**
 * Staff administration: the audit log, site settings kept in the database, feedback marked done,
 * the last login of each user, and the indexes the users table's prefix search runs on.
 */
export const admin: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('audit_log'), dialect)
      // The staff user who acted; the name stays readable after that account is gone.
      .addColumn('actor_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('actor_name', 'varchar(150)', notNull)
      .addColumn('action', 'varchar(64)', notNull)
      .addColumn('target', 'varchar(300)', (col) => col.notNull().defaultTo(''))
      /** JSON text: what changed. */
      .addColumn('details', 'text', (col) => col.notNull().defaultTo('{}'))
      .addColumn('created_at', timestamp, notNull)
      .execute();
    await db.schema.createIndex('audit_log_created').on('audit_log').column('created_at').execute();

    await db.schema
      .createTable('site_settings')
      .addColumn('key', 'varchar(100)', (col) => col.primaryKey())
      .addColumn('value', 'text', notNull)
      .execute();

    await db.schema.alterTable('feedback').addColumn('done_at', timestamp).execute();
    await db.schema
      .alterTable('feedback')
      .addColumn('done_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('feedback_created').on('feedback').column('created_at').execute();

    await db.schema.alterTable('users').addColumn('last_login_at', timestamp).execute();

    // The admin search matches prefixes of the username, any address, first, last and full name.
    // SQLite: range comparisons on BINARY indexes (lower() of names is ASCII-only there).
    // PostgreSQL: LIKE 'prefix%' needs text_pattern_ops whatever the database's collation.
    if (dialect === 'postgres') {
      await sql`create index users_username_prefix on users (username_lower text_pattern_ops)`.execute(db);
      await sql`create index user_emails_address_prefix on user_emails (address_lower text_pattern_ops)`.execute(
        db,
      );
      await sql`create index users_first_prefix on users (lower(first_name) text_pattern_ops)`.execute(db);
      await sql`create index users_last_prefix on users (lower(last_name) text_pattern_ops)`.execute(db);
      await sql`create index users_full_prefix on users ((lower(first_name || ' ' || last_name)) text_pattern_ops)`.execute(
        db,
      );
    } else {
      await sql`create index users_first_prefix on users (lower(first_name))`.execute(db);
      await sql`create index users_last_prefix on users (lower(last_name))`.execute(db);
      await sql`create index users_full_prefix on users (lower(first_name || ' ' || last_name))`.execute(db);
    }
    await db.schema.createIndex('usermedia_images_owner').on('usermedia_images').column('owner_id').execute();
  },
};
