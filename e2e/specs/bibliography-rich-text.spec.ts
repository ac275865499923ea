import type { Page } from '@playwright/test';
import { openNewSource } from '../bibliography';
import {
  attributesOf,
  chooseOption,
  expect,
  loginAs,
  selectionSeen,
  setLanguage,
  test,
  watchSelection,
} from '../fixtures';

async function exportBibtex(page: Page): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'Everything as BibTeX (.bib)' }).click();
  const stream = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function press(page: Page, key: string, times: number) {
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
}

test.describe('bibliography rich-text fields', () => {
  // Each scenario takes seconds alone; a minute leaves room for a busy, shared machine.
  test.describe.configure({ timeout: 60_000 });

  test('formats a title with a shortcut and the toolbar, keeps it and exports it', async ({ page, user }) => {
    await loginAs(page, user, '/bibliography/');
    const dialog = await openNewSource(page, 'Register new source', 'Register new source');
    await chooseOption(dialog, 'Source type', 'Article');
    await dialog.getByLabel('Citation key').fill('water2024');

    const title = dialog.getByRole('textbox', { name: 'Title *', exact: true });
    await expect(title).toHaveAttribute('contenteditable', 'true');
    await title.click();
    await watchSelection(page);
    await page.keyboard.type('Learning with H2O molecules');

    // "Learning" in italics with the shortcut.
    await page.keyboard.press('Home');
    await press(page, 'Shift+ArrowRight', 'Learning'.length);
    await selectionSeen(page, 'Learning');
    await page.keyboard.press('Control+i');
    await expect(title.locator('em')).toHaveText('Learning');
    const toolbar = dialog.getByRole('toolbar', { name: 'Text formatting' });
    await expect(toolbar.getByRole('button', { name: 'Italic (Ctrl+I)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    // The "2" of H2O in superscript with the toolbar button.
    await page.keyboard.press('Home');
    await press(page, 'ArrowRight', 'Learning with H'.length);
    await page.keyboard.press('Shift+ArrowRight');
    await selectionSeen(page, '2');
    const superscript = toolbar.getByRole('button', { name: /^Superscript/ });
    await expect(superscript).toHaveAttribute('aria-pressed', 'false');
    await superscript.click();
    await expect(superscript).toHaveAttribute('aria-pressed', 'true');
    await expect(title.locator('sup')).toHaveText('2');
    await expect(title).toBeFocused();

    await dialog.getByRole('textbox', { name: 'Journal *', exact: true }).fill('Journal of Water');
    await dialog.getByRole('textbox', { name: 'Family name 1' }).fill('Doe');
    await dialog.getByRole('textbox', { name: 'Publication date' }).fill('2024');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toBeHidden();

    // Reopened, the editor shows the formatting it was saved with.
    const grid = page.getByRole('grid', { name: 'Bibliography' });
    await expect(grid).toContainText('Learning with H2O molecules');
    await grid.getByRole('button', { name: /^Edit Learning with H/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit source' });
    const saved = edit.getByRole('textbox', { name: 'Title *', exact: true });
    await expect(saved).toHaveText('Learning with H2O molecules');
    await expect(saved.locator('em')).toHaveText('Learning');
    await expect(saved.locator('sup')).toHaveText('2');
    await expect(edit.getByRole('textbox', { name: 'Journal *', exact: true })).toHaveText(
      'Journal of Water',
    );
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(edit).toBeHidden();

    // Classic BibTeX gets plain LaTeX (\emph), BibLaTeX biblatex's own \mkbibitalic.
    const bibtex = await exportBibtex(page);
    expect(bibtex).toContain('@article{water2024,');
    expect(bibtex).toContain('\\emph{Learning}');
    expect(bibtex).toMatch(/H\$\^\{2\}\$O molecules/);
  });

  test('names the toolbar buttons in German and lets Tab pass through', async ({ page, user }) => {
    await setLanguage(page, 'de');
    await loginAs(page, user, '/bibliography/');
    const dialog = await openNewSource(page, 'Importieren', 'Neue Quelle erfassen');
    const title = dialog.getByRole('textbox', { name: 'Titel *', exact: true });
    await title.click();
    const toolbar = dialog.getByRole('toolbar', { name: 'Textformatierung' });
    expect(await attributesOf(toolbar.getByRole('button'), 'aria-label')).toEqual([
      'Kursiv (Strg+I)',
      'Fett (Strg+B)',
      'Kapitälchen (Strg+Umschalt+K)',
      'Hochgestellt (Strg+.)',
      'Tiefgestellt (Strg+,)',
      "Anführungszeichen (Strg+')",
      'Groß-/Kleinschreibung beibehalten (Strg+Umschalt+L)',
    ]);
    await expect(toolbar.getByRole('button', { name: 'Kursiv (Strg+I)' })).toHaveAttribute(
      'title',
      'Kursiv (Strg+I)',
    );

    // Tab leaves the text for its toolbar (one stop), then the next field; Enter adds no line.
    await page.keyboard.type('Eins');
    await page.keyboard.press('Enter');
    await expect(title.locator('p')).toHaveCount(1);
    await page.keyboard.press('Tab');
    await expect(toolbar.getByRole('button', { name: /^Kursiv/ })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(toolbar.getByRole('button', { name: /^Fett/ })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(toolbar).toBeHidden();
    await expect(title).not.toBeFocused();
  });
});
