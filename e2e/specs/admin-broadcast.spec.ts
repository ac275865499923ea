import type { Page } from '@playwright/test';
import { expect, loggedInBrowser, staffBrowser, test } from '../fixtures';
import { localeTexts, text } from '../locale-texts';

/**
 * Staff system messages (issue 22), in English and German. A system message goes to everyone
 * connected, so these scenarios run alone, after every other spec (project "broadcast" in
 * playwright.config.ts): their dialog would otherwise open over other scenarios' pages.
 */
test.describe.configure({ mode: 'serial' });

function grid(page: Page, name: string) {
  return page.getByRole('grid', { name });
}

for (const language of ['en', 'de'] as const) {
  const admin = localeTexts(language, 'admin');
  const web = localeTexts(language, 'web');
  const ws = localeTexts(language, 'ws');
  const t = (key: string, values?: Record<string, string | number>) => text(admin, key, values);

  test.describe(`staff system messages (${language})`, () => {
    test('staff send a system message that connected users see, and see who is connected', async ({
      browser,
      user,
    }) => {
      const reader = await loggedInBrowser(browser, user, language, '/');
      await expect(reader.page.getByRole('link', { name: text(web, 'header.documents') })).toBeVisible();
      const { context, page } = await staffBrowser(browser, language, '/admin/messages/');
      const connected = grid(page, t('messages.connected'));
      await expect(async () => {
        await page.getByRole('button', { name: t('messages.refresh') }).click();
        await expect(connected.getByRole('row').filter({ hasText: user.username })).toBeVisible({
          timeout: 1000,
        });
      }).toPass();

      const message = `Maintenance tonight (${language})`;
      await page.getByLabel(t('messages.message'), { exact: true }).fill(message);
      await page.getByRole('button', { name: t('messages.preview') }).click();
      await expect(
        page.getByRole('region', { name: t('messages.previewLabel') }).getByText(message),
      ).toBeVisible();
      await page.getByRole('button', { name: t('messages.send') }).click();
      await page
        .getByRole('dialog', { name: t('messages.confirmTitle') })
        .getByRole('button', { name: t('messages.send') })
        .click();
      await expect(page.getByText(t('messages.sent_one', { count: 1 }))).toBeVisible();
      const shown = reader.page.getByRole('dialog', { name: text(ws, 'systemMessageTitle') });
      await expect(shown.getByText(message)).toBeVisible();
      await context.close();
      await reader.context.close();
    });
  });
}
