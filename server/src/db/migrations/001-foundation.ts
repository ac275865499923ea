import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull, refersTo, timestamp, withDefault, withId } from './helpers';
import { keyedBy } from './tables';

/** Users, their e-mail addresses, sessions, login throttling, static pages and feedback. */
export const foundation: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('users'), dialect)
      .addColumn('username', 'varchar(150)', notNull)
      .addColumn('username_lower', 'varchar(150)', (col) => col.notNull().unique())
      .addColumn('first_name', 'varchar(150)', withDefault(''))
      .addColumn('last_name', 'varchar(150)', withDefault(''))
      .addColumn('password_hash', 'text')
      .addColumn('is_staff', 'integer', withDefault(0))
      .addColumn('is_active', 'integer', withDefault(1))
      .addColumn('language', 'varchar(10)')
      .addColumn('avatar', 'text')
      .addColumn('created_at', timestamp, notNull)
      .execute();

    await withId(db.schema.createTable('user_emails'), dialect)
      .addColumn('user_id', 'integer', belongsTo('users.id'))
      .addColumn('address', 'varchar(254)', notNull)
      .addColumn('address_lower', 'varchar(254)', (col) => col.notNull().unique())
      .addColumn('is_primary', 'integer', withDefault(0))
      .addColumn('verified', 'integer', withDefault(0))
      .execute();
    await addIndex(db, 'user_emails_user', 'user_emails', 'user_id');

    await keyedBy(db, 'sessions', 'id_hash', 'varchar(64)')
      .addColumn('user_id', 'integer', belongsTo('users.id'))
      .addColumn('expires_at', timestamp, notNull)
      .addColumn('created_at', timestamp, notNull)
      .execute();
    await addIndex(db, 'sessions_user', 'sessions', 'user_id');

    await keyedBy(db, 'login_attempts', 'scope', 'varchar(200)')
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
      .addColumn('user_id', 'integer', refersTo('users.id', 'set null'))
      .addColumn('message', 'text', notNull)
      .addColumn('created_at', timestamp, notNull)
      .execute();
  },
};
