import type { Configuration } from '@scriptorium/common/api/base';
import type { RoutePage } from '../router/routes';

export interface NavigationItem {
  id: 'documents' | 'bibliography' | 'usermedia' | 'templates' | 'books';
  /** i18n key in the `web` namespace. */
  label: string;
  path: string;
  /** KeyboardEvent.code of the Alt shortcut: the physical key, so it works on every keyboard layout. */
  code: string;
  /** The letter shown in hints and aria-keyshortcuts. */
  letter: string;
  /** Screens that count as this section for aria-current. */
  pages: readonly RoutePage[];
  plugin?: Configuration['plugins'][number];
}

/** Spec 2.2, in header order; Templates (order 4) and Books (order 5) are plugin items. */
const ALL_ITEMS: readonly NavigationItem[] = [
  {
    id: 'documents',
    label: 'header.documents',
    path: '/',
    code: 'KeyD',
    letter: 'd',
    pages: ['documents', 'editor'],
  },
  {
    id: 'bibliography',
    label: 'header.bibliography',
    path: '/bibliography/',
    code: 'KeyB',
    letter: 'b',
    pages: ['bibliography'],
  },
  {
    id: 'usermedia',
    label: 'header.images',
    path: '/usermedia/',
    code: 'KeyM',
    letter: 'm',
    pages: ['usermedia'],
  },
  {
    id: 'templates',
    label: 'header.templates',
    path: '/templates/',
    code: 'KeyT',
    letter: 't',
    pages: ['templates', 'template-editor'],
    plugin: 'templates',
  },
  {
    id: 'books',
    label: 'header.books',
    path: '/books/',
    code: 'KeyO',
    letter: 'o',
    pages: ['books'],
    plugin: 'books',
  },
];

/** The header items for the enabled plugins. */
export function navigationItems(plugins: Configuration['plugins']): NavigationItem[] {
  return ALL_ITEMS.filter((item) => !item.plugin || plugins.includes(item.plugin));
}

/** Whether a plugin screen is enabled; screens of disabled plugins are unknown routes. */
export function isPageEnabled(page: RoutePage, plugins: Configuration['plugins']): boolean {
  const owner = ALL_ITEMS.find((item) => item.plugin && item.pages.includes(page));
  return !owner?.plugin || plugins.includes(owner.plugin);
}
