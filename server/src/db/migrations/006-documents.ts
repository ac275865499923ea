import type { DualMigration } from './helpers';
import { notNull, timestamp, withId } from './helpers';

/**
 * Documents and their access rights. A right is held by a user, or by a contact invite not yet
 * accepted (invite_id, the contacts module's invite id); on acceptance it passes to the user.
 */
export const documents: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('documents'), dialect)
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'varchar(255)', (col) => col.notNull().defaultTo(''))
      // The owner's path; collaborators keep theirs in document_access.path.
      .addColumn('path', 'varchar(1000)', (col) => col.notNull().defaultTo(''))
      .addColumn('content', 'text', notNull)
      .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', timestamp, notNull)
      .addColumn('updated_at', timestamp, notNull)
      .execute();
    await db.schema.createIndex('documents_owner').on('documents').column('owner_id').execute();

    await withId(db.schema.createTable('document_access'), dialect)
      .addColumn('document_id', 'integer', (col) =>
        col.notNull().references('documents.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('invite_id', 'integer', (col) => col.references('user_invites.id').onDelete('cascade'))
      .addColumn('rights', 'varchar(30)', notNull)
      .addColumn('path', 'varchar(1000)', (col) => col.notNull().defaultTo(''))
      .addColumn('created_at', timestamp, notNull)
      .execute();
    // One right per holder and document (NULLs do not collide on either engine).
    await db.schema
      .createIndex('document_access_user')
      .on('document_access')
      .columns(['user_id', 'document_id'])
      .unique()
      .execute();
    await db.schema
      .createIndex('document_access_invite')
      .on('document_access')
      .columns(['invite_id', 'document_id'])
      .unique()
      .execute();
    await db.schema
      .createIndex('document_access_document')
      .on('document_access')
      .column('document_id')
      .execute();
  },
};
