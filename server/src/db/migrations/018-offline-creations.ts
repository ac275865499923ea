import type { DualMigration } from './helpers';
import { belongsTo, notNull } from './helpers';
import { createKeyedTable } from './tables';

/**
 * Documents created offline (issue 20): the browser names each creation with a key of its own and
 * sends it with the create call, so that a retry after a lost answer finds the document made the
 * first time instead of making a second one.
 */
export const offlineCreations: DualMigration = {
  async up(db) {
    await createKeyedTable(db, 'document_creation_keys', ['owner_id', 'client_key'], (table) =>
      table
        .addColumn('owner_id', 'integer', belongsTo('users.id'))
        .addColumn('client_key', 'text', notNull)
        .addColumn('document_id', 'integer', belongsTo('documents.id')),
    );
  },
};
