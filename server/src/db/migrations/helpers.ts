import type { AlterTableBuilder, ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
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

/** A column every row must fill, with a default for the rows that exist already or omit it. */
export const withDefault =
  (value: string | number) =>
  (col: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    col.notNull().defaultTo(value);

/** A required reference (`table.id`): the row goes when what it belongs to goes. */
export const belongsTo =
  (target: string) =>
  (col: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    col.notNull().references(target).onDelete('cascade');

/** An optional reference (`table.id`) and what happens to it when the referenced row goes. */
export const refersTo =
  (target: string, onDelete: 'cascade' | 'set null') =>
  (col: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    col.references(target).onDelete(onDelete);

/** An index on one column or several, unique if asked. */
export async function addIndex(
  db: Kysely<unknown>,
  name: string,
  table: string,
  columns: string | string[],
  unique = false,
) {
  const index = db.schema
    .createIndex(name)
    .on(table)
    .columns(typeof columns === 'string' ? [columns] : columns);
  await (unique ? index.unique() : index).execute();
}

/** One column added to an existing table (one statement a column: SQLite adds them one by one). */
export async function addColumn(
  db: Kysely<unknown>,
  table: string,
  column: string,
  type: Parameters<AlterTableBuilder['addColumn']>[1],
  build: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder = (col) => col,
) {
  await db.schema.alterTable(table).addColumn(column, type, build).execute();
}
