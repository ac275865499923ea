import { describe, expect, it } from 'vitest';
import { FULL_ROUTE_TABLE, routeFor } from './route-table';

/** The route with its params spread out, to compare with the spec's table at a glance. */
function resolveRoute(pathname: string, state: unknown = null) {
  const { params, ...route } = routeFor(FULL_ROUTE_TABLE, pathname, state);
  return { ...route, ...params };
}

/** Each path resolves to its route, login required or not (a failure names the path). */
function expectRoutes(loginRequired: boolean, table: [string, Record<string, unknown>][]) {
  for (const [path, route] of table) expect(resolveRoute(path), path).toEqual({ ...route, loginRequired });
}

describe('resolveRoute (spec 2.1)', () => {
  it('shows the document overview at the root and for folder paths', () => {
    expectRoutes(true, [
      ['/', { page: 'documents', path: '/' }],
      ['/documents/', { page: 'documents', path: '/' }],
      ['/documents/thesis/chapter%201/', { page: 'documents', path: '/thesis/chapter 1/' }],
    ]);
    expect(resolveRoute('/documents/thesis')).toMatchObject({ page: 'documents', path: '/thesis/' });
  });

  it('splits an editor address into the id (last segment) and the folder path', () => {
    expect(resolveRoute('/document/12/')).toEqual({
      page: 'editor',
      id: '12',
      path: '/',
      loginRequired: true,
    });
    expect(resolveRoute('/document/12')).toMatchObject({ page: 'editor', id: '12', path: '/' });
    expect(resolveRoute('/document/thesis/drafts/12/')).toEqual({
      page: 'editor',
      id: '12',
      path: '/thesis/drafts/',
      loginRequired: true,
    });
    expect(resolveRoute('/document/')).toMatchObject({ page: 'not-found', loginRequired: false });
  });

  it('routes the bibliography, the media manager, the profile and the contacts', () => {
    expectRoutes(true, [
      ['/bibliography/', { page: 'bibliography' }],
      ['/usermedia/', { page: 'usermedia' }],
      ['/user/profile/', { page: 'profile' }],
      ['/user/profile', { page: 'profile' }],
      ['/user/contacts/', { page: 'contacts' }],
    ]);
  });

  it('shows the templates overview below 4 path segments, else the editor for the third segment', () => {
    expectRoutes(true, [
      ['/templates/', { page: 'templates' }],
      ['/templates', { page: 'templates' }],
      // "/templates/7" splits into ['', 'templates', '7']: three segments, still the overview.
      ['/templates/7', { page: 'templates' }],
      ['/templates/7/', { page: 'template-editor', id: '7' }],
      ['/templates/7/extra', { page: 'template-editor', id: '7' }],
    ]);
  });

  it('hands the path after the first two segments to the books app', () => {
    expectRoutes(true, [
      ['/books/', { page: 'books', path: '' }],
      ['/books', { page: 'books', path: '' }],
      ['/books/3/chapters/', { page: 'books', path: '3/chapters/' }],
    ]);
  });

  it('routes the staff area by section; the screen itself answers 404 to all but staff', () => {
    expectRoutes(false, [
      ['/admin/', { page: 'admin', section: 'users' }],
      ['/admin/log/', { page: 'admin', section: 'log' }],
      ['/admin/pages', { page: 'admin', section: 'pages' }],
    ]);
    expect(resolveRoute('/admin/nothing/')).toMatchObject({ page: 'not-found' });
    expect(resolveRoute('/admin/users/12/')).toMatchObject({ page: 'not-found' });
  });

  it('routes the pages that need no login', () => {
    expectRoutes(false, [
      ['/invite/abc123/', { page: 'invite', key: 'abc123' }],
      ['/pages/terms/', { page: 'flatpage', name: 'terms' }],
      ['/pages/privacy', { page: 'flatpage', name: 'privacy' }],
      ['/account/confirm-email/k3y/', { page: 'confirm-email', key: 'k3y' }],
      ['/account/password-reset', { page: 'password-reset' }],
      ['/account/password-reset/', { page: 'password-reset' }],
      ['/account/sign-up', { page: 'sign-up' }],
      ['/account/sign-up/', { page: 'sign-up' }],
    ]);
  });

  it('asks to rewrite a change-password address with a key and keeps the key in history state', () => {
    expect(resolveRoute('/account/change-password/s3cr3t/')).toEqual({
      page: 'change-password',
      key: 's3cr3t',
      loginRequired: false,
      rewrite: { path: '/account/change-password/', state: { changePasswordKey: 's3cr3t' } },
    });
    expect(resolveRoute('/account/change-password/', { changePasswordKey: 's3cr3t' })).toEqual({
      page: 'change-password',
      key: 's3cr3t',
      loginRequired: false,
    });
    expect(resolveRoute('/account/change-password/', null)).toEqual({
      page: 'change-password',
      key: null,
      loginRequired: false,
    });
  });

  it('shows the 404 page for other account and user subpaths and unknown routes', () => {
    for (const path of [
      '/account/',
      '/account',
      '/account/login/',
      '/account/confirm-email/',
      '/user/',
      '/user/settings/',
      '/invite/',
      '/pages/',
      '/nonsense/',
      '/bibliographies/',
      '/media/',
    ]) {
      expect(resolveRoute(path), path).toEqual({ page: 'not-found', loginRequired: false });
    }
  });
});
