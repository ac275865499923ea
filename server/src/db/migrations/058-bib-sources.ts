import type { DualMigration } from './helpers';
import { addIndex, belongsTo, notNull, refersTo, timestamp, withDefault, withId } from './helpers';

/**
 * Bibliography sources (issue 57): a BibTeX/BibLaTeX/CSL-JSON file at a URL or a Zotero library,
 * synced into a category of its owner's bibliography. `bib_source_entries` ties each entry the
 * source brought to the source's own id of it (a BibTeX key, a CSL id): that is how a later sync
 * finds the entry again, keeps its key and marks it when the source no longer has it (`gone`).
 * The conditional-request state (ETag, Last-Modified, Zotero's library version) is kept per source.
 */
export const bibSources: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('bib_sources'), dialect)
      .addColumn('owner_id', 'integer', belongsTo('users.id'))
      .addColumn('kind', 'varchar(10)', notNull)
      .addColumn('title', 'varchar(200)', notNull)
      .addColumn('url', 'text')
      .addColumn('zotero_library', 'varchar(10)')
      .addColumn('zotero_id', 'varchar(40)')
      .addColumn('zotero_key', 'varchar(100)')
      .addColumn('zotero_collection', 'varchar(40)')
      .addColumn('category_id', 'integer', refersTo('bib_categories.id', 'set null'))
      .addColumn('etag', 'text')
      .addColumn('last_modified_header', 'text')
      .addColumn('library_version', timestamp)
      .addColumn('synced_at', timestamp)
      .addColumn('next_sync_at', timestamp, withDefault(0))
      .addColumn('report', 'text')
      .addColumn('created_at', timestamp, notNull)
      .execute();
    await addIndex(db, 'bib_sources_owner', 'bib_sources', 'owner_id');
    await addIndex(db, 'bib_sources_next_sync', 'bib_sources', 'next_sync_at');

    await withId(db.schema.createTable('bib_source_entries'), dialect)
      .addColumn('source_id', 'integer', belongsTo('bib_sources.id'))
      .addColumn('entry_id', 'integer', belongsTo('bib_entries.id'))
      .addColumn('remote_id', 'varchar(255)', notNull)
      .addColumn('digest', 'varchar(64)', notNull)
      .addColumn('gone', 'integer', withDefault(0))
      .addUniqueConstraint('bib_source_entries_remote', ['source_id', 'remote_id'])
      .execute();
    await addIndex(db, 'bib_source_entries_entry', 'bib_source_entries', 'entry_id');
  },
};
