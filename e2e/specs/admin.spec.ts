import type { Page } from '@playwright/test';
import { feedbackApi } from '@scriptorium/common/api/endpoints/base';
import { apiCall, createUser, expect, loggedInBrowser, staffBrowser, test } from '../fixtures';
import { localeTexts, text } from '../locale-texts';

/** The staff screens (issue 22) in English and German, with the texts of the locale files. */
function grid(page: Page, name: string) {
  return page.getByRole('grid', { name });
}

/**
 * Types a search of the users list and waits until its answer is drawn: a row clicked while the
 * list before it is replaced would be clicked where it was, on whatever is there now.
 */
async function searchUsers(page: Page, label: string, query: string) {
  const answered = page.waitForResponse(
    (response) => new URL(response.url()).searchParams.get('q') === query && response.ok(),
  );
  await page.getByLabel(label).fill(query);
  await answered;
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

for (const language of ['en', 'de'] as const) {
  const admin = localeTexts(language, 'admin');
  const web = localeTexts(language, 'web');
  const t = (key: string, values?: Record<string, string | number>) => text(admin, key, values);

  test.describe(`staff administration (${language})`, () => {
    // A scenario takes 10-16 s alone and 20-28 s beside another worker on a 2-core machine (each
    // staff screen is a fresh login, each user a password hash): a minute leaves room for that.
    test.describe.configure({ timeout: 60_000 });

    test('is a 404 page for visitors and for users who are not staff', async ({ browser, page, user }) => {
      await page.goto('/admin/users/');
      await expect(page.getByRole('heading', { name: 'Error 404' })).toBeVisible();
      const { context, page: userPage } = await loggedInBrowser(browser, user, language, '/admin/');
      await expect(
        userPage.getByRole('heading', { name: text(web, 'pages.notFound.heading') }),
      ).toBeVisible();
      await expect(userPage.getByRole('heading', { name: t('title') })).toHaveCount(0);
      await context.close();
    });

    // The user screens in three scenarios, each of its own users: one long scenario ran close to
    // the test's budget when both languages ran side by side on a busy machine.
    test('staff create a user, deactivate them and find them by name', async ({ browser }) => {
      const { staff, context, page } = await staffBrowser(browser, language, '/');
      // The user menu leads staff to the administration.
      await page.getByRole('button', { name: `${staff.firstName} ${staff.lastName}` }).click();
      await page.getByRole('menuitem', { name: t('title') }).click();
      await expect(page.getByRole('heading', { name: t('sections.users'), level: 2 })).toBeVisible();

      const stamp = Date.now().toString(36);
      const username = `made_${stamp}_${language}`;
      // A last name no other test (the other language's, running at the same time) gives anyone.
      const lastName = `Curie${stamp}${language}`;
      await page.getByRole('button', { name: t('users.create') }).click();
      const create = page.getByRole('dialog', { name: t('users.createTitle') });
      await create.getByLabel(t('users.fields.username')).fill(username);
      await create.getByLabel(t('users.fields.email')).fill('not an address');
      await create.getByRole('button', { name: t('users.createSubmit') }).click();
      // The browser's own check keeps the form open; a valid address goes through.
      await expect(create).toBeVisible();
      await create.getByLabel(t('users.fields.email')).fill(`${username}@example.org`);
      await create.getByLabel(t('users.fields.firstName')).fill('Marie');
      await create.getByLabel(t('users.fields.lastName')).fill(lastName);
      await create.getByRole('button', { name: t('users.createSubmit') }).click();
      await expect(
        page.getByText(t('users.created', { username, email: `${username}@example.org` })),
      ).toBeVisible();

      const dialog = page.getByRole('dialog', { name: t('users.dialogTitle', { username }) });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: t('users.deactivate') }).click();
      await expect(page.getByText(t('users.deactivated', { username }))).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      // A prefix of the full name, first name and the start of the last name.
      await page.getByLabel(t('users.search')).fill(`marie ${lastName.toLowerCase().slice(0, -1)}`);
      const table = grid(page, t('users.tableLabel'));
      await expect(table.getByRole('row')).toHaveCount(2);
      const row = table.getByRole('row').filter({ hasText: username });
      await expect(row.getByText(t('users.inactive'))).toBeVisible();
      await context.close();
    });

    test("staff change a user's addresses; the focus stays in the dialog and Escape closes it", async ({
      browser,
    }) => {
      const user = await createUser();
      const { context, page } = await staffBrowser(browser, language, '/admin/users/');
      await searchUsers(page, t('users.search'), user.username);
      await grid(page, t('users.tableLabel')).getByRole('button', { name: user.username }).click();
      const dialog = page.getByRole('dialog', { name: t('users.dialogTitle', { username: user.username }) });

      // Staff give the user a second address, make it the primary one and remove the first.
      const first = user.email;
      const second = `${user.username}@lab.example.org`;
      await dialog.getByLabel(t('users.emails.newAddress')).fill(second);
      await dialog.getByRole('button', { name: t('users.emails.add') }).click();
      await expect(page.getByText(t('users.emails.added', { address: second }))).toBeVisible();
      await dialog
        .getByRole('button', { name: t('users.emails.makePrimaryLabel', { address: second }) })
        .click();
      await expect(page.getByText(t('users.emails.primaryChanged', { address: second }))).toBeVisible();
      await dialog.getByRole('button', { name: t('users.emails.removeLabel', { address: first }) }).click();
      await expect(page.getByText(t('users.emails.removed', { address: first }))).toBeVisible();
      await expect(dialog.getByRole('listitem')).toHaveText([`${second}${t('users.emails.primary')}`]);
      // The pressed button is gone: the focus stays in the dialog, on the addresses' title.
      await expect(dialog.getByRole('heading', { name: t('users.emails.legend') })).toBeFocused();
      // Toasts come and go above the dialog, and a toast's close button can stop under the resting
      // pointer: no tooltip opens there (it would take this Escape), however long the pointer rests
      // (icon buttons' tooltips open after 600 ms).
      await page.locator('.toast-close').last().hover();
      await page.waitForTimeout(1000);
      await expect(page.getByRole('tooltip')).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await context.close();
    });

    test('staff delete a user, handing their documents to another; staff cannot delete themselves', async ({
      browser,
    }) => {
      const [user, heir] = await Promise.all([createUser(), createUser()]);
      const { staff, context, page } = await staffBrowser(browser, language, '/admin/users/');
      const { username } = user;
      await searchUsers(page, t('users.search'), username);
      const table = grid(page, t('users.tableLabel'));
      await table.getByRole('button', { name: username }).click();
      await page.getByRole('button', { name: t('users.delete') }).click();
      const remove = page.getByRole('dialog', { name: t('users.deleteTitle', { username }) });
      await expect(
        remove.getByText(
          t('users.deleteSummary', { username, documents: 0, images: 0, bibliography: 0, contacts: 0 }),
        ),
      ).toBeVisible();
      await remove
        .locator('label.radio')
        .filter({ hasText: t('users.documentsTransfer') })
        .click();
      await remove.getByLabel(t('users.transferTo')).fill(heir.username);
      await remove.getByRole('button', { name: t('users.deleteConfirm') }).click();
      await expect(page.getByText(t('users.deleted', { username }))).toBeVisible();
      await expect(table.getByText(t('users.noMatch'))).toBeVisible();

      // Staff cannot delete or deactivate themselves: the buttons say so before the server would.
      await searchUsers(page, t('users.search'), staff.username);
      await table.getByRole('button', { name: staff.username }).click();
      await expect(page.getByRole('button', { name: t('users.deactivate') })).toBeDisabled();
      await expect(page.getByRole('button', { name: t('users.delete') })).toBeDisabled();
      await expect(page.getByText(t('users.selfHint'))).toBeVisible();
      await context.close();
    });

    test('staff write a flat page, see it sanitised in the preview, and readers see it', async ({
      browser,
    }) => {
      const { context, page } = await staffBrowser(browser, language, '/admin/pages/');
      const name = `help-${Date.now().toString(36)}-${language}`;
      await page.getByRole('button', { name: t('pages.new') }).click();
      const editor = page.getByRole('form', { name: t('pages.newTitle') });
      await editor.getByLabel(t('pages.fields.url')).fill(`/${name}/`);
      await editor.getByLabel(t('pages.fields.title')).fill('Help');
      await editor
        .getByLabel(t('pages.fields.content'))
        .fill('<h2>Getting help</h2><p onclick="x()">Write to us.</p><script>alert(1)</script>');
      await editor.getByRole('button', { name: t('pages.preview') }).click();
      const preview = page.getByRole('region', { name: t('pages.previewLabel') });
      // The first preview of a server starts an upload worker thread that loads jsdom (seconds on a
      // busy machine; the form shows itself busy meanwhile): wait for that answer, not a fixed 7 s.
      await expect(editor.getByRole('button', { name: t('pages.preview') })).toBeEnabled({ timeout: 30_000 });
      await expect(preview.getByRole('heading', { name: 'Getting help' })).toBeVisible();
      await expect(preview.locator('script')).toHaveCount(0);
      await editor.getByRole('button', { name: t('save') }).click();
      await expect(page.getByText(t('pages.saved', { url: `/${name}/` }))).toBeVisible();
      // The stored content is the sanitised one.
      await expect(page.getByLabel(t('pages.fields.content'))).toHaveValue(
        '<h2>Getting help</h2><p>Write to us.</p>',
      );
      await page.goto(`/pages/${name}/`);
      await expect(page.getByRole('heading', { name: 'Help', level: 1 })).toBeVisible();
      await expect(page.getByText('Write to us.')).toBeVisible();
      await context.close();
    });

    test('staff mark feedback done, change the settings and read the audit log', async ({
      browser,
      user,
    }) => {
      const reporter = await loggedInBrowser(browser, user, language, '/');
      const report = `Citations vanish ${Date.now().toString(36)} (${language})`;
      await apiCall(reporter.page, feedbackApi.send, { message: report });
      await reporter.context.close();

      const { staff, context, page } = await staffBrowser(browser, language, '/admin/feedback/');
      const item = page.getByRole('listitem').filter({ hasText: report });
      await expect(item).toContainText(user.username);
      await item.getByRole('button', { name: t('feedback.markDone') }).click();
      await expect(page.getByText(t('feedback.markedDone'))).toBeVisible();
      await expect(page.getByRole('listitem').filter({ hasText: report })).toHaveCount(0);

      await page.getByRole('link', { name: t('sections.settings') }).click();
      await page.getByLabel(t('settings.supportEmail')).fill(`help-${language}@university.example`);
      await page.getByRole('button', { name: t('save') }).click();
      await expect(page.getByText(t('settings.saved'))).toBeVisible();

      await page.getByRole('link', { name: t('sections.log') }).click();
      const log = grid(page, t('sections.log'));
      await expect(
        log
          .getByRole('row')
          .filter({ hasText: t('log.actions.settings.update') })
          .first(),
      ).toContainText(staff.username);
      await expect(
        log
          .getByRole('row')
          .filter({ hasText: t('log.actions.feedback.done') })
          .first(),
      ).toBeVisible();
      await page.getByRole('link', { name: t('sections.settings') }).click();
      await page.getByLabel(t('settings.supportEmail')).fill('');
      await page.getByRole('button', { name: t('save') }).click();
      // The first save's notice may still be on screen.
      await expect(page.getByText(t('settings.saved')).last()).toBeVisible();
      await context.close();
    });
  });
}
