import type { DualMigration } from './helpers';
import { addColumn, belongsTo, notNull, refersTo, timestamp, withDefault } from './helpers';
import { createKeyedTable } from './tables';

/**
 * The collaboration step log (issue 16). Every confirmed diff is in document_steps before it is
 * confirmed: (document, version) -> step. documents.content is a snapshot at content_version,
 * refreshed every few hundred steps; the document at documents.version is that snapshot plus the
 * steps after it. The primary key on (document, version) is what orders two processes' diffs.
 */
export const documentSteps: DualMigration = {
  async up(db) {
    await createKeyedTable(db, 'document_steps', ['document_id', 'version'], (table) =>
      table
        .addColumn('document_id', 'integer', belongsTo('documents.id'))
        .addColumn('version', 'integer', notNull)
        /** Step.toJSON() as JSON text. */
        .addColumn('step', 'text', notNull)
        /** The editor (transport session) that sent it: prosemirror-collab's clientID. */
        .addColumn('client_id', 'varchar(64)', notNull)
        .addColumn('user_id', 'integer', refersTo('users.id', 'set null'))
        .addColumn('created_at', timestamp, notNull),
    );
    await addColumn(db, 'documents', 'content_version', 'integer', withDefault(0));
  },
};
