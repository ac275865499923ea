import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, type Db } from './database';
import { migrateToLatest } from './migrate';

/**
 * For the tests beside the code: a migrated SQLite database in a new temporary folder. `file` is
 * its database file (for a second connection, as another process would open); `remove` closes
 * the database and deletes the folder.
 */
export interface TemporarySqlite {
  db: Db;
  file: string;
  remove(): Promise<void>;
}

export async function temporarySqlite(prefix: string): Promise<TemporarySqlite> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const { db, dialect } = createDatabase({ databaseUrl: undefined, dataDir: dir });
  await migrateToLatest(db, dialect);
  return {
    db,
    file: path.join(dir, 'db.sqlite3'),
    async remove() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
