import type { AuthenticatedUser } from '@scriptorium/common/api/base';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppContextProvider } from '../../app/configuration/app-context';
import type { RoutePage } from '../../app/router/routes';
import { fakeFetch, json, route, userConfiguration } from '../../app/testing/fake-fetch';
import { INVITE_KEY_STORAGE } from '../invite/invite-key';
import { WaitingInvitesNotice } from './waiting-invites-notice';

function renderNotice(page: RoutePage, waiting: boolean) {
  const configuration = userConfiguration();
  const user = { ...(configuration.user as AuthenticatedUser), waiting_invites: waiting };
  const reloadConfiguration = vi.fn(async () => undefined);
  render(
    <AppContextProvider
      value={{
        configuration: { ...configuration, user },
        user,
        reloadConfiguration,
        showDisconnected: () => undefined,
      }}
    >
      <WaitingInvitesNotice page={page} />
    </AppContextProvider>,
  );
  return { reloadConfiguration };
}

const TEXT = 'Other users have requested to connect with you...';

describe('waiting invites notice (spec 2.4)', () => {
  beforeEach(() => {
    sessionStorage.clear();
    window.history.replaceState(null, '', '/bibliography/');
  });

  it('appears when the configuration says waiting_invites and leads to the contacts page', () => {
    renderNotice('bibliography', true);
    expect(screen.getByText(TEXT)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go to contacts' }));
    expect(window.location.pathname).toBe('/user/contacts/');
  });

  it('stays away from the contacts page', () => {
    renderNotice('contacts', true);
    expect(screen.queryByText(TEXT)).toBeNull();
  });

  it('stays away without waiting invites', () => {
    renderNotice('documents', false);
    expect(screen.queryByText(TEXT)).toBeNull();
  });

  it('claims an invite key kept from before a login that ended on another page', async () => {
    sessionStorage.setItem(INVITE_KEY_STORAGE, 'kept-key');
    const server = fakeFetch({ [route(contactsApi.claim)]: json({ redirect: '/user/contacts/' }) });
    const { reloadConfiguration } = renderNotice('documents', false);
    await waitFor(() => expect(reloadConfiguration).toHaveBeenCalled());
    expect(server.requests.map((r) => r.body?.get('key'))).toEqual(['kept-key']);
    expect(sessionStorage.getItem(INVITE_KEY_STORAGE)).toBeNull();
  });
});
