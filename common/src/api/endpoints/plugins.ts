import { bookListResponse } from '../../plugins/books-api';
import { templateListResponse } from '../../plugins/templates-api';
import { endpoint } from '../endpoint';

/** /api/templates/ (the Templates plugin, spec 2.1 and 2.2): answers only while the plugin is on. */
export const templatesApi = {
  list: endpoint({ method: 'GET', path: '/api/templates/list/', response: templateListResponse }),
};

/** /api/books/ (the Books plugin, spec 2.1 and 2.2): answers only while the plugin is on. */
export const booksApi = {
  list: endpoint({ method: 'GET', path: '/api/books/list/', response: bookListResponse }),
};
