import type { RawConnection } from './connection';
import { quoted } from './connection';

/** One of the site's tables as the database itself describes it. */
export interface SiteTable {
  name: string;
  /** Every column, sorted by name (the order a row is written and checksummed in). */
  columns: string[];
  /** The primary key's columns in key order. */
  primaryKey: string[];
  /** The other tables this one refers to (its foreign keys' targets). */
  parents: string[];
}

/** Kysely's bookkeeping: the target's own migrator writes it; never copied. */
const isBookkeeping = (name: string) => name.startsWith('kysely_');

async function sqliteTables(connection: RawConnection): Promise<SiteTable[]> {
  const names = await connection.query(
    `select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'`,
  );
  const tables: SiteTable[] = [];
  for (const { name } of names) {
    const table = String(name);
    if (isBookkeeping(table)) continue;
    const columns = await connection.query(`select name, pk from pragma_table_info(?)`, [table]);
    const keys = await connection.query(`select "table" as parent from pragma_foreign_key_list(?)`, [table]);
    tables.push({
      name: table,
      columns: columns.map((column) => String(column.name)),
      primaryKey: columns
        .filter((column) => Number(column.pk) > 0)
        .sort((a, b) => Number(a.pk) - Number(b.pk))
        .map((column) => String(column.name)),
      parents: keys.map((key) => String(key.parent)),
    });
  }
  return tables;
}

async function postgresTables(connection: RawConnection): Promise<SiteTable[]> {
  const columns = await connection.query(
    `select c.relname as "table", a.attname as "column",
        coalesce((select k.n from unnest(i.indkey) with ordinality as k(attnum, n) where k.attnum = a.attnum), 0)
          as key_position
      from pg_class c
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_index i on i.indrelid = c.oid and i.indisprimary
      where c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace`,
  );
  const keys = await connection.query(
    `select c.relname as "table", p.relname as parent
      from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and k.connamespace = current_schema()::regnamespace`,
  );
  const tables = new Map<string, SiteTable>();
  const keyPositions = new Map<string, number>();
  for (const row of columns) {
    const name = String(row.table);
    if (isBookkeeping(name)) continue;
    let table = tables.get(name);
    if (!table) {
      table = { name, columns: [], primaryKey: [], parents: [] };
      tables.set(name, table);
    }
    table.columns.push(String(row.column));
    if (Number(row.key_position) > 0) {
      table.primaryKey.push(String(row.column));
      keyPositions.set(`${name}.${row.column}`, Number(row.key_position));
    }
  }
  for (const table of tables.values()) {
    table.primaryKey.sort(
      (a, b) => (keyPositions.get(`${table.name}.${a}`) ?? 0) - (keyPositions.get(`${table.name}.${b}`) ?? 0),
    );
  }
  for (const key of keys) tables.get(String(key.table))?.parents.push(String(key.parent));
  return [...tables.values()];
}

/**
 * The site's tables read from the database's own catalog (so a table a new migration adds is
 * moved without anyone listing it), parents before the tables that refer to them, ties by name.
 * A table's reference to itself does not order it (its rows go in key order).
 */
export async function siteTables(connection: RawConnection): Promise<SiteTable[]> {
  const found =
    connection.dialect === 'sqlite' ? await sqliteTables(connection) : await postgresTables(connection);
  for (const table of found) {
    table.columns.sort();
    table.parents = [...new Set(table.parents)].filter((parent) => parent !== table.name).sort();
    if (table.primaryKey.length === 0) throw new Error(`The table ${table.name} has no primary key.`);
  }
  return inDependencyOrder(found);
}

/** Tables sorted so that every table comes after the tables it refers to (Kahn's algorithm). */
export function inDependencyOrder(tables: SiteTable[]): SiteTable[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const placed = new Set<string>();
  const ordered: SiteTable[] = [];
  const remaining = [...tables].sort((a, b) => a.name.localeCompare(b.name));
  while (remaining.length > 0) {
    const index = remaining.findIndex((table) =>
      table.parents.every((parent) => placed.has(parent) || !byName.has(parent)),
    );
    if (index < 0) {
      throw new Error(
        `The tables ${remaining.map((table) => table.name).join(', ')} refer to each other in a cycle.`,
      );
    }
    const [next] = remaining.splice(index, 1);
    placed.add(next.name);
    ordered.push(next);
  }
  return ordered;
}

/** `order by` of a table's primary key. */
export function keyOrder(table: SiteTable): string {
  return table.primaryKey.map(quoted).join(', ');
}
