import type { Page } from '@playwright/test';
import { expect } from './fixtures';

// Steps in the document editor that many specs take the same way.

/** The body part of the open document. */
export const body = (page: Page) => page.locator('.doc-richtext_part[data-part-id="body"]');

/** The first paragraph of the body. */
export const firstParagraph = (page: Page) => body(page).locator('p').first();

/** Waits until the editor's save state says all is saved. */
export const saved = (page: Page) =>
  expect(page.locator('.editor-save-state')).toHaveAttribute('data-saved', 'true');

/** The review card (a change or a comment thread) in the margin that contains `text`. */
export const card = (page: Page, text: string) => page.locator('.review-card', { hasText: text });

/** Clicks into the body's first paragraph, types `text` there and waits until it is saved. */
export async function writeSaved(page: Page, text: string) {
  await firstParagraph(page).click();
  await page.keyboard.type(text);
  await saved(page);
}

/**
 * Waits until the body's first paragraph shows `text` (what another user wrote has arrived), then
 * clicks into it and puts the caret at its end (or start).
 */
export async function caretIn(page: Page, text: string, key: 'End' | 'Home' = 'End') {
  await expect(firstParagraph(page)).toHaveText(text);
  await firstParagraph(page).click();
  await page.keyboard.press(key);
}

/** Opens the table size picker from the toolbar and inserts a table of `columns` × `rows` (English labels). */
export async function insertTableOfSize(page: Page, columns: number, rows: number) {
  await page
    .getByRole('toolbar', { name: 'Editing tools' })
    .getByRole('button', { name: 'Table', exact: true })
    .click();
  await page
    .getByRole('dialog', { name: 'Insert table' })
    .getByRole('button', { name: `${columns} × ${rows}` })
    .click();
}
