import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db, Dialect } from './database';
import { foundation } from './migrations/001-foundation';
import type { DualMigration } from './migrations/helpers';

/** Every migration in order. Names are permanent: never rename or reorder one that has shipped. */
const MIGRATIONS: Record<string, DualMigration> = {
  '001-foundation': foundation,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, this.dialect) }]),
    );
  }
}

export async function migrateToLatest(db: Db, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
