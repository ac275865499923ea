import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { card } from '../editor';
import { apiCall, expect, loginAs, setLanguage, test } from '../fixtures';

/**
 * Issue 55, inline citing: `@` and a few letters show the library at the caret, Enter cites in
 * one go, `;` adds to the same citation, Escape keeps the text; Enter on a citation opens the full
 * dialog. On a desktop in English and on a phone in German.
 */

const text = (value: string) => [{ type: 'text', text: value }];
const entry = (key: string, family: string, title: string, date: string) => ({
  entry_key: key,
  bib_type: 'book',
  fields: { author: [{ family: text(family), given: text('J.') }], title: text(title), date },
  cats: [],
});

const LANGUAGES = {
  en: {
    list: 'Bibliography entries to cite',
    none: 'No matching entries',
    dialog: 'Insert citation',
    locator: 'Page',
    update: 'Update',
    inserted: 'Inserted: “(Smithers, 2018)”',
    reject: 'Reject',
  },
  de: {
    list: 'Literatureinträge zum Zitieren',
    none: 'Keine passenden Einträge',
    dialog: 'Literaturverweis einfügen',
    locator: 'Seite',
    update: 'Aktualisieren',
    inserted: 'Eingefügt: „(Smithers, 2018)“',
    reject: 'Ablehnen',
  },
};

const CASES = [
  { name: 'desktop, English', viewport: { width: 1280, height: 800 }, language: 'en' as const },
  { name: 'phone, German', viewport: { width: 390, height: 844 }, language: 'de' as const },
];

const body = (page: Page) => page.locator('.doc-richtext_part[data-part-id="body"]');

for (const { name, viewport, language } of CASES) {
  test(`inline citing: @ + three letters + Enter, ; adds to the cluster, Escape keeps the text (${name})`, async ({
    page,
    user,
  }) => {
    const labels = LANGUAGES[language];
    await page.setViewportSize(viewport);
    await loginAs(page, user, '/');
    if (language !== 'en') await setLanguage(page, language);
    await apiCall(page, bibliographyApi.save, {
      is_new: true,
      bibs: {
        '-1': entry('smith2020', 'Smith', 'Ink on paper', '2020'),
        '-2': entry('doe2019', 'Doe', 'Quills', '2019'),
        '-3': entry('smithers2018', 'Smithers', 'Feathers', '2018'),
      },
    } as never);
    const { id } = (await (await apiCall(page, documentsApi.create, { path: '/' })).json()) as { id: number };
    await page.goto(`/document/${id}`);
    await body(page).locator('p').first().click();

    // `@smi`: the list at the caret shows Smith and Smithers, Smith first; Enter cites Smith.
    await page.keyboard.type('See @smi', { delay: 40 });
    const list = page.getByRole('listbox', { name: labels.list });
    await expect(list.getByRole('option')).toHaveText([/^Smith, 2020\s*Ink on paper$/, /^Smithers, 2018/]);
    await expect(list.getByRole('option', { selected: true })).toContainText('Smith, 2020');
    const editor = page.locator('.editor-document');
    await expect(editor).toHaveAttribute('aria-activedescendant', `${await list.getAttribute('id')}-0`);
    const axe = await new AxeBuilder({ page }).include('.inline-cite').include('.editor-document').analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(list).toBeHidden();
    const citation = body(page).locator('.doc-citation');
    await expect(citation).toHaveText('(Smith, 2020)');
    await expect(body(page).locator('p').first()).toHaveText('See (Smith, 2020)');

    // `;` right after it: the next entry joins the same citation.
    await page.keyboard.type(';doe', { delay: 40 });
    await expect(list.getByRole('option')).toHaveText([/^Doe, 2019\s*Quills$/]);
    await page.keyboard.press('Enter');
    await expect(citation).toHaveCount(1);
    await expect(citation).toHaveText('(Doe, 2019; Smith, 2020)');

    // Nothing matches: the list says so; Escape closes it and the typed text stays.
    await page.keyboard.type(' and @zzz', { delay: 40 });
    await expect(page.locator('.inline-cite [role="status"]')).toHaveText(labels.none);
    await page.keyboard.press('Escape');
    await expect(page.locator('.inline-cite')).toBeHidden();
    await expect(body(page).locator('p').first()).toHaveText('See (Doe, 2019; Smith, 2020) and @zzz');

    // The full dialog opens on the inserted citation (selected, then Enter): a page for Smith.
    await citation.click();
    await expect(citation).toHaveClass(/ProseMirror-selectednode/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: labels.dialog });
    await dialog.getByRole('textbox', { name: labels.locator }).first().fill('12');
    await dialog.getByRole('button', { name: labels.update, exact: true }).click();
    // (The document is in English, in both interface languages.)
    await expect(citation).toHaveText('(Doe, 2019; Smith, 2020, p. 12)');

    // In suggestion mode an entry new to the document is cited as a suggestion, its entry with it
    // (the bibliography lists it); rejecting the suggestion takes both out again. The dialog gave
    // the focus back with the citation selected: the caret goes after it.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Control+Alt+s');
    await page.keyboard.type(' @smithe', { delay: 40 });
    await expect(list.getByRole('option')).toHaveText([/^Smithers, 2018/]);
    await page.keyboard.press('Enter');
    await expect(body(page).locator('.insertion .doc-citation')).toHaveText('(Smithers, 2018)');
    const entries = page.locator('.doc-bibliography-entry');
    await expect(entries).toHaveCount(3);
    await expect(entries.filter({ hasText: 'Smithers' })).toHaveCount(1);
    const change = card(page, labels.inserted);
    await change.getByRole('button', { name: labels.reject }).click();
    await expect(change).toHaveCount(0);
    await expect(body(page).locator('.doc-citation')).toHaveCount(1);
    await expect(entries).toHaveCount(2);
    await expect(entries.filter({ hasText: 'Smithers' })).toHaveCount(0);
  });
}
