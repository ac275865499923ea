import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull, refersTo, timestamp, withDefault, withId } from './helpers';

/**
 * Review (issue 18): comment threads and their comments, and revisions of documents.
 *
 * A thread's id is the `comment` mark's id in the document (chosen by the editor that anchored
 * it), unique per document. Revisions keep the whole content at a version: opening a document
 * never reads them, so years of revisions do not slow it down.
 */
export const documentReview: DualMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('document_threads')
      .addColumn('document_id', 'integer', belongsTo('documents.id'))
      .addColumn('thread_id', 'integer', notNull)
      .addColumn('user_id', 'integer', refersTo('users.id', 'set null'))
      .addColumn('resolved', 'integer', withDefault(0))
      .addColumn('assigned_to', 'integer', refersTo('users.id', 'set null'))
      .addColumn('created_at', timestamp, notNull)
      .addPrimaryKeyConstraint('document_threads_pk', ['document_id', 'thread_id'])
      .execute();
    await withId(db.schema.createTable('document_comments'), dialect)
      .addColumn('document_id', 'integer', belongsTo('documents.id'))
      .addColumn('thread_id', 'integer', notNull)
      .addColumn('user_id', 'integer', refersTo('users.id', 'set null'))
      /** The author's name when written: readable after the account is gone. */
      .addColumn('user_name', 'varchar(300)', notNull)
      .addColumn('text', 'text', notNull)
      .addColumn('created_at', timestamp, notNull)
      .addColumn('updated_at', timestamp, notNull)
      .execute();
    await addIndex(db, 'document_comments_thread', 'document_comments', ['document_id', 'thread_id']);
    await withId(db.schema.createTable('document_revisions'), dialect)
      .addColumn('document_id', 'integer', belongsTo('documents.id'))
      .addColumn('version', 'integer', notNull)
      .addColumn('name', 'varchar(200)', notNull)
      .addColumn('auto', 'integer', notNull)
      .addColumn('user_id', 'integer', refersTo('users.id', 'set null'))
      .addColumn('user_name', 'varchar(300)', notNull)
      /** The ProseMirror document at `version`, as JSON text. */
      .addColumn('content', 'text', notNull)
      .addColumn('created_at', timestamp, notNull)
      .execute();
    await addIndex(db, 'document_revisions_document', 'document_revisions', ['document_id', 'created_at']);
  },
};
