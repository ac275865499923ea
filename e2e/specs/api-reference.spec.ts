import type { Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { violations } from '../axe';
import { firstParagraph } from '../editor';
import { apiCall, expect, loginAs, setLanguage, test } from '../fixtures';

// The API reference (issue 57): opened from the editor's Help menu, it draws the server's OpenAPI
// document by group with each operation's scope; axe finds nothing; it links the profile's tokens.

const TEXTS = {
  en: {
    menus: null,
    help: 'Help',
    item: 'API reference',
    documents: 'Documents',
    scope: 'Scope',
    parameters: 'Parameters',
  },
  de: {
    menus: 'Menüs',
    help: 'Hilfe',
    item: 'API-Referenz',
    documents: 'Dokumente',
    scope: 'Berechtigung',
    parameters: 'Parameter',
  },
} as const;

const CASES = [
  { name: 'desktop, English', language: 'en', viewport: { width: 1280, height: 800 } },
  { name: 'phone, German', language: 'de', viewport: { width: 390, height: 844 } },
] as const;

/** Opens the reference from a new document's Help menu (on a phone, inside the menus' drawer). */
async function openFromHelp(page: Page, t: (typeof TEXTS)[keyof typeof TEXTS]) {
  const created = await apiCall(page, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/document/${id}`);
  await expect(firstParagraph(page)).toBeVisible();
  const scope = t.menus ? page.getByRole('dialog', { name: t.menus }) : page;
  if (t.menus) await page.getByRole('button', { name: t.menus }).click();
  await scope.getByRole('button', { name: t.help, exact: true }).click();
  // A tab of its own: the document stays open.
  const opened = page.context().waitForEvent('page');
  await scope.getByRole('menuitem', { name: t.item }).click();
  const reference = await opened;
  await expect(reference).toHaveURL(/\/help\/api\/$/);
  return reference;
}

for (const { name, language, viewport } of CASES) {
  // The context's size: the reference opens in a new tab of it.
  test.describe(name, () => {
    test.use({ viewport });
    test(`API reference (${name}): from the Help menu, by group, with scopes, no axe findings`, async ({
      page,
      user,
    }) => {
      const t = TEXTS[language];
      await loginAs(page, user, '/');
      if (language !== 'en') await setLanguage(page, language);

      const reference = await openFromHelp(page, t);
      await expect(reference.locator('#page-heading')).toHaveText(t.item);
      const documents = reference.getByRole('region', { name: t.documents });
      const content = documents.getByRole('article', { name: 'POST /api/v1/documents/{id}/content/' });
      await expect(content).toBeVisible();
      await reference.screenshot({ path: test.info().outputPath(`api-reference-${language}.png`) });
      await expect(content.locator('dt').first()).toHaveText(t.scope);
      await expect(content.locator('dd').first()).toHaveText('documents:write');
      await expect(content.getByRole('heading', { name: t.parameters, level: 4 })).toBeVisible();
      // The table of contents leads to the operation's anchor.
      await reference
        .getByRole('navigation')
        .filter({ has: reference.locator('#api-contents-title') })
        .getByRole('link', { name: 'GET /api/v1/images/' })
        .click();
      await expect(reference).toHaveURL(/#op-imagesList$/);
      await expect(reference.locator('#op-imagesList')).toBeInViewport();
      await reference.evaluate(() => document.fonts.ready);
      expect(await violations(reference)).toEqual([]);

      if (language === 'en') {
        // Tokens: the reference links the profile's section, and the section links back.
        await reference.getByRole('link', { name: 'Create and revoke tokens on your profile page' }).click();
        await expect(reference).toHaveURL(/\/user\/profile\/#access-tokens$/);
        const section = reference.getByRole('region', { name: 'Personal access tokens' });
        await expect(section).toBeInViewport();
        await section
          .getByRole('link', { name: 'API reference: every operation and the scope it needs' })
          .click();
        await expect(reference.locator('#page-heading')).toHaveText('API reference');
      }
    });
  });
}
