import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { pluginMigrations } from '../plugins/registry';
import type { Db, Dialect } from './database';
import { foundation } from './migrations/001-foundation';
import { accounts } from './migrations/002-accounts';
import { contacts } from './migrations/003-contacts';
import { usermedia } from './migrations/004-usermedia';
import { bibliography } from './migrations/005-bibliography';
import { documents } from './migrations/006-documents';
import { documentSteps } from './migrations/008-document-steps';
import { documentImages } from './migrations/009-document-images';
import { documentReview } from './migrations/010-document-review';
import { admin } from './migrations/011-admin';
import { fastPaths } from './migrations/012-fast-paths';
import { offlineCreations } from './migrations/018-offline-creations';
import { userSearchNames } from './migrations/019-user-search-names';
import { userSearchFolded } from './migrations/020-user-search-folded';
import { apiTokens } from './migrations/057-api-tokens';
import { bibSources } from './migrations/058-bib-sources';
import type { DualMigration } from './migrations/helpers';

/** Every migration in order. Names are permanent: never rename or reorder one that has shipped. */
const MIGRATIONS: Record<string, DualMigration> = {
  '001-foundation': foundation,
  '002-accounts': accounts,
  '003-contacts': contacts,
  '004-usermedia': usermedia,
  '005-bibliography': bibliography,
  '006-documents': documents,
  '008-document-steps': documentSteps,
  '009-document-images': documentImages,
  '010-document-review': documentReview,
  '011-admin': admin,
  '012-fast-paths': fastPaths,
  '018-offline-creations': offlineCreations,
  '019-user-search-names': userSearchNames,
  '020-user-search-folded': userSearchFolded,
  '057-api-tokens': apiTokens,
  '058-bib-sources': bibSources,
  ...pluginMigrations(),
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, m]) => [
        name,
        { up: (db: Kysely<unknown>) => m.up(db, this.dialect) },
      ]),
    );
  }
}

export async function migrateToLatest(db: Db, dialect: Dialect): Promise<void> {
  // Areas migrate independently (002-accounts may arrive after 006 on a developer database).
  const migrator = new Migrator({
    db,
    provider: new StaticProvider(dialect),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
