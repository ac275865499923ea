import type { DualMigration } from '../../db/migrations/helpers';
import {
  addColumn,
  addIndex,
  belongsTo,
  notNull,
  timestamp,
  withDefault,
  withId,
} from '../../db/migrations/helpers';
import { addItemDetails, ownedItemsMigration } from '../../db/migrations/tables';

export const createTemplates = ownedItemsMigration('document_templates');

/** 013: a template's definition (JSON), when it was added, whether staff offer it site-wide; export files. */
export const templateStructure: DualMigration = {
  async up(db, dialect) {
    await addItemDetails(db, 'document_templates', ['definition']);
    await addColumn(db, 'document_templates', 'site', 'integer', withDefault(0));
    await withId(db.schema.createTable('template_export_files'), dialect)
      .addColumn('template_id', 'integer', belongsTo('document_templates.id'))
      .addColumn('kind', 'varchar(8)', notNull)
      .addColumn('title', 'varchar(255)', notNull)
      /** The file's name under DATA_DIR/template-files (random, never user input). */
      .addColumn('file_name', 'varchar(64)', notNull)
      .addColumn('size', 'integer', notNull)
      .addColumn('added', timestamp, notNull)
      .execute();
    await addIndex(db, 'template_export_files_template', 'template_export_files', 'template_id');
  },
};
