import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull, refersTo, timestamp, withId } from './helpers';
import { createKeyHashes, keyedBy } from './tables';

/** Password-reset keys, e-mail confirmation keys, social accounts and pending social logins. */
export const accounts: DualMigration = {
  async up(db, dialect) {
    // Only the SHA-256 of a key is stored: a leaked database gives no working links.
    await createKeyHashes(db, dialect, 'password_resets', 'user_id', 'users.id');
    await createKeyHashes(db, dialect, 'email_confirmations', 'email_id', 'user_emails.id');

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
    await keyedBy(db, 'social_states', 'state_hash', 'varchar(64)')
      .addColumn('provider', 'varchar(100)', notNull)
      .addColumn('nonce', 'varchar(100)', notNull)
      .addColumn('code_verifier', 'varchar(200)', notNull)
      // Set when a logged-in user connects an account from the profile page.
      .addColumn('connect_user_id', 'integer', refersTo('users.id', 'cascade'))
      .addColumn('created_at', timestamp, notNull)
      .execute();
  },
};
