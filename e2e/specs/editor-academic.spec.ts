import type { Browser, Page } from '@playwright/test';
import type { AccessRight } from '@scriptorium/common/api/documents';
import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import sharp from 'sharp';
import {
  apiCall,
  chooseOption,
  expect,
  loginAs,
  setLanguage,
  sharedDocument,
  test,
  writeDocumentContent,
} from '../fixtures';

/**
 * Issue 17: equations, citations, figures and cross-references in the editor, as a researcher
 * and a co-author use them in the browser against the real server.
 */

test.describe.configure({ mode: 'serial', timeout: 60_000 });

const text = (value: string) => [{ type: 'text', text: value }];
const person = (family: string, given: string) => ({ family: text(family), given: text(given) });

/** Smith's article as the library holds it, dated `date`. */
const smith = (date: string) => ({
  entry_key: 'smith2020',
  bib_type: 'article',
  fields: {
    author: [person('Smith', 'Jane')],
    title: text('Ink on paper'),
    journaltitle: text('Journal of Writing'),
    date,
  },
  cats: [],
});

/** Two entries of Ann's library, saved the way the bibliography page saves them. */
async function seedLibrary(page: Page) {
  await apiCall(page, bibliographyApi.save, {
    is_new: true,
    bibs: {
      '-1': smith('2020'),
      '-2': {
        entry_key: 'doe2019',
        bib_type: 'book',
        fields: {
          author: [person('Doe', 'John')],
          title: text('Quills'),
          publisher: [text('Feather Press')],
          date: '2019',
        },
        cats: [],
      },
    },
  } as never);
}

/** An image in Ann's library, uploaded as the image dialog does (multipart, CSRF header). */
async function seedImage(page: Page) {
  const buffer = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  const response = await page.request.post('/api/usermedia/save/', {
    headers: { 'X-CSRFToken': csrf },
    multipart: { title: 'Growth plot', image: { name: 'plot.png', mimeType: 'image/png', buffer } },
  });
  expect(response.status()).toBe(201);
}

/** Ann's document shared with Bob (a contact) with `right`; both logged in. */
async function annShares(browser: Browser, right: AccessRight) {
  const { annPage, bobPage, id } = await sharedDocument(
    browser,
    right,
    { firstName: 'Ann', lastName: 'Writer' },
    { firstName: 'Bob', lastName: 'Reader' },
  );
  await seedLibrary(annPage);
  await seedImage(annPage);
  return { annPage, bobPage, id };
}

const body = (page: Page) => page.locator('.doc-richtext_part[data-part-id="body"]');

async function menu(page: Page, menuName: string, item: string | RegExp) {
  await page.getByRole('button', { name: menuName, exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('equations and citations typed in the text, seen by a co-author; a numeric style', async ({
  browser,
}) => {
  const { annPage, bobPage, id } = await annShares(browser, 'read');
  await annPage.goto(`/document/${id}`);
  await body(annPage).locator('p').first().click();

  // Inline LaTeX becomes rendered math; a display equation gets its number.
  await annPage.keyboard.type('Energy $x^2$ grows. ');
  await expect(body(annPage).locator('.doc-equation math msup')).toHaveCount(1);
  await annPage.keyboard.press('Enter');
  await annPage.keyboard.type('$$E = mc^2$$');
  const display = body(annPage).locator('figure[data-category="equation"]');
  await expect(display.locator('math')).toBeVisible();
  await expect(display.locator('.doc-equation-number')).toHaveText('(1)');

  // A LaTeX error shows the source in red, and the document goes on.
  await annPage.keyboard.type('Broken $\\frac{a$ here. ');
  await expect(body(annPage).locator('.doc-equation.doc-math-error')).toHaveText('\\frac{a');

  // The citation picker from the menu (typing @ cites inline: editor-inline-cite.spec.ts); two
  // entries found by author and by year.
  await annPage.keyboard.type('See ');
  await menu(annPage, 'Insert', /^Citation(?! style)/);
  const picker = annPage.getByRole('dialog', { name: 'Insert citation' });
  await expect(picker).toBeVisible();
  const search = picker.getByRole('searchbox', { name: 'Search the bibliography' });
  await search.fill('smith');
  await expect(picker.getByRole('button', { name: /Smith.*Ink on paper/ })).toBeVisible();
  await search.press('Enter');
  await search.fill('2019');
  await picker.getByRole('button', { name: /Doe.*Quills/ }).click();
  await picker.getByRole('button', { name: 'Insert', exact: true }).click();
  await expect(picker).toBeHidden();
  const citation = body(annPage).locator('.doc-citation');
  await expect(citation).toHaveText('(Doe, 2019; Smith, 2020)');
  await expect(body(annPage)).not.toContainText('@');
  const bibliography = annPage.locator('.doc-bibliography');
  await expect(bibliography.getByRole('heading', { name: 'References' })).toBeVisible();
  await expect(bibliography.locator('.doc-bibliography-entry')).toHaveCount(2);
  await expect(bibliography.locator('.doc-bibliography-entry').first()).toContainText(
    'Doe, J. (2019). Quills',
  );
  await expect(annPage.locator('.editor-save-state')).toHaveAttribute('data-saved', 'true');

  // The co-author (read right, no such entries in his library) sees the same.
  await bobPage.goto(`/document/${id}`);
  await expect(body(bobPage).locator('.doc-equation math msup')).toHaveCount(1);
  await expect(body(bobPage).locator('.doc-equation-number')).toHaveText('(1)');
  await expect(body(bobPage).locator('.doc-citation')).toHaveText('(Doe, 2019; Smith, 2020)');
  await expect(bobPage.locator('.doc-bibliography-entry')).toHaveCount(2);

  // A numeric style: the citation becomes numbers, for both.
  await menu(annPage, 'File', 'Citation style…');
  const styleDialog = annPage.getByRole('dialog', { name: 'Citation style' });
  await chooseOption(styleDialog, 'Style of this document', 'IEEE');
  await expect(citation).toHaveText('[1], [2]');
  await styleDialog.getByRole('button', { name: 'Done' }).click();
  await expect(styleDialog).toBeHidden();
  await expect(body(bobPage).locator('.doc-citation')).toHaveText('[1], [2]');

  // A note style: the citation becomes note 1 (numbered with the footnotes), its text in the notes.
  await menu(annPage, 'File', 'Citation style…');
  await chooseOption(styleDialog, 'Style of this document', 'Chicago (notes and bibliography)');
  await styleDialog.getByRole('button', { name: 'Done' }).click();
  for (const page of [annPage, bobPage]) {
    await expect(body(page).locator('.doc-citation.doc-citation-note')).toHaveCount(1);
    const note = page.locator('.doc-citation-notes li');
    await expect(note).toHaveCount(1);
    await expect(note).toHaveAttribute('value', '1');
    await expect(note).toContainText('Doe');
    await expect(note).toContainText('Smith');
  }
});

test('a figure from the library and a reference to it, seen by a co-author', async ({ browser }) => {
  const { annPage, bobPage, id } = await annShares(browser, 'read');
  await annPage.goto(`/document/${id}`);
  await body(annPage).locator('p').first().click();
  await menu(annPage, 'Insert', 'Figure from the library');
  const figureDialog = annPage.getByRole('dialog', { name: 'Insert figure' });
  await figureDialog.getByRole('radio', { name: 'Growth plot' }).check();
  await figureDialog.getByRole('textbox', { name: 'Caption' }).fill('Growth of ink');
  await figureDialog.getByRole('button', { name: 'Insert', exact: true }).click();
  const figure = body(annPage).locator('figure[data-category="figure"]');
  await expect(figure.locator('figcaption')).toHaveText('Figure 1: Growth of ink');
  await annPage.keyboard.type('See ');
  await menu(annPage, 'Insert', 'Cross-reference');
  await annPage
    .getByRole('dialog', { name: 'Insert cross-reference' })
    .getByRole('button', { name: /Figure 1/ })
    .click();
  await expect(body(annPage).locator('.doc-cross-reference')).toHaveText('Figure 1');
  // A page cross-reference, chosen by keyboard: the form's radio buttons move with the arrow
  // keys, Enter picks the target. The editor has no pages: a placeholder stands for the number.
  await annPage.keyboard.type(' and ');
  await menu(annPage, 'Insert', 'Cross-reference');
  const dialog = annPage.getByRole('dialog', { name: 'Insert cross-reference' });
  await dialog.getByRole('radio', { name: 'Number', exact: true }).focus();
  await annPage.keyboard.press('ArrowDown');
  await annPage.keyboard.press('ArrowDown');
  await expect(dialog.getByRole('radio', { name: 'Number and page' })).toBeChecked();
  await dialog.getByRole('button', { name: /Figure 1/ }).focus();
  await annPage.keyboard.press('Enter');
  await expect(body(annPage).locator('.doc-cross-reference')).toHaveText(['Figure 1', 'Figure 1 on page #']);
  await expect(body(annPage).locator('.doc-page-placeholder')).toHaveAttribute('title', /^Page number/);
  await expect(annPage.locator('.editor-save-state')).toHaveAttribute('data-saved', 'true');

  // The co-author sees the same, including the image from Ann's library.
  await bobPage.goto(`/document/${id}`);
  await expect(body(bobPage).locator('.doc-cross-reference')).toHaveText(['Figure 1', 'Figure 1 on page #']);
  await expect(body(bobPage).locator('figure figcaption')).toHaveText('Figure 1: Growth of ink');
  const image = body(bobPage).locator('figure[data-category="figure"] img');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(60);
});

test('an image uploaded from inside the figure picker is chosen and inserted', async ({ page, user }) => {
  await loginAs(page, user, '/');
  const { id } = (await (await apiCall(page, documentsApi.create, { path: '/' })).json()) as { id: number };
  await page.goto(`/document/${id}`);
  await body(page).locator('p').first().click();
  await menu(page, 'Insert', 'Figure from the library');
  const figureDialog = page.getByRole('dialog', { name: 'Insert figure' });
  await expect(figureDialog.getByText('Your image library is empty.')).toBeVisible();
  // Not an image: the server's reason, and nothing chosen.
  const refused = page.waitForEvent('filechooser');
  await figureDialog.getByRole('button', { name: 'Upload an image…' }).click();
  await (await refused).setFiles({
    name: 'notes.png',
    mimeType: 'image/png',
    buffer: Buffer.from('plain text'),
  });
  await expect(figureDialog.getByRole('alert')).not.toBeEmpty();
  await expect(figureDialog.getByRole('button', { name: 'Insert', exact: true })).toBeDisabled();

  const buffer = await sharp({ create: { width: 80, height: 50, channels: 3, background: '#228833' } })
    .png()
    .toBuffer();
  const chooser = page.waitForEvent('filechooser');
  await figureDialog.getByRole('button', { name: 'Upload an image…' }).click();
  await (await chooser).setFiles({ name: 'field-map.png', mimeType: 'image/png', buffer });
  await expect(figureDialog.getByRole('radio', { name: 'field-map' })).toBeChecked();
  await expect(figureDialog.getByRole('alert')).toHaveCount(0);
  await figureDialog.getByRole('textbox', { name: 'Caption' }).fill('Field map');
  await figureDialog.getByRole('button', { name: 'Insert', exact: true }).click();
  await expect(body(page).locator('figure figcaption')).toHaveText('Figure 1: Field map');
  const image = body(page).locator('figure[data-category="figure"] img');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(80);
  // It is in the library too.
  await page.goto('/usermedia/');
  await expect(page.getByRole('grid', { name: 'Images' })).toContainText('field-map');
});

test('a display equation referenced, renumbered live, then deleted: the reference is missing and listed', async ({
  page,
  user,
}) => {
  await loginAs(page, user, '/');
  const { id } = (await (await apiCall(page, documentsApi.create, { path: '/' })).json()) as { id: number };
  await page.goto(`/document/${id}`);
  await body(page).locator('p').first().click();
  await page.keyboard.type('$$a$$');
  await page.keyboard.type('$$b$$');
  await expect(body(page).locator('.doc-equation-number')).toHaveText(['(1)', '(2)']);
  await page.keyboard.type('See ');
  await menu(page, 'Insert', 'Cross-reference');
  await page
    .getByRole('dialog', { name: 'Insert cross-reference' })
    .getByRole('button', { name: /\(2\)/ })
    .click();
  const reference = body(page).locator('.doc-cross-reference');
  await expect(reference).toHaveText('(2)');
  // The equation before it goes: the reference follows its target's new number.
  await body(page).locator('figure').first().click();
  await expect(body(page).locator('figure').first()).toHaveClass(/ProseMirror-selectednode/);
  await page.keyboard.press('Delete');
  await expect(body(page).locator('.doc-equation-number')).toHaveText(['(1)']);
  await expect(reference).toHaveText('(1)');
  // Its target deleted: shown as missing, in red, and listed in Tools. Deleting the first figure
  // left the editor's selection on the next one (a node selection hides the text caret), so Delete
  // deletes it. (A click on it now would be a click on a selected figure: Chrome then turns the
  // selection into a caret beside it, and Delete would delete nothing.)
  await expect(page.locator('.editor-document')).toHaveClass(/ProseMirror-hideselection/);
  await page.keyboard.press('Delete');
  await expect(reference).toHaveText('Missing reference');
  await expect(reference).toHaveClass(/doc-missing/);
  await menu(page, 'Tools', 'Broken cross-references');
  await expect(
    page
      .getByRole('dialog', { name: 'Broken cross-references' })
      .getByRole('button', { name: /deleted target/ }),
  ).toHaveText('Reference to a deleted target ((2))');
});

test('German: numbering, bibliography heading and dialogs in the document and interface language', async ({
  browser,
}) => {
  const { annPage, id } = await annShares(browser, 'write');
  await setLanguage(annPage, 'de');
  await annPage.goto(`/document/${id}`);
  await menu(annPage, 'Datei', 'Dokumenteinstellungen');
  const settings = annPage.getByRole('dialog', { name: 'Dokumenteinstellungen' });
  await chooseOption(settings, 'Sprache des Dokuments', 'Deutsch (Deutschland)');
  await settings.getByRole('button', { name: 'Fertig' }).click();
  await body(annPage).locator('p').first().click();
  await annPage.keyboard.type('Siehe ');
  await menu(annPage, 'Einfügen', /^Literaturverweis/);
  const picker = annPage.getByRole('dialog', { name: 'Literaturverweis einfügen' });
  await picker.getByRole('searchbox', { name: 'Literatur durchsuchen' }).fill('Smith');
  await picker.getByRole('button', { name: /Smith/ }).click();
  await picker.getByRole('textbox', { name: 'Seite' }).fill('12');
  await picker.getByRole('button', { name: 'Einfügen', exact: true }).click();
  await expect(body(annPage).locator('.doc-citation')).toHaveText('(Smith, 2020, S. 12)');
  await expect(
    annPage.locator('.doc-bibliography').getByRole('heading', { name: 'Literatur' }),
  ).toBeVisible();
  await annPage.keyboard.press('Enter');
  await menu(annPage, 'Einfügen', 'Abbildung aus der Bibliothek');
  const figureDialog = annPage.getByRole('dialog', { name: 'Abbildung einfügen' });
  await figureDialog.getByRole('radio', { name: 'Growth plot' }).check();
  await figureDialog.getByRole('textbox', { name: 'Bildunterschrift' }).fill('Tintenwachstum');
  await figureDialog.getByRole('button', { name: 'Einfügen', exact: true }).click();
  await expect(body(annPage).locator('figure figcaption')).toHaveText('Abbildung 1: Tintenwachstum');
  // Mod-e opens the math field; its LaTeX source inserts an inline equation.
  await annPage.keyboard.press('Control+e');
  const math = annPage.getByRole('dialog', { name: 'Formel' });
  await math.getByRole('textbox', { name: 'LaTeX-Quelltext' }).fill('\\sqrt{2}');
  await expect(math.getByTestId('math-preview').locator('msqrt')).toBeVisible();
  await math.getByRole('button', { name: 'Einfügen', exact: true }).click();
  await expect(body(annPage).locator('.doc-equation math msqrt')).toHaveCount(1);
});

test('a document made before the academic elements takes them; an edited entry is updated from the library', async ({
  page,
  user,
}) => {
  await loginAs(page, user, '/');
  const saved = (await (
    await apiCall(page, bibliographyApi.save, {
      is_new: true,
      bibs: {
        '-1': {
          entry_key: 'smith2020',
          bib_type: 'article',
          fields: { author: [person('Smith', 'Jane')], title: text('Ink on paper'), date: '2020' },
          cats: [],
        },
      },
    } as never)
  ).json()) as { id_translations: [number, number][] };
  const entryId = saved.id_translations[0][1];
  // The standard article as documents were made before issue 17: no academic elements allowed.
  const academic = ['equation', 'citation', 'cross_reference', 'figure'];
  const old = createDocument(schema, {
    ...standardArticle,
    parts: standardArticle.parts.map((part) => ({
      ...part,
      elements: part.elements.filter((element) => !academic.includes(element)),
    })),
  });
  const { id } = (await (await apiCall(page, documentsApi.create, { path: '/' })).json()) as { id: number };
  await writeDocumentContent(id, old.toJSON());
  await page.goto(`/document/${id}`);
  await body(page).locator('p').first().click();
  await page.keyboard.type('Energy $x^2$ grows. See ');
  await expect(body(page).locator('.doc-equation math msup')).toHaveCount(1);
  await menu(page, 'Insert', /^Citation(?! style)/);
  const picker = page.getByRole('dialog', { name: 'Insert citation' });
  await picker.getByRole('searchbox', { name: 'Search the bibliography' }).fill('smith');
  await picker.getByRole('button', { name: /Smith.*Ink on paper/ }).click();
  await picker.getByRole('button', { name: 'Insert', exact: true }).click();
  await expect(body(page).locator('.doc-citation')).toHaveText('(Smith, 2020)');

  // The entry is corrected in the library; the document keeps its copy until asked.
  await apiCall(page, bibliographyApi.save, {
    is_new: false,
    bibs: { [entryId]: smith('2021') },
  } as never);
  await menu(page, 'File', 'Update bibliography from library…');
  const dialog = page.getByRole('dialog', { name: 'Update bibliography from library' });
  await expect(dialog.getByRole('status')).toHaveText(
    '1 entry of the document differs from your library. Update it?',
  );
  await expect(body(page).locator('.doc-citation')).toHaveText('(Smith, 2020)');
  await dialog.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText('1 entry updated from your library.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(body(page).locator('.doc-citation')).toHaveText('(Smith, 2021)');
  await expect(page.locator('.editor-save-state')).toHaveAttribute('data-saved', 'true');
});
