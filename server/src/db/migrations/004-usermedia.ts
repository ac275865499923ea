import type { DualMigration } from './helpers';
import { notNull, timestamp, withId } from './helpers';

/**
 * The image library. Files are content-addressed (sha256) on disk; a row per owner and file,
 * unique, so that the same file uploaded twice by one user is one image.
 */
export const usermedia: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('usermedia_images'), dialect)
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'varchar(255)', (col) => col.notNull().defaultTo(''))
      .addColumn('sha256', 'varchar(64)', notNull)
      .addColumn('file_type', 'varchar(50)', notNull)
      .addColumn('width', 'integer', notNull)
      .addColumn('height', 'integer', notNull)
      .addColumn('size', 'integer', notNull)
      .addColumn('copyright_holder', 'varchar(300)', (col) => col.notNull().defaultTo(''))
      .addColumn('licence', 'varchar(50)', (col) => col.notNull().defaultTo(''))
      .addColumn('added', timestamp, notNull)
      .addUniqueConstraint('usermedia_images_owner_file', ['owner_id', 'sha256'])
      .execute();
    // The media route asks "does anybody still own this file?" after deletes.
    await db.schema.createIndex('usermedia_images_sha256').on('usermedia_images').column('sha256').execute();

    await withId(db.schema.createTable('usermedia_categories'), dialect)
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('category_title', 'varchar(255)', notNull)
      .execute();
    await db.schema
      .createIndex('usermedia_categories_owner')
      .on('usermedia_categories')
      .column('owner_id')
      .execute();

    await db.schema
      .createTable('usermedia_image_categories')
      .addColumn('image_id', 'integer', (col) =>
        col.notNull().references('usermedia_images.id').onDelete('cascade'),
      )
      .addColumn('category_id', 'integer', (col) =>
        col.notNull().references('usermedia_categories.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('usermedia_image_categories_pk', ['image_id', 'category_id'])
      .execute();
    await db.schema
      .createIndex('usermedia_image_categories_category')
      .on('usermedia_image_categories')
      .column('category_id')
      .execute();
  },
};
