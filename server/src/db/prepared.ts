import { type Compilable, type CompiledQuery, type Kysely, PostgresAdapter } from 'kysely';
import { directReader } from './database';
import type { Database } from './schema';

/**
 * A query of fixed shape, built and compiled once per database; each call runs the same SQL with
 * its own arguments. Building and compiling a Kysely query costs 15-80 µs (the JSON subqueries of
 * the configuration most), more than SQLite takes to answer it: on the paths every page start
 * takes (session lookup, configuration, the unchanged checks) that was most of the database time.
 *
 * `build` receives placeholders, one per argument, and must use each only as a value (never to
 * choose the query's shape); the compiled parameters that are placeholders are replaced by the
 * call's arguments, the others (constants of the query) stay. On SQLite a read runs on the
 * connection directly when it is free (`directReader`): Kysely's queue cost more than the query.
 */
export function preparedQuery<Row, Args extends unknown[]>(
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: Kysely<Database>, ...args: Args) => Promise<Row[]> {
  const placeholders = Array.from(
    { length: build.length - 1 },
    (_, index) => `\u0000prepared-argument-${index}\u0000`,
  );
  const byDatabase = new WeakMap<Kysely<Database>, { compiled: CompiledQuery<Row>; slots: number[] }>();
  return async (db, ...args) => {
    let entry = byDatabase.get(db);
    if (!entry) {
      const compiled = build(db, ...(placeholders as Args)).compile();
      const slots = compiled.parameters.map((value) => placeholders.indexOf(value as string));
      entry = { compiled, slots };
      byDatabase.set(db, entry);
    }
    const { compiled, slots } = entry;
    const parameters = slots.map((slot, index) => (slot >= 0 ? args[slot] : compiled.parameters[index]));
    const rows = directReader(db)?.(compiled.sql, parameters);
    if (rows) return rows as Row[];
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}

/** Which engine a Kysely instance talks to (queries whose SQL differs per engine). */
export function dialectOf(db: Kysely<Database>): 'postgres' | 'sqlite' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
