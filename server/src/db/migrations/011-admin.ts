import { sql } from 'kysely';
import type { DualMigration } from './helpers';
import { addColumn, addIndex, notNull, refersTo, timestamp, withDefault, withId } from './helpers';
import { keyedBy } from './tables';

/**
 * Staff administration: the audit log, site settings kept in the database, feedback marked done,
 * the last login of each user, and the indexes the users table's prefix search runs on.
 */
export const admin: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('audit_log'), dialect)
      // The staff user who acted; the name stays readable after that account is gone.
      .addColumn('actor_id', 'integer', refersTo('users.id', 'set null'))
      .addColumn('actor_name', 'varchar(150)', notNull)
      .addColumn('action', 'varchar(64)', notNull)
      .addColumn('target', 'varchar(300)', withDefault(''))
      /** JSON text: what changed. */
      .addColumn('details', 'text', withDefault('{}'))
      .addColumn('created_at', timestamp, notNull)
      .execute();
    await addIndex(db, 'audit_log_created', 'audit_log', 'created_at');

    await keyedBy(db, 'site_settings', 'key', 'varchar(100)').addColumn('value', 'text', notNull).execute();

    await addColumn(db, 'feedback', 'done_at', timestamp);
    await addColumn(db, 'feedback', 'done_by', 'integer', refersTo('users.id', 'set null'));
    await addIndex(db, 'feedback_created', 'feedback', 'created_at');

    await addColumn(db, 'users', 'last_login_at', timestamp);

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
    await addIndex(db, 'usermedia_images_owner', 'usermedia_images', 'owner_id');
  },
};
