import { type DualMigration, notNull, timestamp, withId } from '../../db/migrations/helpers';

export const createTemplates: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('document_templates'), dialect)
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'varchar(255)', (col) => col.notNull().defaultTo(''))
      .addColumn('updated', timestamp, notNull)
      .execute();
    await db.schema
      .createIndex('document_templates_owner')
      .on('document_templates')
      .column('owner_id')
      .execute();
  },
};

/** 013: a template's definition (JSON), when it was added, whether staff offer it site-wide; export files. */
export const templateStructure: DualMigration = {
  async up(db, dialect) {
    await db.schema
      .alterTable('document_templates')
      .addColumn('added', timestamp, (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('document_templates')
      .addColumn('definition', 'text', (col) => col.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('document_templates')
      .addColumn('site', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await withId(db.schema.createTable('template_export_files'), dialect)
      .addColumn('template_id', 'integer', (col) =>
        col.notNull().references('document_templates.id').onDelete('cascade'),
      )
      .addColumn('kind', 'varchar(8)', notNull)
      .addColumn('title', 'varchar(255)', notNull)
      /** The file's name under DATA_DIR/template-files (random, never user input). */
      .addColumn('file_name', 'varchar(64)', notNull)
      .addColumn('size', 'integer', notNull)
      .addColumn('added', timestamp, notNull)
      .execute();
    await db.schema
      .createIndex('template_export_files_template')
      .on('template_export_files')
      .column('template_id')
      .execute();
  },
};
