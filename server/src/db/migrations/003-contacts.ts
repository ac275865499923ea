import type { DualMigration } from './helpers';
import { notNull, timestamp, withId } from './helpers';

/** Contacts (a connection is stored once per direction) and contact invites. */
export const contacts: DualMigration = {
  async up(db, dialect) {
    // Two rows per connection, (a, b) and (b, a): listing and ownership checks stay one-column filters.
    await db.schema
      .createTable('contacts')
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('contact_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', timestamp, notNull)
      .addPrimaryKeyConstraint('contacts_pk', ['user_id', 'contact_id'])
      .execute();
    await db.schema.createIndex('contacts_contact').on('contacts').column('contact_id').execute();

    await withId(db.schema.createTable('user_invites'), dialect)
      // SHA-256 of the /invite/{key} link key; null once claimed, so a link works once.
      .addColumn('key_hash', 'varchar(64)', (col) => col.unique())
      .addColumn('by_user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      // Null while the invite waits for someone to claim the address or the link.
      .addColumn('to_user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
      // The address the inviter typed; null for invites by username.
      .addColumn('email', 'varchar(254)')
      .addColumn('email_lower', 'varchar(254)')
      .addColumn('created_at', timestamp, notNull)
      .execute();
    // NULLs are distinct in unique indexes on both engines, so pending invites do not collide here.
    await db.schema
      .createIndex('user_invites_by_to')
      .on('user_invites')
      .columns(['by_user_id', 'to_user_id'])
      .unique()
      .execute();
    await db.schema
      .createIndex('user_invites_by_email')
      .on('user_invites')
      .columns(['by_user_id', 'email_lower'])
      .unique()
      .execute();
    await db.schema.createIndex('user_invites_to').on('user_invites').column('to_user_id').execute();
    await db.schema.createIndex('user_invites_email').on('user_invites').column('email_lower').execute();
  },
};
