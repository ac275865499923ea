import type { Configuration } from '@scriptorium/common/api/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { CONFIGURATION, fakeFetch, json, route, userConfiguration } from '../../app/testing/fake-fetch';
import { App } from '../../root/app';

function withUser(user: Partial<Extract<Configuration['user'], { is_authenticated: true }>>, extra = {}) {
  const base = userConfiguration(extra);
  if (!base.user.is_authenticated) throw new Error('expected a user');
  return { ...base, user: { ...base.user, ...user } };
}

async function openProfile(routes: Parameters<typeof fakeFetch>[0], configuration = userConfiguration()) {
  const server = fakeFetch({ [CONFIGURATION]: json(configuration), ...routes });
  render(<App />);
  await screen.findByRole('heading', { name: 'Profile' }, { timeout: 10000 });
  return server;
}

describe('profile page (spec 2.6)', { timeout: 30000 }, () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/user/profile/');
  });

  it('shows the primary radio only for verified addresses and no delete icon on the primary', async () => {
    await openProfile(
      {},
      withUser({
        emails: [
          { address: 'ada@example.org', primary: true, verified: true },
          { address: 'new@example.org', primary: false, verified: false },
        ],
      }),
    );
    const table = screen.getByRole('table', { name: 'E-mail addresses' });
    expect(within(table).getAllByRole('radio')).toHaveLength(1);
    expect(within(table).queryByRole('button', { name: 'Delete ada@example.org' })).toBeNull();
    expect(within(table).getByRole('button', { name: 'Delete new@example.org' })).toBeTruthy();
    // No providers, no social account table.
    expect(screen.queryByRole('table', { name: 'Social accounts' })).toBeNull();
  });

  it('lists providers with a connect link or a delete icon', async () => {
    await openProfile(
      {},
      withUser(
        { socialaccounts: [{ id: 3, provider: 'orcid', name: '0000-0001' }] },
        {
          socialaccount_providers: [
            { id: 'orcid', name: 'ORCID', login_url: '/api/social/orcid/login/' },
            { id: 'github', name: 'GitHub', login_url: '/api/social/github/login/' },
          ],
        },
      ),
    );
    const table = screen.getByRole('table', { name: 'Social accounts' });
    expect(within(table).getByRole('button', { name: 'Remove the ORCID account' })).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'Connect' }).getAttribute('href')).toBe(
      '/api/social/github/login/?process=connect',
    );
  });

  it('checks the change-password dialog before sending', async () => {
    const server = await openProfile({ [route(userApi.changePassword)]: json({ msg: {} }, 400) });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change' }));
    expect(await within(dialog).findByText('All fields are required!')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Current password'), { target: { value: 'old' } });
    fireEvent.change(within(dialog).getByLabelText('New password'), { target: { value: 'one one one' } });
    fireEvent.change(within(dialog).getByLabelText('Confirm new password'), { target: { value: 'two' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change' }));
    expect(await within(dialog).findByText('Please confirm the new password!')).toBeTruthy();
    expect(server.count(route(userApi.changePassword))).toBe(0);
    fireEvent.change(within(dialog).getByLabelText('Confirm new password'), {
      target: { value: 'one one one' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change' }));
    // A failure without field messages.
    expect(await within(dialog).findByText('The password could not be changed!')).toBeTruthy();
  });

  it('deletes the account only when the username matches and a password is given', async () => {
    const server = await openProfile({
      [route(userApi.deleteAccount)]: json({ error: 'x', message: 'x' }, 401),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete account' });
    expect(
      (dialog.closest('.dialog-modal') as HTMLElement | null)?.style.getPropertyValue('--dialog-height'),
    ).toBe('250px');
    const confirm = within(dialog).getByRole('button', { name: 'Delete account' });
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'Ada' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(confirm);
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'ada' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: '' } });
    fireEvent.click(confirm);
    expect(server.count(route(userApi.deleteAccount))).toBe(0);
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(server.count(route(userApi.deleteAccount))).toBe(1));
    expect(await screen.findByText('Password incorrect.')).toBeTruthy();
  });

  it('requires a new address in the add dialog (width 400) and trims it', async () => {
    const server = await openProfile({ [route(userApi.addEmail)]: json({ ok: true }) });
    fireEvent.click(screen.getByRole('button', { name: 'Add e-mail address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add e-mail address' });
    expect(
      (dialog.closest('.dialog-modal') as HTMLElement | null)?.style.getPropertyValue('--dialog-width'),
    ).toBe('400px');
    fireEvent.change(within(dialog).getByLabelText('New e-mail address'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('New email address is required!')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('New e-mail address'), {
      target: { value: ' b@example.org ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Confirmation e-mail sent to: b@example.org')).toBeTruthy();
    const sent = server.requests.find((r) => r.url === userApi.addEmail.path);
    expect(sent?.body?.get('email')).toBe('b@example.org');
  });
});
