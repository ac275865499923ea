import '../../app/testing/stub-screens';
import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { anonymousConfiguration, userConfiguration } from '../../app/testing/fake-fetch';
import { startApp } from '../testing/start-app';

function go(path: string) {
  act(() => {
    window.history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
}

async function expectScreen(name: string, props: object) {
  await screen.findByRole('heading', { name: `${name} screen` });
  expect(JSON.parse(screen.getByLabelText('props').textContent ?? '')).toEqual(props);
}

describe('page selection for logged-in users (spec 2.1)', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('hands each screen what its route carries', async () => {
    startApp(userConfiguration({ plugins: ['templates', 'books'] }));
    await expectScreen('documents', { path: '/' });
    const routes: [path: string, screen: string, props: object][] = [
      ['/documents/thesis/drafts/', 'documents', { path: '/thesis/drafts/' }],
      ['/document/thesis/12/', 'editor', { id: '12', path: '/thesis/' }],
      ['/bibliography/', 'bibliography', {}],
      ['/usermedia/', 'usermedia', {}],
      ['/templates/', 'templates', {}],
      ['/templates/5/', 'template-editor', { id: '5' }],
      ['/books/3/chapters/', 'books', { path: '3/chapters/' }],
      ['/user/profile/', 'profile', {}],
      ['/user/contacts/', 'contacts', {}],
      ['/invite/k3y/', 'invite', { inviteKey: 'k3y' }],
      ['/account/confirm-email/c0nfirm/', 'confirm-email', { confirmKey: 'c0nfirm' }],
      ['/account/password-reset/', 'password-reset', {}],
      ['/account/change-password/r3set/', 'change-password', { resetKey: 'r3set' }],
    ];
    for (const [path, name, props] of routes) {
      go(path);
      await expectScreen(name, props);
    }
    expect(window.location.pathname).toBe('/account/change-password/');
    go('/user/settings/');
    expect(await screen.findByRole('heading', { name: 'Error 404' })).toBeTruthy();
  });

  it('treats screens of disabled plugins as unknown routes', async () => {
    window.history.replaceState(null, '', '/templates/');
    startApp(userConfiguration({ plugins: ['books'] }));
    expect(await screen.findByRole('heading', { name: 'Error 404' })).toBeTruthy();
    go('/books/');
    await expectScreen('books', { path: '' });
  });

  it('shows the login page instead of login-only screens to visitors, but not for open screens', async () => {
    window.history.replaceState(null, '', '/user/contacts/');
    startApp({ ...anonymousConfiguration, plugins: ['templates', 'books'] });
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeTruthy();
    expect(window.location.pathname).toBe('/user/contacts/');
    for (const path of ['/', '/documents/a/', '/document/1/', '/usermedia/', '/templates/', '/books/']) {
      go(path);
      expect(screen.getByRole('heading', { name: 'Log in' }), path).toBeTruthy();
    }
    go('/invite/k3y/');
    await expectScreen('invite', { inviteKey: 'k3y' });
    go('/account/password-reset/');
    await expectScreen('password-reset', {});
  });
});
