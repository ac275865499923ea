import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database';

/** A migration is written once and runs on both engines; `dialect` covers the few differences. */
export interface DualMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Auto-incrementing integer primary key on either engine. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (col) => col.primaryKey())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** Millisecond timestamps: bigint (PostgreSQL's integer is 32-bit). */
export const timestamp = 'bigint' as const;

export const notNull = (col: ColumnDefinitionBuilder) => col.notNull();
