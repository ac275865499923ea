import { sql } from 'kysely';
import type { DualMigration } from './helpers';
import { addIndex } from './helpers';
import { createOwnerState } from './tables';

/**
 * Fast paths (issue 23).
 * - usermedia_owner_state: per owner, the stamp of the last change to the image library (images,
 *   their categories) and the number of images: what the cheap "is my image cache current?" check
 *   compares, like bib_owner_state. Filled for the libraries that exist already.
 * - documents_owner_listing: the overview's columns of an owner's documents in the index itself,
 *   so that the list never reads the rows (whose content can be large); SQLite only.
 */
export const fastPaths: DualMigration = {
  async up(db, dialect) {
    await createOwnerState(db, 'usermedia_owner_state', 'number_of_images');
    await sql`insert into usermedia_owner_state (owner_id, last_modified, number_of_images)
      select owner_id, max(added), count(*) from usermedia_images group by owner_id`.execute(db);
    // SQLite only: PostgreSQL keeps large content out of line (TOAST) already, and its index
    // entries are limited to about 2.7 kB, which a long title and path could pass.
    if (dialect !== 'sqlite') return;
    await addIndex(db, 'documents_owner_listing', 'documents', [
      'owner_id',
      'id',
      'title',
      'path',
      'created_at',
      'updated_at',
    ]);
  },
};
