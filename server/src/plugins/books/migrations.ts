import { type DualMigration, notNull, timestamp, withId } from '../../db/migrations/helpers';

export const createBooks: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('books'), dialect)
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'varchar(255)', (col) => col.notNull().defaultTo(''))
      .addColumn('updated', timestamp, notNull)
      .execute();
    await db.schema.createIndex('books_owner').on('books').column('owner_id').execute();
  },
};

/**
 * 014: metadata and settings (JSON), chapters in order (documents; deleting a document removes its
 * chapter rows), and rights shared with contacts.
 */
export const bookChapters: DualMigration = {
  async up(db, dialect) {
    await db.schema
      .alterTable('books')
      .addColumn('added', timestamp, (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('books')
      .addColumn('metadata', 'text', (col) => col.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('books')
      .addColumn('settings', 'text', (col) => col.notNull().defaultTo(''))
      .execute();
    await withId(db.schema.createTable('book_chapters'), dialect)
      .addColumn('book_id', 'integer', (col) => col.notNull().references('books.id').onDelete('cascade'))
      .addColumn('document_id', 'integer', (col) =>
        col.notNull().references('documents.id').onDelete('cascade'),
      )
      .addColumn('position', 'integer', notNull)
      .addColumn('part', 'varchar(255)', (col) => col.notNull().defaultTo(''))
      .addUniqueConstraint('book_chapters_document', ['book_id', 'document_id'])
      .execute();
    await withId(db.schema.createTable('book_access'), dialect)
      .addColumn('book_id', 'integer', (col) => col.notNull().references('books.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('rights', 'varchar(16)', notNull)
      .addColumn('created_at', timestamp, notNull)
      .addUniqueConstraint('book_access_user', ['book_id', 'user_id'])
      .execute();
    await db.schema.createIndex('book_access_user_id').on('book_access').column('user_id').execute();
    await db.schema
      .createIndex('book_chapters_document_id')
      .on('book_chapters')
      .column('document_id')
      .execute();
  },
};
