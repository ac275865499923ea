import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull, refersTo, timestamp, withId } from './helpers';

/** Password-reset keys, e-mail confirmation keys, social accounts and pending social logins. */
export const accounts: DualMigration = {
  async up(db, dialect) {
    // Only the SHA-256 of a key is stored: a leaked database gives no working links.
    await withId(db.schema.createTable('password_resets'), dialect)
      .addColumn('key_hash', 'varchar(64)', (col) => col.notNull().unique())
      .addColumn('user_id', 'integer', belongsTo('users.id'))
      .addColumn('created_at', timestamp, notNull)
      .execute();
    await addIndex(db, 'password_resets_user', 'password_resets', 'user_id');

    await withId(db.schema.createTable('email_confirmations'), dialect)
      .addColumn('key_hash', 'varchar(64)', (col) => col.notNull().unique())
      .addColumn('email_id', 'integer', belongsTo('user_emails.id'))
      .addColumn('created_at', timestamp, notNull)
      .execute();
    await addIndex(db, 'email_confirmations_email', 'email_confirmations', 'email_id');

    await withId(db.schema.createTable('social_accounts'), dialect)
      .addColumn('user_id', 'integer', belongsTo('users.id'))
      .addColumn('provider', 'varchar(100)', notNull)
      // The provider's subject identifier: stable, unlike e-mail addresses or names.
      .addColumn('uid', 'varchar(255)', notNull)
      .addColumn('name', 'varchar(255)', notNull)
      .addColumn('created_at', timestamp, notNull)
      .addUniqueConstraint('social_accounts_provider_uid', ['provider', 'uid'])
      .execute();
    await addIndex(db, 'social_accounts_user', 'social_accounts', 'user_id');

    // A login or connect started at a provider: state (hashed), nonce and PKCE verifier wait here.
    await db.schema
      .createTable('social_states')
      .addColumn('state_hash', 'varchar(64)', (col) => col.primaryKey())
      .addColumn('provider', 'varchar(100)', notNull)
      .addColumn('nonce', 'varchar(100)', notNull)
      .addColumn('code_verifier', 'varchar(200)', notNull)
      // Set when a logged-in user connects an account from the profile page.
      .addColumn('connect_user_id', 'integer', refersTo('users.id', 'cascade'))
      .addColumn('created_at', timestamp, notNull)
      .execute();
  },
};
