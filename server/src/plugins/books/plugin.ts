import { type DualMigration, notNull, timestamp, withId } from '../../db/migrations/helpers';
import type { ServerPlugin } from '../plugin';
import { booksRoutes } from './routes';

const createBooks: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('books'), dialect)
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'varchar(255)', (col) => col.notNull().defaultTo(''))
      .addColumn('updated', timestamp, notNull)
      .execute();
    await db.schema.createIndex('books_owner').on('books').column('owner_id').execute();
  },
};

/** The Books plugin (spec 2.1 and 2.2): PLUGINS=books. */
export const booksPlugin: ServerPlugin = {
  name: 'books',
  routes: booksRoutes,
  migrations: { 'plugin-books-001': createBooks },
  localeNamespace: 'books',
};
