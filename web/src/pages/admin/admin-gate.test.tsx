import type { AuthenticatedUser } from '@scriptorium/common/api/base';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppContextProvider } from '../../app/configuration/app-context';
import { fakeFetch, json, route, userConfiguration } from '../../app/testing/fake-fetch';
import { AdminGate } from './admin-gate';
import { AdminPage } from './admin-page';

function renderGate(staff: boolean | null, page = false) {
  const configuration = userConfiguration();
  const user = staff === null ? null : { ...(configuration.user as AuthenticatedUser), is_staff: staff };
  render(
    <AppContextProvider
      value={{
        configuration: user
          ? { ...configuration, user }
          : { ...configuration, user: { is_authenticated: false } },
        user,
        reloadConfiguration: async () => undefined,
        showDisconnected: () => undefined,
      }}
    >
      {page ? <AdminPage section="users" /> : <AdminGate section="users" />}
    </AppContextProvider>,
  );
}

describe('the staff area (issue 22)', () => {
  it('is the 404 page for visitors and for users who are not staff', () => {
    const server = fakeFetch({});
    for (const staff of [null, false]) {
      renderGate(staff);
      expect(screen.getAllByRole('heading', { name: 'Error 404' }).length).toBeGreaterThan(0);
    }
    // Not even the users list was asked for.
    expect(server.requests).toEqual([]);
  });

  // The page itself (the gate loads it as its own chunk, which the browser spec covers).
  it('shows staff the users table from the server', async () => {
    const server = fakeFetch({
      [route(adminApi.users)]: json({ users: [], total: 0, capped: false, page: 1, page_size: 50 }),
    });
    renderGate(true, true);
    expect(await screen.findByRole('heading', { name: 'Administration', level: 1 })).toBeTruthy();
    expect(await screen.findByText('No users yet.')).toBeTruthy();
    expect(server.requests.map((request) => request.url)).toContain('/api/admin/users/?q=&filter=all&page=1');
  });
});
