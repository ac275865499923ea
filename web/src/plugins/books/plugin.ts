import { privateRoute } from '../../app/router/routes';
import { lazyScreen } from '../../app/router/screen';
import type { WebPlugin } from '../plugin';

/** Books (spec 2.1, 2.2): the overview; the address after /books/ is handed to it as it is. */
export const booksPlugin: WebPlugin = {
  name: 'books',
  localeNamespace: 'books',
  header: {
    id: 'books',
    title: 'header',
    ns: 'books',
    path: '/books/',
    keys: 'Alt+O',
    order: 5,
    pages: ['books'],
  },
  routes: [
    { segment: 'books', resolve: (parts) => privateRoute('books', { path: parts.slice(2).join('/') }) },
  ],
  screens: [
    lazyScreen(
      'books',
      () => import('./books-page').then((m) => m.BooksPage),
      (params) => ({ path: params.path ?? '' }),
    ),
  ],
};
