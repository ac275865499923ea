import type { Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { apiCall, chooseOption, contactPair, expect, loginAs, setLanguage, test } from '../fixtures';

/** A table row by its name, through its checkbox ('Select {{name}}', in German '{{name}} auswählen'). */
function row(page: Page, name: string, language: 'en' | 'de' = 'en') {
  const label = language === 'de' ? `${name} auswählen` : `Select ${name}`;
  return page.getByRole('row').filter({ has: page.getByRole('checkbox', { name: label, exact: true }) });
}

async function bulk(page: Page, action: string) {
  await page.getByRole('button', { name: 'Actions for the selected entries' }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('two users: create, make folders, move, share, see it on the other side, change the right, remove it', async ({
  browser,
}) => {
  // Two browsers and many steps: more than the default 30 s on a busy machine, under a minute.
  test.setTimeout(60_000);
  const { annPage: page, bobPage } = await contactPair(
    browser,
    { firstName: 'Ann', lastName: 'Owner' },
    { firstName: 'Bob', lastName: 'Reader' },
  );

  // Empty overview, then a new document opens at /document/{id}.
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await expect(page.getByText('No documents available')).toBeVisible();
  await page.getByRole('button', { name: 'Create new document' }).click();
  await expect(page).toHaveURL(/\/document\/\d+$/);
  // The editor opens on it (its own spec covers it).
  await expect(page.getByRole('button', { name: 'File', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Back to All documents' }).click();
  await expect(row(page, 'Untitled')).toBeVisible();
  await expect(row(page, 'Untitled')).toContainText('Owner');

  // New folder (Alt-f): the dialog opens the new, empty folder.
  await page.keyboard.press('Alt+f');
  const folderDialog = page.getByRole('dialog', { name: 'New folder' });
  await folderDialog.getByPlaceholder('Folder name').fill('The/sis');
  await folderDialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(page).toHaveURL(/\/documents\/Thesis\/$/);
  await expect(page.getByText('This folder is empty')).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Folder path' })
    .getByRole('link', { name: 'All documents' })
    .click();
  await expect(page).toHaveURL(/\/$/);

  // Move the document into it through the folder tree.
  await page.getByRole('checkbox', { name: 'Select Untitled', exact: true }).check();
  await bulk(page, 'Move selected');
  const moveDialog = page.getByRole('dialog', { name: 'Move' });
  await moveDialog.getByRole('button', { name: 'Thesis', exact: true }).click();
  await expect(moveDialog.getByLabel('Path')).toHaveValue('/Thesis/');
  await moveDialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(page.getByText('The documents have been moved.')).toBeVisible();
  await expect(row(page, 'Thesis')).toContainText('1 document');
  await expect(row(page, 'Untitled')).toHaveCount(0);

  // Enter on a folder row opens it.
  await row(page, 'Thesis').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/documents\/Thesis\/$/);

  // Share with Bob at 'Comment'.
  await row(page, 'Untitled').getByRole('button', { name: 'Share Untitled' }).click();
  const share = page.getByRole('dialog', { name: 'Share' });
  await expect(share.getByText('Nobody else has access yet.')).toBeVisible();
  await chooseOption(share, 'Contact', /^Bob Reader/);
  await chooseOption(share, 'Rights', 'Comment');
  await share.getByRole('button', { name: 'Add', exact: true }).click();
  await share.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The access rights have been saved.')).toBeVisible();

  // Bob sees it in his own top folder, with Ann as the owner and his right.
  await bobPage.reload();
  await expect(row(bobPage, 'Untitled')).toContainText('Ann Owner');
  await expect(row(bobPage, 'Untitled')).toContainText('Comment');

  // Ann changes the right to Write.
  await row(page, 'Untitled').getByRole('button', { name: 'Share Untitled' }).click();
  await chooseOption(share, 'Rights of Bob Reader', 'Write');
  await share.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The access rights have been saved.').first()).toBeVisible();
  await bobPage.reload();
  await expect(row(bobPage, 'Untitled')).toContainText('Write');

  // Ann removes it: Bob's overview is empty again.
  await row(page, 'Untitled').getByRole('button', { name: 'Share Untitled' }).click();
  await share.getByRole('button', { name: /Remove Bob Reader/ }).click();
  await expect(share.getByText('Nobody else has access yet.')).toBeVisible();
  await share.getByRole('button', { name: 'Save' }).click();
  await expect(share).toHaveCount(0);
  await bobPage.reload();
  await expect(bobPage.getByText('No documents available')).toBeVisible();
});

test('in German: moves several documents at once, searches, deletes with confirmation from the keyboard', async ({
  page,
  user,
}) => {
  await loginAs(page, user, '/');
  await setLanguage(page, 'de');
  for (const title of ['Alpha', 'Beta', 'Gamma']) {
    await apiCall(page, documentsApi.create, { title, path: '/entwürfe/' });
  }
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dokumente', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Neues Dokument erstellen' })).toBeVisible();
  await expect(row(page, 'entwürfe', 'de')).toContainText('3 Dokumente');

  await page.goto('/documents/entw%C3%BCrfe/');
  await page.getByRole('checkbox', { name: 'Alle auswählen', exact: true }).check();
  await page.getByRole('button', { name: 'Aktionen für die ausgewählten Einträge' }).click();
  await page.getByRole('menuitem', { name: 'Auswahl verschieben' }).click();
  const moveDialog = page.getByRole('dialog', { name: 'Verschieben' });
  await moveDialog.getByLabel('Pfad').fill('archiv//2024');
  await moveDialog.getByRole('button', { name: 'Verschieben', exact: true }).click();
  await expect(page.getByText('Die Dokumente wurden verschoben.')).toBeVisible();
  await expect(page.getByText('Dieser Ordner ist leer')).toBeVisible();

  await page.goto('/documents/archiv/2024/');
  await expect(page.getByRole('row')).toHaveCount(4);
  await page.getByRole('searchbox', { name: 'Dokumente durchsuchen' }).fill('Gam');
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByRole('searchbox', { name: 'Dokumente durchsuchen' }).fill('');
  await expect(page.getByRole('row')).toHaveCount(4);

  await row(page, 'Beta', 'de').focus();
  await page.keyboard.press('Delete');
  const confirm = page.getByRole('dialog', { name: 'Dokumente löschen' });
  await expect(confirm.getByText('Möchten Sie das ausgewählte Dokument wirklich löschen?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Löschen' }).click();
  await expect(page.getByText('Das Dokument wurde gelöscht.')).toBeVisible();
  await expect(row(page, 'Beta', 'de')).toHaveCount(0);
  await expect(row(page, 'Alpha', 'de')).toBeVisible();
});
