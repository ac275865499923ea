import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * On the bibliography screen: once its button `ready` can be used (the screen and its shortcuts are
 * there), Alt-N opens the new-source editor, the dialog named `dialog`.
 */
export async function openNewSource(page: Page, ready: string, dialog: string) {
  await expect(page.getByRole('button', { name: ready })).toBeEnabled();
  await page.keyboard.press('Alt+n');
  return page.getByRole('dialog', { name: dialog });
}
