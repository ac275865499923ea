import type { DualMigration } from '../../db/migrations/helpers';
import { addIndex, belongsTo, notNull, timestamp, withDefault, withId } from '../../db/migrations/helpers';
import { addItemDetails, ownedItemsMigration } from '../../db/migrations/tables';

export const createBooks = ownedItemsMigration('books');

/**
 * 014: metadata and settings (JSON), chapters in order (documents; deleting a document removes its
 * chapter rows), and rights shared with contacts.
 */
export const bookChapters: DualMigration = {
  async up(db, dialect) {
    await addItemDetails(db, 'books', ['metadata', 'settings']);
    await withId(db.schema.createTable('book_chapters'), dialect)
      .addColumn('book_id', 'integer', belongsTo('books.id'))
      .addColumn('document_id', 'integer', belongsTo('documents.id'))
      .addColumn('position', 'integer', notNull)
      .addColumn('part', 'varchar(255)', withDefault(''))
      .addUniqueConstraint('book_chapters_document', ['book_id', 'document_id'])
      .execute();
    await withId(db.schema.createTable('book_access'), dialect)
      .addColumn('book_id', 'integer', belongsTo('books.id'))
      .addColumn('user_id', 'integer', belongsTo('users.id'))
      .addColumn('rights', 'varchar(16)', notNull)
      .addColumn('created_at', timestamp, notNull)
      .addUniqueConstraint('book_access_user', ['book_id', 'user_id'])
      .execute();
    await addIndex(db, 'book_access_user_id', 'book_access', 'user_id');
    await addIndex(db, 'book_chapters_document_id', 'book_chapters', 'document_id');
  },
};
