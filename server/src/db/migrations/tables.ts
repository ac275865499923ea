import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DualMigration } from './helpers';
import { addColumn, addIndex, belongsTo, notNull, timestamp, withDefault, withId } from './helpers';

type ColumnType = Parameters<CreateTableBuilder<string>['addColumn']>[1];

/** Whole tables, or their start, of a kind several migrations create (helpers.ts has the columns). */

/** A table keyed by one column of its own (a hash, a name) instead of an id. */
export function keyedBy(db: Kysely<unknown>, table: string, column: string, type: ColumnType) {
  return db.schema.createTable(table).addColumn(column, type, (col) => col.primaryKey());
}

/** A table keyed by several of its columns (the constraint `<table>_pk`); `columns` adds them all. */
export async function createKeyedTable(
  db: Kysely<unknown>,
  table: string,
  key: string[],
  columns: (table: CreateTableBuilder<string, never>) => CreateTableBuilder<string, string>,
) {
  await columns(db.schema.createTable(table)).addPrimaryKeyConstraint(`${table}_pk`, key).execute();
}

/** A plugin's per-user item table (books, templates): id, owner, title, last change; indexed by owner. */
export async function createOwnedItems(db: Kysely<unknown>, dialect: Dialect, table: string) {
  await withId(db.schema.createTable(table), dialect)
    .addColumn('owner_id', 'integer', belongsTo('users.id'))
    .addColumn('title', 'varchar(255)', withDefault(''))
    .addColumn('updated', timestamp, notNull)
    .execute();
  await addIndex(db, `${table}_owner`, table, 'owner_id');
}

/** A per-user item table's migration (the plugins' first): createOwnedItems on `table`. */
export function ownedItemsMigration(table: string): DualMigration {
  return {
    async up(db, dialect) {
      await createOwnedItems(db, dialect, table);
    },
  };
}

/** An owner's categories (images, bibliography): id, owner, title; indexed by owner. */
export async function createCategories(db: Kysely<unknown>, dialect: Dialect, table: string) {
  await withId(db.schema.createTable(table), dialect)
    .addColumn('owner_id', 'integer', belongsTo('users.id'))
    .addColumn('category_title', 'varchar(255)', notNull)
    .execute();
  await addIndex(db, `${table}_owner`, table, 'owner_id');
}

/**
 * What an owner's cheap "is my cache current?" check compares (bibliography, images), one row per
 * owner: the stamp of the last change and the number of items (`countColumn`).
 */
export async function createOwnerState(db: Kysely<unknown>, table: string, countColumn: string) {
  await db.schema
    .createTable(table)
    .addColumn('owner_id', 'integer', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('last_modified', timestamp, notNull)
    .addColumn(countColumn, 'integer', notNull)
    .execute();
}

/**
 * One-time keys sent by mail (password reset, address confirmation): only the SHA-256 of a key is
 * stored, with the row it is for (`column`, a reference to `target`); indexed by that row (the
 * index `<table>_<column less _id>`).
 */
export async function createKeyHashes(
  db: Kysely<unknown>,
  dialect: Dialect,
  table: string,
  column: string,
  target: string,
) {
  await withId(db.schema.createTable(table), dialect)
    .addColumn('key_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn(column, 'integer', belongsTo(target))
    .addColumn('created_at', timestamp, notNull)
    .execute();
  await addIndex(db, `${table}_${column.replace(/_id$/, '')}`, table, column);
}

/** A plugin item table's details: when each item was added, and its JSON text columns (default ''). */
export async function addItemDetails(db: Kysely<unknown>, table: string, jsonColumns: string[]) {
  await addColumn(db, table, 'added', timestamp, withDefault(0));
  for (const column of jsonColumns) await addColumn(db, table, column, 'text', withDefault(''));
}
