import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull, refersTo, timestamp, withId } from './helpers';
import { createKeyedTable } from './tables';

/** Contacts (a connection is stored once per direction) and contact invites. */
export const contacts: DualMigration = {
  async up(db, dialect) {
    // Two rows per connection, (a, b) and (b, a): listing and ownership checks stay one-column filters.
    await createKeyedTable(db, 'contacts', ['user_id', 'contact_id'], (table) =>
      table
        .addColumn('user_id', 'integer', belongsTo('users.id'))
        .addColumn('contact_id', 'integer', belongsTo('users.id'))
        .addColumn('created_at', timestamp, notNull),
    );
    await addIndex(db, 'contacts_contact', 'contacts', 'contact_id');

    await withId(db.schema.createTable('user_invites'), dialect)
      // SHA-256 of the /invite/{key} link key; null once claimed, so a link works once.
      .addColumn('key_hash', 'varchar(64)', (col) => col.unique())
      .addColumn('by_user_id', 'integer', belongsTo('users.id'))
      // Null while the invite waits for someone to claim the address or the link.
      .addColumn('to_user_id', 'integer', refersTo('users.id', 'cascade'))
      // The address the inviter typed; null for invites by username.
      .addColumn('email', 'varchar(254)')
      .addColumn('email_lower', 'varchar(254)')
      .addColumn('created_at', timestamp, notNull)
      .execute();
    // NULLs are distinct in unique indexes on both engines, so pending invites do not collide here.
    await addIndex(db, 'user_invites_by_to', 'user_invites', ['by_user_id', 'to_user_id'], true);
    await addIndex(db, 'user_invites_by_email', 'user_invites', ['by_user_id', 'email_lower'], true);
    await addIndex(db, 'user_invites_to', 'user_invites', 'to_user_id');
    await addIndex(db, 'user_invites_email', 'user_invites', 'email_lower');
  },
};
