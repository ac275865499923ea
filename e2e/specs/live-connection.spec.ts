import type { Page } from '@playwright/test';
import { staffApi } from '@scriptorium/common/api/endpoints/staff';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { apiCall, createUser, expect, fillLogin, loginAs, test } from '../fixtures';
import { useOwnServer } from '../own-server';

// Spec sections 4 (Websocket, Server messages, Offline), 8 and 9: the live connection in a real browser.

/** Resolves once the page's app-wide socket has finished its handshake (welcome, subscribe, subscribed). */
function subscribedSocket(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      if (!socket.url().endsWith('/ws/base/')) return;
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).includes('"subscribed"')) resolve();
      });
    });
  });
}

test('logging out in another tab sends this tab to the start page', async ({ page, user }) => {
  const subscribed = subscribedSocket(page);
  await loginAs(page, user, '/bibliography/');
  await subscribed;
  const otherTab = await page.context().newPage();
  await apiCall(otherTab, userApi.logout);
  // access_denied runs the failed-auth handler: the page goes to /, which now shows the login page.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel('Username or e-mail')).toBeVisible();
});

// System messages go to every connected user, and a restart to every page: both run against a
// server of their own, so that other specs' pages never see them.
test.describe('with a server of its own', () => {
  test.describe.configure({ mode: 'serial' });
  const own = useOwnServer(41);
  const { env, page: ownPage, userPage, start: startServer, stop: stopServer } = own;

  test('a staff system message reaches a logged-in browser in the system-message dialog', async ({
    browser,
  }) => {
    const page = await ownPage(browser);
    const subscribed = subscribedSocket(page);
    await loginAs(page, await createUser({}, env), '/bibliography/');
    await subscribed;

    const { page: staffPage } = await userPage(browser, { staff: true });
    await apiCall(staffPage, staffApi.sendSystemMessage, { message: 'The server restarts at 18:00.' });

    const dialog = page.getByRole('dialog', { name: 'System message' });
    await expect(dialog).toContainText('The server restarts at 18:00.');
  });

  test('the disconnected notice shows while the server is down and goes when it is back', async ({
    browser,
  }) => {
    // One stop and start of a server process: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    const page = await ownPage(browser);
    const user = await createUser({}, env);
    const subscribed = subscribedSocket(page);
    await page.goto('/');
    await fillLogin(page, user.username, user.password);
    await subscribed;

    const status = page.getByRole('status', { name: 'Connection to the server' });
    await expect(status).not.toContainText('Disconnected');
    await stopServer();
    await expect(status).toContainText('Disconnected. Attempting to reconnect...');
    const resubscribed = subscribedSocket(page);
    await startServer();
    await resubscribed;
    await expect(status).not.toContainText('Disconnected');
  });
});
