import { describe, expect, it } from 'vitest';
import { FULL_ROUTE_TABLE, routeFor } from './route-table';

/** The route with its params spread out, to compare with the spec's table at a glance. */
function resolveRoute(pathname: string, state: unknown = null) {
  const { params, ...route } = routeFor(FULL_ROUTE_TABLE, pathname, state);
  return { ...route, ...params };
}

describe('resolveRoute (spec 2.1)', () => {
  it('shows the document overview at the root and for folder paths', () => {
    expect(resolveRoute('/')).toEqual({ page: 'documents', path: '/', loginRequired: true });
    expect(resolveRoute('/documents/')).toEqual({ page: 'documents', path: '/', loginRequired: true });
    expect(resolveRoute('/documents/thesis/chapter%201/')).toEqual({
      page: 'documents',
      path: '/thesis/chapter 1/',
      loginRequired: true,
    });
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
    expect(resolveRoute('/bibliography/')).toEqual({ page: 'bibliography', loginRequired: true });
    expect(resolveRoute('/usermedia/')).toEqual({ page: 'usermedia', loginRequired: true });
    expect(resolveRoute('/user/profile/')).toEqual({ page: 'profile', loginRequired: true });
    expect(resolveRoute('/user/profile')).toEqual({ page: 'profile', loginRequired: true });
    expect(resolveRoute('/user/contacts/')).toEqual({ page: 'contacts', loginRequired: true });
  });

  it('shows the templates overview below 4 path segments, else the editor for the third segment', () => {
    expect(resolveRoute('/templates/')).toEqual({ page: 'templates', loginRequired: true });
    expect(resolveRoute('/templates')).toEqual({ page: 'templates', loginRequired: true });
    // "/templates/7" splits into ['', 'templates', '7']: three segments, still the overview.
    expect(resolveRoute('/templates/7')).toEqual({ page: 'templates', loginRequired: true });
    expect(resolveRoute('/templates/7/')).toEqual({ page: 'template-editor', id: '7', loginRequired: true });
    expect(resolveRoute('/templates/7/extra')).toEqual({
      page: 'template-editor',
      id: '7',
      loginRequired: true,
    });
  });

  it('hands the path after the first two segments to the books app', () => {
    expect(resolveRoute('/books/')).toEqual({ page: 'books', path: '', loginRequired: true });
    expect(resolveRoute('/books')).toEqual({ page: 'books', path: '', loginRequired: true });
    expect(resolveRoute('/books/3/chapters/')).toEqual({
      page: 'books',
      path: '3/chapters/',
      loginRequired: true,
    });
  });

  it('routes the staff area by section; the screen itself answers 404 to all but staff', () => {
    expect(resolveRoute('/admin/')).toEqual({ page: 'admin', section: 'users', loginRequired: false });
    expect(resolveRoute('/admin/log/')).toEqual({ page: 'admin', section: 'log', loginRequired: false });
    expect(resolveRoute('/admin/pages')).toEqual({ page: 'admin', section: 'pages', loginRequired: false });
    expect(resolveRoute('/admin/nothing/')).toMatchObject({ page: 'not-found' });
    expect(resolveRoute('/admin/users/12/')).toMatchObject({ page: 'not-found' });
  });

  it('routes the pages that need no login', () => {
    expect(resolveRoute('/invite/abc123/')).toEqual({ page: 'invite', key: 'abc123', loginRequired: false });
    expect(resolveRoute('/pages/terms/')).toEqual({ page: 'flatpage', name: 'terms', loginRequired: false });
    expect(resolveRoute('/pages/privacy')).toEqual({
      page: 'flatpage',
      name: 'privacy',
      loginRequired: false,
    });
    expect(resolveRoute('/account/confirm-email/k3y/')).toEqual({
      page: 'confirm-email',
      key: 'k3y',
      loginRequired: false,
    });
    expect(resolveRoute('/account/password-reset')).toEqual({ page: 'password-reset', loginRequired: false });
    expect(resolveRoute('/account/password-reset/')).toEqual({
      page: 'password-reset',
      loginRequired: false,
    });
    expect(resolveRoute('/account/sign-up')).toEqual({ page: 'sign-up', loginRequired: false });
    expect(resolveRoute('/account/sign-up/')).toEqual({ page: 'sign-up', loginRequired: false });
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
