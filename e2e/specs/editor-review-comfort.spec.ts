import type { Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { insertCitation } from '@scriptorium/common/editor/academic-commands';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { partStart } from '@scriptorium/common/editor/testing';
import { EditorState, TextSelection } from 'prosemirror-state';
import { card, firstParagraph, saved } from '../editor';
import { apiCall, createUser, expect, loginAs, setLanguage, test, writeDocumentContent } from '../fixtures';

/**
 * Issue 55, item 5: suggestion cards quote what they insert, the revision comparison draws
 * citations and equations as the editor does, and a restore asks first and can be undone.
 */

test.describe.configure({ mode: 'serial', timeout: 60_000 });

const text = (value: string) => [{ type: 'text', text: value }];

/** A paper whose body cites Smith (2020) from the document's own bibliography, with an equation. */
function citingPaper(language: string) {
  const doc = createDocument(schema, standardArticle, { title: 'Ink', language });
  let state = EditorState.create({ doc });
  // Inside the body's paragraph.
  const start = partStart(doc, 'body') + 1;
  state = state.apply(state.tr.setSelection(TextSelection.create(doc, start)).insertText('See '));
  const smith = {
    bib_type: 'article',
    fields: {
      author: [{ family: text('Smith'), given: text('Jane') }],
      title: text('Ink on paper'),
      journaltitle: text('Journal of Writing'),
      date: '2020',
    },
  };
  insertCitation(
    'autocite',
    [{ id: '1-1', prefix: '', locator: '' }],
    new Map([['1-1', smith as never]]),
  )(state, (tr) => {
    state = state.apply(tr);
  });
  const equation = schema.nodes.equation.create({ equation: 'x^2' });
  state = state.apply(state.tr.insertText(' and ').insert(state.selection.from + 5, equation));
  return state.doc;
}

const TEXTS = {
  en: {
    file: 'File',
    saveRevision: 'Save revision…',
    saveDialog: 'Save revision',
    name: 'Name',
    save: 'Save',
    saved: 'Revision “Draft 1” saved.',
    history: 'History',
    compareCurrent: 'Compare with the current text',
    compared: /Draft 1 .* compared with current text/,
    back: 'Back to the history',
    restore: 'Restore',
    confirmTitle: 'Restore this revision?',
    confirmText:
      /^The document will be replaced by Draft 1 .*\. Its current text is saved first as an automatic revision in the history, so you can go back to it\.$/,
    restored:
      /^Restored Draft 1 .*\. The text before it is kept in the history as an automatic revision: restore that one to go back\.$/,
    auto: 'Automatic revision',
    open: 'Open',
    quote: 'Inserted: “Ink dries slowly on old paper”',
  },
  de: {
    file: 'Datei',
    saveRevision: 'Version speichern…',
    saveDialog: 'Version speichern',
    name: 'Name',
    save: 'Speichern',
    saved: 'Version „Draft 1“ gespeichert.',
    history: 'Versionsverlauf',
    compareCurrent: 'Mit dem aktuellen Text vergleichen',
    compared: /Draft 1 .* verglichen mit aktueller Text/,
    back: 'Zurück zum Versionsverlauf',
    restore: 'Wiederherstellen',
    confirmTitle: 'Diese Version wiederherstellen?',
    confirmText:
      /^Das Dokument wird durch Draft 1 .* ersetzt\. Sein aktueller Text wird vorher als automatische Version im Versionsverlauf gespeichert, sodass Sie dorthin zurückkehren können\.$/,
    restored:
      /^Draft 1 .* wiederhergestellt\. Der Text davor bleibt als automatische Version im Versionsverlauf erhalten/,
    auto: 'Automatische Version',
    open: 'Öffnen',
    quote: 'Eingefügt: „Ink dries slowly on old paper“',
  },
};

/** A menu of the menu bar; on a phone the menu bar is in the drawer its button opens. */
async function menu(page: Page, name: string, item: string) {
  const drawer = TEXTS.de.file === name ? 'Menüs' : 'Menus';
  if ((page.viewportSize()?.width ?? 1280) <= 640)
    await page.getByRole('button', { name: drawer, exact: true }).click();
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** Screenshots for a look by hand: only when REVIEW_SHOTS names a folder. */
async function shot(page: Page, name: string) {
  if (process.env.REVIEW_SHOTS) await page.screenshot({ path: `${process.env.REVIEW_SHOTS}/${name}.png` });
}

const CASES = [
  { device: 'desktop', language: 'en', viewport: { width: 1280, height: 800 } },
  { device: 'phone', language: 'de', viewport: { width: 390, height: 844 } },
] as const;

for (const { device, language, viewport } of CASES) {
  test.describe(device, () => {
    test.use({ viewport });

    test(`a suggestion quoted, a comparison with its citation drawn, a restore confirmed and undoable (${language})`, async ({
      page,
    }) => {
      const words = TEXTS[language];
      const user = await createUser({ firstName: 'Ann', lastName: 'Writer' });
      await loginAs(page, user, '/');
      if (language !== 'en') await setLanguage(page, language);
      const created = await apiCall(page, documentsApi.create, { path: '/' });
      const { id } = (await created.json()) as { id: number };
      await writeDocumentContent(id, citingPaper(language === 'de' ? 'de-DE' : 'en-US').toJSON());
      await page.goto(`/document/${id}`);
      await expect(firstParagraph(page).locator('.doc-citation')).toHaveText('(Smith, 2020)');

      // A named revision of the paper as it is.
      await menu(page, words.file, words.saveRevision);
      const save = page.getByRole('dialog', { name: words.saveDialog });
      await save.getByRole('textbox', { name: words.name }).fill('Draft 1');
      await save.getByRole('button', { name: words.save, exact: true }).click();
      await expect(page.getByText(words.saved)).toBeVisible();

      // A suggestion: its card quotes the inserted words.
      await firstParagraph(page).click();
      await page.keyboard.press('End');
      await page.keyboard.press('Control+Alt+s');
      await page.keyboard.type(' Ink dries slowly on old paper');
      await saved(page);
      const quoted = card(page, words.quote);
      await expect(quoted.locator('.review-change-quote')).toHaveText(words.quote);
      await quoted.scrollIntoViewIfNeeded();
      await shot(page, `card-${device}`);

      // The comparison draws the citation and the equation as the editor does.
      await menu(page, words.file, words.history);
      const history = page.getByRole('dialog', { name: words.history });
      await history
        .getByRole('row', { name: /Draft 1/ })
        .getByRole('checkbox')
        .check();
      await history.getByRole('button', { name: words.compareCurrent }).click();
      const compared = page.getByRole('dialog', { name: words.compared });
      const shown = compared.getByTestId('revision-document');
      await expect(shown.locator('.doc-citation')).toHaveText('(Smith, 2020)');
      await expect(shown.locator('.doc-equation math msup')).toHaveCount(1);
      await expect(shown.locator('.review-diff-inserted')).toHaveText('Ink dries slowly on old paper');
      await expect(shown).not.toContainText('@1-1');
      await shot(page, `compare-${device}`);
      await compared.getByRole('button', { name: words.back }).click();

      // Restoring asks first; Escape keeps everything as it is.
      const row = page.getByRole('dialog', { name: words.history }).getByRole('row', { name: /Draft 1/ });
      await row.getByRole('button', { name: words.restore }).click();
      const confirm = page.getByRole('dialog', { name: words.confirmTitle });
      await expect(confirm.locator('.dialog-message')).toHaveText(words.confirmText);
      await shot(page, `confirm-${device}`);
      await page.keyboard.press('Escape');
      await expect(confirm).toBeHidden();
      await expect(page.getByRole('dialog', { name: words.history })).toBeVisible();
      await expect(firstParagraph(page)).toContainText('Ink dries slowly');

      // Confirmed: the revision is back, and the text before it is a new automatic revision.
      await row.getByRole('button', { name: words.restore }).click();
      await confirm.getByRole('button', { name: words.restore, exact: true }).click();
      await expect(page.getByText(words.restored)).toBeVisible();
      await expect(firstParagraph(page)).not.toContainText('Ink dries slowly');
      await expect(firstParagraph(page).locator('.doc-citation')).toHaveText('(Smith, 2020)');
      await menu(page, words.file, words.history);
      const automatic = page
        .getByRole('dialog', { name: words.history })
        .getByRole('row', { name: words.auto });
      await expect(automatic).toHaveCount(1);
      await automatic.getByRole('button', { name: words.open }).click();
      await expect(page.getByTestId('revision-document')).toContainText('Ink dries slowly on old paper');
    });
  });
}
