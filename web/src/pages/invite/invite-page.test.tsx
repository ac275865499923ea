import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { anonymousConfiguration, json, route, userConfiguration } from '../../app/testing/fake-fetch';
import { startApp } from '../../root/testing/start-app';
import { INVITE_KEY_STORAGE } from './invite-key';

const CLAIM = route(contactsApi.claim);
const LIST = route(contactsApi.list);
const inviter = { id: 3, type: 'to_userinvite', name: 'Grace Hopper', email: 'grace@example.org' };

// Each test loads the app and its page chunks; the first load in a run is slow.
describe('invite page (spec 2.3)', { timeout: 30000 }, () => {
  beforeEach(() => {
    sessionStorage.clear();
    window.history.replaceState(null, '', '/invite/k3y-from-mail');
  });

  it('claims the invite when logged in, rewrites the address to the redirect and shows that page', async () => {
    const server = startApp(userConfiguration(), {
      [CLAIM]: json({ redirect: '/user/contacts/' }),
      [LIST]: json({ contacts: [inviter] }),
    });
    expect(await screen.findByText('Grace Hopper', {}, { timeout: 10000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/user/contacts/');
    const claims = server.requests.filter((r) => `${r.method} ${r.url}` === CLAIM);
    expect(claims.map((r) => r.body?.get('key'))).toEqual(['k3y-from-mail']);
  });

  it('goes home for an unknown or used key', async () => {
    startApp(userConfiguration(), { [CLAIM]: json({ redirect: '/' }) });
    await waitFor(() => expect(window.location.pathname).toBe('/'), { timeout: 10000 });
  });

  it('keeps the key and shows the login page to visitors, then claims right after the login', async () => {
    const server = startApp([json(anonymousConfiguration), json(userConfiguration({}))], {
      [route(userApi.login)]: json({ location: '/' }),
      [CLAIM]: json({ redirect: '/user/contacts/' }),
      [LIST]: json({ contacts: [inviter] }),
    });
    await screen.findByRole('heading', { name: 'Log in' }, { timeout: 10000 });
    expect(sessionStorage.getItem(INVITE_KEY_STORAGE)).toBe('k3y-from-mail');
    expect(server.count(CLAIM)).toBe(0);

    fireEvent.change(screen.getByLabelText('Username or e-mail'), { target: { value: 'ada' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    // The header has a Log in button too (this route does not require a login): use the form's.
    const submit = screen
      .getAllByRole('button', { name: 'Log in' })
      .find((b) => b.getAttribute('type') === 'submit');
    fireEvent.click(submit as HTMLElement);

    expect(await screen.findByText('Grace Hopper', {}, { timeout: 10000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/user/contacts/');
    expect(server.count(CLAIM)).toBe(1);
    expect(sessionStorage.getItem(INVITE_KEY_STORAGE)).toBeNull();
  });
});
