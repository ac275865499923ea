import type { Page } from '@playwright/test';
import { expect, loginAs, setLanguage, test } from '../fixtures';
import { E2E_PORT } from '../server-env';

/** A script's call with the token alone (no cookies of the page). */
async function documentsWithToken(secret: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${E2E_PORT}/api/v1/documents/`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  return response.status;
}

interface Texts {
  section: string;
  none: string;
  create: string;
  createTitle: string;
  nameRequired: string;
  scopeRequired: string;
  name: string;
  documents: string;
  read: string;
  createdTitle: string;
  token: string;
  done: string;
  scope: string;
  never: string;
  revokeOf: (name: string) => string;
  revokeTitle: string;
  revoke: string;
  revoked: string;
}

const TEXTS: Record<'en' | 'de', Texts> = {
  en: {
    section: 'Personal access tokens',
    none: 'You have no access tokens.',
    create: 'Create token',
    createTitle: 'New access token',
    nameRequired: 'Enter a name.',
    scopeRequired: 'Choose at least one scope.',
    name: 'Name',
    documents: 'Documents',
    read: 'Read',
    createdTitle: 'Your new access token',
    token: 'Token',
    done: 'Done',
    scope: 'Documents (Read)',
    never: 'Never',
    revokeOf: (name) => `Revoke ${name}`,
    revokeTitle: 'Revoke token',
    revoke: 'Revoke',
    revoked: 'The token has been revoked.',
  },
  de: {
    section: 'Persönliche Zugriffstokens',
    none: 'Sie haben keine Zugriffstokens.',
    create: 'Token erstellen',
    createTitle: 'Neues Zugriffstoken',
    nameRequired: 'Geben Sie einen Namen ein.',
    scopeRequired: 'Wählen Sie mindestens eine Berechtigung.',
    name: 'Name',
    documents: 'Dokumente',
    read: 'Lesen',
    createdTitle: 'Ihr neues Zugriffstoken',
    token: 'Token',
    done: 'Fertig',
    scope: 'Dokumente (Lesen)',
    never: 'Nie',
    revokeOf: (name) => `${name} widerrufen`,
    revokeTitle: 'Token widerrufen',
    revoke: 'Widerrufen',
    revoked: 'Das Token wurde widerrufen.',
  },
};

/** Creates a documents:read token in the profile's dialog, uses it, and revokes it. */
async function createUseAndRevoke(page: Page, texts: Texts, name: string) {
  const section = page.getByRole('region', { name: texts.section });
  await expect(section.getByText(texts.none)).toBeVisible();
  await section.getByRole('button', { name: texts.create }).click();
  const create = page.getByRole('dialog', { name: texts.createTitle });
  await create.getByRole('button', { name: texts.create }).click();
  await expect(create.getByText(texts.nameRequired)).toBeVisible();
  await expect(create.getByText(texts.scopeRequired)).toBeVisible();
  await create.getByLabel(texts.name).fill(name);
  await create.getByRole('group', { name: texts.documents }).getByLabel(texts.read).check();
  await create.getByRole('button', { name: texts.create }).click();

  const created = page.getByRole('dialog', { name: texts.createdTitle });
  const secretField = created.getByLabel(texts.token, { exact: true });
  await expect(secretField).toHaveValue(/^scr_[A-Za-z0-9_-]{43}$/);
  const secret = await secretField.inputValue();
  await created.getByRole('button', { name: texts.done }).click();
  await expect(created).toHaveCount(0);

  const row = section.locator('tr', { hasText: name });
  await expect(row.getByRole('cell', { name: texts.scope, exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: texts.never, exact: true })).toBeVisible();
  // The secret is shown once: the list never holds it.
  await expect(page.getByText(secret)).toHaveCount(0);

  expect(await documentsWithToken(secret)).toBe(200);
  await page.reload();
  await expect(row.getByRole('cell', { name: texts.never, exact: true })).toHaveCount(0);

  await row.getByRole('button', { name: texts.revokeOf(name) }).click();
  await page
    .getByRole('dialog', { name: texts.revokeTitle })
    .getByRole('button', { name: texts.revoke })
    .click();
  await expect(page.getByText(texts.revoked)).toBeVisible();
  await expect(section.getByText(texts.none)).toBeVisible();
  expect(await documentsWithToken(secret)).toBe(401);
}

test.describe('personal access tokens on the profile page', () => {
  test('creates, uses and revokes a token (English)', async ({ page, user }) => {
    await loginAs(page, user, '/user/profile/');
    await createUseAndRevoke(page, TEXTS.en, 'Thesis script');
  });

  test('creates, uses and revokes a token (German)', async ({ page, user }) => {
    await loginAs(page, user, '/');
    await setLanguage(page, 'de');
    await page.goto('/user/profile/');
    await createUseAndRevoke(page, TEXTS.de, 'Skript für die Arbeit');
  });
});
