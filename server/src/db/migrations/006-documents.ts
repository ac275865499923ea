import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull, refersTo, timestamp, withDefault, withId } from './helpers';

/**
 * Documents and their access rights. A right is held by a user, or by a contact invite not yet
 * accepted (invite_id, the contacts module's invite id); on acceptance it passes to the user.
 */
export const documents: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('documents'), dialect)
      .addColumn('owner_id', 'integer', belongsTo('users.id'))
      .addColumn('title', 'varchar(255)', withDefault(''))
      // The owner's path; collaborators keep theirs in document_access.path.
      .addColumn('path', 'varchar(1000)', withDefault(''))
      .addColumn('content', 'text', notNull)
      .addColumn('version', 'integer', withDefault(0))
      .addColumn('created_at', timestamp, notNull)
      .addColumn('updated_at', timestamp, notNull)
      .execute();
    await addIndex(db, 'documents_owner', 'documents', 'owner_id');

    await withId(db.schema.createTable('document_access'), dialect)
      .addColumn('document_id', 'integer', belongsTo('documents.id'))
      .addColumn('user_id', 'integer', refersTo('users.id', 'cascade'))
      .addColumn('invite_id', 'integer', refersTo('user_invites.id', 'cascade'))
      .addColumn('rights', 'varchar(30)', notNull)
      .addColumn('path', 'varchar(1000)', withDefault(''))
      .addColumn('created_at', timestamp, notNull)
      .execute();
    // One right per holder and document (NULLs do not collide on either engine).
    await addIndex(db, 'document_access_user', 'document_access', ['user_id', 'document_id'], true);
    await addIndex(db, 'document_access_invite', 'document_access', ['invite_id', 'document_id'], true);
    await addIndex(db, 'document_access_document', 'document_access', 'document_id');
  },
};
