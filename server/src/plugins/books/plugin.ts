import { registerContactRemovedHook, removeRightsHook } from '../../modules/contacts/hooks';
import type { ServerPlugin } from '../plugin';
import { bookChapters, createBooks } from './migrations';
import type { BooksTables } from './queries';
import { booksRoutes } from './routes';

/** The Books plugin (spec 2.1 and 2.2): PLUGINS=books. */
export const booksPlugin: ServerPlugin = {
  name: 'books',
  routes: (ctx) => {
    // Removing a contact removes the book rights between the two, as it does for documents.
    registerContactRemovedHook(
      'books',
      removeRightsHook<BooksTables>({ access: 'book_access', item: 'book_id', items: 'books' }),
    );
    return booksRoutes(ctx);
  },
  migrations: { 'plugin-books-001': createBooks, 'plugin-books-014-chapters': bookChapters },
  localeNamespace: 'books',
};
