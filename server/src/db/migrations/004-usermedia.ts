import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull, timestamp, withDefault, withId } from './helpers';
import { createCategories } from './tables';

/**
 * The image library. Files are content-addressed (sha256) on disk; a row per owner and file,
 * unique, so that the same file uploaded twice by one user is one image.
 */
export const usermedia: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('usermedia_images'), dialect)
      .addColumn('owner_id', 'integer', belongsTo('users.id'))
      .addColumn('title', 'varchar(255)', withDefault(''))
      .addColumn('sha256', 'varchar(64)', notNull)
      .addColumn('file_type', 'varchar(50)', notNull)
      .addColumn('width', 'integer', notNull)
      .addColumn('height', 'integer', notNull)
      .addColumn('size', 'integer', notNull)
      .addColumn('copyright_holder', 'varchar(300)', withDefault(''))
      .addColumn('licence', 'varchar(50)', withDefault(''))
      .addColumn('added', timestamp, notNull)
      .addUniqueConstraint('usermedia_images_owner_file', ['owner_id', 'sha256'])
      .execute();
    // The media route asks "does anybody still own this file?" after deletes.
    await addIndex(db, 'usermedia_images_sha256', 'usermedia_images', 'sha256');

    await createCategories(db, dialect, 'usermedia_categories');

    await db.schema
      .createTable('usermedia_image_categories')
      .addColumn('image_id', 'integer', belongsTo('usermedia_images.id'))
      .addColumn('category_id', 'integer', belongsTo('usermedia_categories.id'))
      .addPrimaryKeyConstraint('usermedia_image_categories_pk', ['image_id', 'category_id'])
      .execute();
    await addIndex(db, 'usermedia_image_categories_category', 'usermedia_image_categories', 'category_id');
  },
};
