import { describe, expect, it } from 'vitest';
import { findDuplicateBindings } from '../../actions/registry';
import { headerActions } from '../shell/header-actions';
import { FULL_ROUTE_TABLE, routeFor, routeTable } from './route-table';

describe('route table with and without plugins (spec 2.1, 2.2)', () => {
  it('holds the plugins that are on: their header items in spec order and their addresses', () => {
    const table = routeTable(['templates', 'books']);
    expect(table.headerItems.map((item) => [item.path, item.keys, item.order])).toEqual([
      ['/', 'Alt+D', 1],
      ['/bibliography/', 'Alt+B', 2],
      ['/usermedia/', 'Alt+M', 3],
      ['/templates/', 'Alt+T', 4],
      ['/books/', 'Alt+O', 5],
    ]);
    expect(routeFor(table, '/templates/7/').page).toBe('template-editor');
    expect(routeFor(table, '/books/3/').params).toEqual({ path: '3/' });
    expect(table.screens.has('books')).toBe(true);
  });

  it('leaves out a plugin that is off: no header item, its addresses are unknown, no screen', () => {
    const table = routeTable(['books']);
    expect(table.headerItems.map((item) => item.id)).toEqual([
      'documents',
      'bibliography',
      'usermedia',
      'books',
    ]);
    expect(routeFor(table, '/templates/').page).toBe('not-found');
    expect(routeFor(table, '/templates/7/').page).toBe('not-found');
    expect(table.screens.has('templates')).toBe(false);
    expect(table.screens.has('template-editor')).toBe(false);
    const none = routeTable([]);
    expect(none.headerItems).toHaveLength(3);
    expect(routeFor(none, '/books/').page).toBe('not-found');
  });

  it('gives every route a screen', () => {
    const table = routeTable(['templates', 'books']);
    for (const path of [
      '/',
      '/document/1/',
      '/bibliography/',
      '/usermedia/',
      '/user/profile/',
      '/user/contacts/',
      '/invite/k/',
      '/pages/terms/',
      '/account/confirm-email/k/',
      '/account/password-reset/',
      '/account/change-password/',
      '/account/sign-up/',
      '/templates/',
      '/templates/7/',
      '/books/',
      '/nope/',
    ]) {
      expect(table.screens.has(routeFor(table, path).page), path).toBe(true);
    }
  });

  it('gives every header item its own Alt shortcut, plugins included', () => {
    expect(findDuplicateBindings(headerActions(FULL_ROUTE_TABLE.headerItems))).toEqual([]);
  });
});
