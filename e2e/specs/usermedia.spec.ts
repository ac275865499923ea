import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { chooseOption, expect, loginAs, setLanguage, test } from '../fixtures';

/** A small PNG made on the fly, so that no binary test file is checked in. */
async function png(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

async function chooseFiles(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.getByTestId('usermedia-file-input').setInputFiles(files);
}

/** Drops files on an element the way the desktop does: a drop event whose DataTransfer holds Files. */
async function dropFiles(
  page: Page,
  selector: string,
  files: { name: string; type: string; base64: string }[],
) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) {
      const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: file.type }));
    }
    return transfer;
  }, files);
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer });
  await page.dispatchEvent(selector, 'dragover', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

function table(page: Page) {
  return page.getByRole('grid', { name: 'Images' });
}

async function uploadTwo(page: Page) {
  // The screen is its own chunk: shortcuts work once its menu is there.
  await expect(page.getByRole('button', { name: 'Upload new image' })).toBeEnabled();
  await page.keyboard.press('Alt+u');
  const dialog = page.getByRole('dialog', { name: 'Upload new image' });
  await expect(dialog).toBeVisible();
  await chooseFiles(page, [
    { name: 'first-figure.png', mimeType: 'image/png', buffer: await png(30, 20, '#cc0000') },
    { name: 'second.png', mimeType: 'image/png', buffer: await png(64, 48, '#00aa00') },
  ]);
  await expect(dialog.getByRole('progressbar')).toHaveCount(2);
  await dialog.getByRole('textbox', { name: 'Title of second.png' }).fill('Second figure');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog).toBeHidden();
  // The list is asked for again after the uploads: the two are listed once it has answered (a
  // test that goes offline next would otherwise race that request).
  await expect(table(page)).toContainText('Second figure');
  await expect(table(page)).toContainText('first-figure');
}

test.describe('image library', () => {
  // Each scenario takes seconds alone; a minute leaves room for a busy, shared machine.
  test.describe.configure({ timeout: 60_000 });

  test('uploads, searches, edits, categorises, filters and deletes images', async ({ page, user }) => {
    await loginAs(page, user, '/usermedia/');
    await expect(table(page)).toContainText('No images available');
    await expect(page.getByRole('button', { name: 'Upload new image' })).toHaveAttribute(
      'aria-keyshortcuts',
      'Alt+U',
    );

    await uploadTwo(page);
    const rows = table(page).locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(table(page)).toContainText('first-figure');
    await expect(table(page)).toContainText('Second figure');
    await expect(table(page)).toContainText('PNG');
    await expect(table(page)).toContainText('64 × 48');
    await expect(table(page).locator('img.usermedia-thumbnail').first()).toHaveJSProperty('complete', true);

    // Search (debounced) and its empty message.
    await page.keyboard.press('Alt+s');
    await expect(page.getByRole('searchbox', { name: 'Search images' })).toBeFocused();
    await page.keyboard.type('second');
    await expect(rows).toHaveCount(1);
    await page.keyboard.type('zzz');
    await expect(table(page)).toContainText('No images found');
    await page.keyboard.press('Escape');
    await expect(rows).toHaveCount(2);

    // Sorting by size stays after the list is refreshed by an edit.
    await table(page).getByRole('columnheader', { name: 'Size (px)' }).click();
    await table(page).getByRole('columnheader', { name: 'Size (px)' }).click();
    await expect(rows.first()).toContainText('Second figure');

    // Categories: create two, the empty third is dropped.
    await page.keyboard.press('Alt+e');
    const categories = page.getByRole('dialog', { name: 'Edit categories' });
    await categories.getByRole('textbox').first().fill('  Maps ');
    await categories.getByRole('button', { name: 'Add category' }).click();
    await categories.getByRole('textbox').nth(1).fill('Plots');
    await categories.getByRole('button', { name: 'Add category' }).click();
    await categories.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The categories have been updated')).toBeVisible();

    // Clicking a title opens the image dialog.
    await table(page).getByRole('button', { name: 'Edit first-figure' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit image' });
    await expect(edit).toContainText('PNG, 30 × 20 px');
    await edit.getByRole('textbox', { name: 'Title' }).fill('Study area');
    await edit.getByRole('checkbox', { name: 'Maps' }).check();
    await edit.getByRole('textbox', { name: 'Copyright holder' }).fill('Ann Author');
    await chooseOption(edit, 'Licence', 'CC-BY-4.0');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(rows.first()).toContainText('Second figure');
    await expect(rows.nth(1)).toContainText('Study area');

    // Filter by category (Alt-c).
    await page.keyboard.press('Alt+c');
    await page.getByRole('menuitemradio', { name: 'Maps' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Study area');
    await page.keyboard.press('Alt+c');
    await page.getByRole('menuitemradio', { name: 'Plots' }).click();
    await expect(table(page)).toContainText('No images found');
    await page.keyboard.press('Alt+c');
    await page.getByRole('menuitemradio', { name: 'All categories' }).click();
    await expect(rows).toHaveCount(2);

    // Enter on a row edits it while nothing is selected.
    await rows.first().focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Edit image' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    // Delete one after confirming.
    await table(page).getByRole('button', { name: 'Delete Second figure' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm deletion' });
    await expect(confirm).toContainText('Do you really want to delete this image?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('The image(s) have been deleted')).toBeVisible();
    await expect(rows).toHaveCount(1);

    // Bulk delete: disabled with nothing selected, then enabled.
    await page.getByRole('button', { name: 'Actions for the selected entries' }).click();
    await expect(page.getByRole('menuitem', { name: 'Delete selected' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await page.keyboard.press('Escape');
    await page.getByRole('checkbox', { name: 'Select all' }).first().check();
    await page.getByRole('button', { name: 'Actions for the selected entries' }).click();
    await page.getByRole('menuitem', { name: 'Delete selected' }).click();
    await page
      .getByRole('dialog', { name: 'Confirm deletion' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(table(page)).toContainText('No images available');
  });

  test('takes files by drag and drop and shows the server errors', async ({ page, user }) => {
    await loginAs(page, user, '/usermedia/');
    await expect(table(page)).toContainText('No images available');
    const image = (await png(10, 10, '#123456')).toString('base64');
    // Dropped on the page: the upload dialog opens with the file.
    await dropFiles(page, 'section.usermedia-page', [
      { name: 'dropped.png', type: 'image/png', base64: image },
    ]);
    const dialog = page.getByRole('dialog', { name: 'Upload new image' });
    await expect(dialog.getByRole('textbox', { name: 'Title of dropped.png' })).toHaveValue('dropped');
    // Dropped on the drop zone: more files join the list.
    await dropFiles(page, '[data-testid="usermedia-dropzone"]', [
      {
        name: 'notes.png',
        type: 'image/png',
        base64: Buffer.from('plain text, not a picture').toString('base64'),
      },
    ]);
    await expect(dialog.getByRole('progressbar')).toHaveCount(2);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'This file type is not supported. Please upload a PNG, JPEG, WebP, AVIF, GIF or SVG image.',
    );
    await expect(dialog.getByText('Uploaded')).toBeVisible();
    await dialog.getByRole('button', { name: 'Remove notes.png' }).click();

    // Larger than MEDIA_MAX_SIZE (10 MB): the 413 text of the spec.
    const huge = Buffer.alloc(10 * 1024 * 1024 + 10, 1);
    (await png(5, 5, '#ffffff')).copy(huge);
    await chooseFiles(page, [{ name: 'huge.png', mimeType: 'image/png', buffer: huge }]);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Image is larger than the maximum permitted size');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(table(page).locator('tbody tr')).toHaveCount(1);
    await expect(table(page)).toContainText('dropped');
  });

  test('hides the select column in a narrow window', async ({ page, user }) => {
    await loginAs(page, user, '/usermedia/');
    await uploadTwo(page);
    await expect(table(page).getByRole('checkbox')).toHaveCount(3);
    await page.setViewportSize({ width: 480, height: 700 });
    await expect(table(page).getByRole('checkbox')).toHaveCount(0);
    await expect(table(page)).toContainText('Second figure');
    // Scroll height: window height minus 360 px.
    await expect(page.locator('.usermedia-table .data-table-scroll')).toHaveCSS('max-height', '340px');
  });

  test('disables uploads, category editing and deletion offline', async ({ page, context, user }) => {
    await loginAs(page, user, '/usermedia/');
    await uploadTwo(page);
    await context.setOffline(true);
    await expect(page.getByRole('button', { name: 'Upload new image' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Edit categories' })).toBeDisabled();
    await page.getByRole('checkbox', { name: 'Select all' }).first().check();
    await page.getByRole('button', { name: 'Actions for the selected entries' }).click();
    await expect(page.getByRole('menuitem', { name: 'Delete selected' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await page.keyboard.press('Escape');
    await table(page).getByRole('button', { name: 'Delete Second figure' }).click();
    await expect(
      page.getByText('You are currently offline. Please try again when you are back online.'),
    ).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await context.setOffline(false);
    await expect(page.getByRole('button', { name: 'Upload new image' })).toBeEnabled();
  });

  test('speaks German', async ({ page, user }) => {
    await setLanguage(page, 'de');
    await loginAs(page, user, '/usermedia/');
    await expect(page.getByRole('grid', { name: 'Bilder' })).toContainText('Keine Bilder vorhanden');
    await expect(page.getByRole('button', { name: 'Kategorien bearbeiten' })).toBeVisible();
    await page.keyboard.press('Alt+u');
    const dialog = page.getByRole('dialog', { name: 'Neues Bild hochladen' });
    await chooseFiles(page, [
      { name: 'karte.png', mimeType: 'image/png', buffer: await png(8, 8, '#abcdef') },
    ]);
    await dialog.getByRole('button', { name: 'Hochladen', exact: true }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('grid', { name: 'Bilder' }).getByRole('button', { name: 'karte löschen' }).click();
    await page
      .getByRole('dialog', { name: 'Löschen bestätigen' })
      .getByRole('button', { name: 'Löschen' })
      .click();
    await expect(page.getByText('Das Bild bzw. die Bilder wurden gelöscht')).toBeVisible();
  });
});
