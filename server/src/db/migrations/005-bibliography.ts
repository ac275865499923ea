import type { DualMigration } from './helpers';
import { belongsTo, notNull, timestamp, withDefault, withId } from './helpers';
import { createCategories, createOwnerState } from './tables';

/**
 * The bibliography. An entry keeps its converter data as JSON text (fields, cats): the server
 * validates it against the model on the way in and never queries inside it. bib_owner_state
 * holds what the cheap "is my cache current?" check compares, one row per owner.
 */
export const bibliography: DualMigration = {
  async up(db, dialect) {
    await createCategories(db, dialect, 'bib_categories');

    await withId(db.schema.createTable('bib_entries'), dialect)
      .addColumn('owner_id', 'integer', belongsTo('users.id'))
      .addColumn('entry_key', 'varchar(255)', notNull)
      // Lower-cased key: BibTeX keys clash regardless of case, so uniqueness is on this column.
      .addColumn('entry_key_lower', 'varchar(255)', notNull)
      .addColumn('bib_type', 'varchar(50)', notNull)
      .addColumn('fields', 'text', notNull)
      .addColumn('cats', 'text', withDefault('[]'))
      .addColumn('created_at', timestamp, notNull)
      .addColumn('updated_at', timestamp, notNull)
      .addUniqueConstraint('bib_entries_owner_key', ['owner_id', 'entry_key_lower'])
      .execute();

    await createOwnerState(db, 'bib_owner_state', 'number_of_entries');
  },
};
