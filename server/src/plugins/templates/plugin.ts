import { type DualMigration, notNull, timestamp, withId } from '../../db/migrations/helpers';
import type { ServerPlugin } from '../plugin';
import { templatesRoutes } from './routes';

const createTemplates: DualMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('document_templates'), dialect)
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'varchar(255)', (col) => col.notNull().defaultTo(''))
      .addColumn('updated', timestamp, notNull)
      .execute();
    await db.schema
      .createIndex('document_templates_owner')
      .on('document_templates')
      .column('owner_id')
      .execute();
  },
};

/** The Templates plugin (spec 2.1 and 2.2): PLUGINS=templates. */
export const templatesPlugin: ServerPlugin = {
  name: 'templates',
  routes: templatesRoutes,
  migrations: { 'plugin-templates-001': createTemplates },
  localeNamespace: 'templates',
};
