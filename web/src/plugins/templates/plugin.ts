import { decodeSegment, privateRoute } from '../../app/router/routes';
import { lazyScreen, noProps } from '../../app/router/screen';
import type { WebPlugin } from '../plugin';

/** Templates (spec 2.1, 2.2): the overview, and a template editor for /templates/{id}/. */
export const templatesPlugin: WebPlugin = {
  name: 'templates',
  localeNamespace: 'templates',
  header: {
    id: 'templates',
    title: 'header',
    ns: 'templates',
    path: '/templates/',
    keys: 'Alt+T',
    order: 4,
    pages: ['templates', 'template-editor'],
  },
  routes: [
    {
      segment: 'templates',
      // Fewer than 4 segments ('/templates/7' is 3) is the overview.
      resolve: (parts) =>
        parts.length < 4 || parts[2] === ''
          ? privateRoute('templates')
          : privateRoute('template-editor', { id: decodeSegment(parts[2]) }),
    },
  ],
  screens: [
    lazyScreen('templates', () => import('./templates-page').then((m) => m.TemplatesPage), noProps),
    lazyScreen(
      'template-editor',
      () => import('./template-editor-page').then((m) => m.TemplateEditorPage),
      (params) => ({ id: params.id ?? '' }),
    ),
  ],
};
