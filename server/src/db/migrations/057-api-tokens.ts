import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull, timestamp, withId } from './helpers';

/**
 * Personal access tokens (issue 57): a user's tokens for scripts and tools. Only the SHA-256 of
 * a token is stored (the token itself is shown once, at creation); the row goes with its user.
 * `scopes` is a space-separated list of `<area>:<read|write>`.
 */
export const apiTokens: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('api_tokens'), dialect)
      .addColumn('user_id', 'integer', belongsTo('users.id'))
      .addColumn('name', 'varchar(100)', notNull)
      .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
      .addColumn('scopes', 'text', notNull)
      .addColumn('created_at', timestamp, notNull)
      .addColumn('expires_at', timestamp, notNull)
      .addColumn('last_used_at', timestamp)
      .execute();
    await addIndex(db, 'api_tokens_user', 'api_tokens', 'user_id');
  },
};
