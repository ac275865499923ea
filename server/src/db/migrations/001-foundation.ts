import type { DualMigration } from './helpers';
import { notNull, timestamp, withId } from './helpers';

/** Users, their e-mail addresses, sessions, login throttling, static pages and feedback. */
export const foundation: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('users'), dialect)
      .addColumn('username', 'varchar(150)', notNull)
      .addColumn('username_lower', 'varchar(150)', (col) => col.notNull().unique())
      .addColumn('first_name', 'varchar(150)', (col) => col.notNull().defaultTo(''))
      .addColumn('last_name', 'varchar(150)', (col) => col.notNull().defaultTo(''))
      .addColumn('password_hash', 'text')
      .addColumn('is_staff', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('is_active', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('language', 'varchar(10)')
      .addColumn('avatar', 'text')
      .addColumn('created_at', timestamp, notNull)
      .execute();

    await withId(db.schema.createTable('user_emails'), dialect)
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('address', 'varchar(254)', notNull)
      .addColumn('address_lower', 'varchar(254)', (col) => col.notNull().unique())
      .addColumn('is_primary', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('verified', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('user_emails_user').on('user_emails').column('user_id').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'varchar(64)', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', timestamp, notNull)
      .addColumn('created_at', timestamp, notNull)
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('login_attempts')
      .addColumn('scope', 'varchar(200)', (col) => col.primaryKey())
      .addColumn('failures', 'integer', notNull)
      .addColumn('last_failure_at', timestamp, notNull)
      .addColumn('locked_until', timestamp, notNull)
      .execute();

    await withId(db.schema.createTable('flatpages'), dialect)
      .addColumn('url', 'varchar(200)', (col) => col.notNull().unique())
      .addColumn('title', 'varchar(200)', notNull)
      .addColumn('content', 'text', notNull)
      .execute();

    await withId(db.schema.createTable('feedback'), dialect)
      .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('message', 'text', notNull)
      .addColumn('created_at', timestamp, notNull)
      .execute();
  },
};
