import type { Locator, Page } from '@playwright/test';
import { expect, loginAs, setLanguage, type TestUser, test } from '../fixtures';

// Issue 13 section 4: the command palette (Ctrl+K) lists the actions of the current screen,
// searchable in the user's language; header shortcuts keep quiet while it (a dialog) is open.

/**
 * Logs in at `path`, waits for `ready` (a screen is its own chunk: its actions are registered once
 * its menu is there), then opens the palette with Ctrl+K: the dialog named `name`.
 */
async function openPalette(page: Page, user: TestUser, path: string, ready: Locator, name: string) {
  await loginAs(page, user, path);
  await expect(ready).toBeVisible();
  await page.keyboard.press('Control+k');
  return page.getByRole('dialog', { name });
}

test('English: Ctrl+K lists the screen and header actions and runs the chosen one', async ({
  page,
  user,
}) => {
  const invite = page.getByRole('button', { name: 'Invite contact' });
  const palette = await openPalette(page, user, '/user/contacts/', invite, 'Command palette');
  const search = palette.getByRole('searchbox', { name: 'Search commands' });
  await expect(search).toBeFocused();
  const items = palette.getByRole('menuitem');
  await expect(items.first()).toHaveText('Invite contactAlt-i');
  await expect(palette.getByRole('menuitem', { name: /^Bibliography/ })).toContainText('Alt-b');

  // Alt-b would open the bibliography: not behind a dialog.
  await search.press('Alt+b');
  await search.press('Escape');
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(/\/user\/contacts\/$/);

  await page.keyboard.press('Control+k');
  await search.fill('invi');
  await expect(items).toHaveText(['Invite contactAlt-i']);
  await search.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  const inviteDialog = page.getByRole('dialog', { name: 'Invite contact' });
  await expect(inviteDialog.getByPlaceholder('e-mail address or username')).toBeVisible();
});

test('English: an unknown word shows that nothing matches', async ({ page, user }) => {
  const navigation = page.getByRole('navigation', { name: 'Main navigation' });
  const palette = await openPalette(page, user, '/bibliography/', navigation, 'Command palette');
  await palette.getByRole('searchbox').fill('zzzz');
  await expect(palette.getByText('No matching commands')).toBeVisible();
});

test('German: searched in German with accents ignored, a category filter chosen from the palette', async ({
  page,
  user,
}) => {
  await setLanguage(page, 'de');
  const categoriesButton = page.getByRole('button', { name: 'Kategorien bearbeiten' });
  const palette = await openPalette(page, user, '/usermedia/', categoriesButton, 'Befehlspalette');
  const search = palette.getByRole('searchbox', { name: 'Befehle durchsuchen' });
  await search.fill('kategorien bearb');
  await expect(palette.getByRole('menuitem')).toHaveText(['Kategorien bearbeitenAlt-e']);
  await search.press('ArrowDown');
  await page.keyboard.press('Enter');
  const categories = page.getByRole('dialog', { name: 'Kategorien bearbeiten' });
  await categories.getByRole('textbox').first().fill('Übersichtskarten');
  await categories.getByRole('button', { name: 'Speichern' }).click();
  await expect(categories).toBeHidden();

  await page.keyboard.press('Control+k');
  await search.fill('ubersichtskarten');
  await expect(palette.getByRole('menuitem')).toHaveText(['Kategorie: Übersichtskarten']);
  await search.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByRole('button', { name: 'Kategorie: Übersichtskarten' })).toBeVisible();
});
