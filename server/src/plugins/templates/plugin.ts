import type { ServerPlugin } from '../plugin';
import { templateExportReference } from './export-reference';
import { createTemplates, templateStructure } from './migrations';
import { templatesRoutes } from './routes';

/** The Templates plugin (spec 2.1 and 2.2): PLUGINS=templates. */
export const templatesPlugin: ServerPlugin = {
  name: 'templates',
  routes: templatesRoutes,
  migrations: {
    'plugin-templates-001': createTemplates,
    'plugin-templates-013-structure': templateStructure,
  },
  localeNamespace: 'templates',
  exportReference: templateExportReference,
};
