import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull } from './helpers';
import { createKeyedTable } from './tables';

/**
 * Images used in documents (issue 17): which image files (by content hash) a document's figures
 * have shown. The /media/ routes let the authors of a document see the images its figures use,
 * and only those. Rows are added when a step brings a figure in and kept afterwards (an image
 * that was once shown to co-authors stays visible to them, like the step log that holds it).
 */
export const documentImages: DualMigration = {
  async up(db) {
    await createKeyedTable(db, 'document_images', ['document_id', 'sha256'], (table) =>
      table
        .addColumn('document_id', 'integer', belongsTo('documents.id'))
        .addColumn('sha256', 'varchar(64)', notNull),
    );
    await addIndex(db, 'document_images_sha256', 'document_images', 'sha256');
  },
};
