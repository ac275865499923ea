import type { Browser, Page } from '@playwright/test';
import type { AccessRight } from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { card, caretIn, firstParagraph as paragraph, saved, writeSaved } from '../editor';
import {
  apiCall,
  becomeContacts,
  contactIdOf,
  createUser,
  expect,
  loginAs,
  selectionSeen,
  setLanguage,
  type TestUser,
  test,
  watchSelection,
} from '../fixtures';

// Accounts are made by the CLI on the server's SQLite file: one test after the other.
test.describe.configure({ mode: 'serial' });

interface Person {
  user: TestUser;
  page: Page;
}

/** The owner's contact id of `other`, after an invitation `other` accepted. */
async function befriend(owner: Person, other: Person): Promise<number> {
  await becomeContacts(owner.page, other.page, other.user);
  return contactIdOf(owner.page, other.user.firstName);
}

/**
 * A supervisor (review), a student (owner) and a co-author (write-tracked), all in German, each
 * with the student's new document open; the student has written `text` into it (saved).
 */
async function reviewTeam(browser: Browser, text: string) {
  const people: Person[] = [];
  for (const [firstName, lastName] of [
    ['Ann', 'Autorin'],
    ['Bob', 'Mitautor'],
    ['Cleo', 'Betreuerin'],
  ]) {
    const user = await createUser({ firstName, lastName });
    const page = await (await browser.newContext()).newPage();
    await loginAs(page, user, '/');
    await setLanguage(page, 'de');
    people.push({ user, page });
  }
  const [ann, bob, cleo] = people;
  const created = await apiCall(ann.page, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  const access: { holder_type: 'user'; holder_id: number; rights: AccessRight }[] = [
    { holder_type: 'user', holder_id: await befriend(ann, bob), rights: 'write-tracked' },
    { holder_type: 'user', holder_id: await befriend(ann, cleo), rights: 'review' },
  ];
  await apiCall(ann.page, documentsApi.accessSave, { id, access });
  for (const { page } of people) await page.goto(`/document/${id}`);
  await writeSaved(ann.page, text);
  return { ann, bob, cleo, id };
}

/**
 * Moves the caret `wordsBack` words to the left, then selects one word towards `direction`
 * (Control+Shift+arrow) and waits until the page has seen `expected` selected.
 */
async function selectWord(
  page: Page,
  wordsBack: number,
  direction: 'ArrowLeft' | 'ArrowRight',
  expected: string,
) {
  for (let i = 0; i < wordsBack; i++) await page.keyboard.press('Control+ArrowLeft');
  await watchSelection(page);
  await page.keyboard.press(`Control+Shift+${direction}`);
  await selectionSeen(page, expected);
}

/** Comments the selection with Mod-Alt-M: the composer takes the focus, the comment is sent. */
async function sendComment(page: Page, text: string) {
  await page.keyboard.press('Control+Alt+m');
  const composer = page.getByRole('textbox', { name: 'Neuer Kommentar' });
  await expect(composer).toBeFocused();
  await composer.fill(text);
  await page
    .getByRole('form', { name: 'Neuer Kommentar' })
    .getByRole('button', { name: 'Kommentieren' })
    .click();
}

async function menu(page: Page, name: string, item: string) {
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('a supervisor reviews in suggestion mode with comments; the student decides, compares and restores (German)', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The student writes and saves a named revision.
  const { ann, bob, cleo } = await reviewTeam(browser, 'Der Versuch zeigt ein klares Ergebnis');
  await menu(ann.page, 'Datei', 'Version speichern…');
  const dialog = ann.page.getByRole('dialog', { name: 'Version speichern' });
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Bitte geben Sie der Version einen Namen.');
  await dialog.getByLabel('Name').fill('Entwurf 1');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(ann.page.getByText('Version „Entwurf 1“ gespeichert.')).toBeVisible();

  // The write-tracked co-author can only suggest: a deletion and an insertion, in his colour.
  await expect(bob.page.getByText('Ihre Änderungen werden als Vorschläge aufgezeichnet.')).toBeVisible();
  await caretIn(bob.page, 'Der Versuch zeigt ein klares Ergebnis');
  await bob.page.keyboard.type(' und neu');
  await selectWord(bob.page, 3, 'ArrowLeft', 'klares ');
  await bob.page.keyboard.press('Backspace');
  await saved(bob.page);
  await expect(paragraph(bob.page).locator('.insertion')).toHaveText(' und neu');
  await expect(paragraph(bob.page).locator('.deletion')).toHaveText('klares ');
  // The text stays whole (the deletion is only marked) for everyone.
  await expect(paragraph(ann.page)).toHaveText('Der Versuch zeigt ein klares Ergebnis und neu');
  await expect(card(ann.page, 'Bob Mitautor hat Text eingefügt')).toBeVisible();
  await expect(card(ann.page, 'Bob Mitautor hat Text gelöscht')).toBeVisible();
  // A suggester cannot accept; he may withdraw his own suggestions.
  await expect(card(bob.page, 'hat Text eingefügt').getByRole('button', { name: 'Annehmen' })).toHaveCount(0);
  await expect(
    card(bob.page, 'hat Text eingefügt').getByRole('button', { name: 'Zurückziehen' }),
  ).toBeVisible();

  // The supervisor comments with Mod-Alt-M on “Ergebnis”.
  await caretIn(cleo.page, 'Der Versuch zeigt ein klares Ergebnis und neu');
  await selectWord(cleo.page, 3, 'ArrowRight', 'Ergebnis');
  await sendComment(cleo.page, 'Bitte mit einer Quelle belegen.');
  await expect(paragraph(cleo.page).locator('.review-comment')).toHaveText('Ergebnis');
  await saved(cleo.page);

  // The student answers; the co-author answers too, which the supervisor does not see.
  const annThread = card(ann.page, 'Bitte mit einer Quelle belegen.');
  await expect(annThread).toBeVisible();
  await expect(paragraph(ann.page).locator('.review-comment')).toHaveText('Ergebnis');
  // A thread opens (answers, controls) when it is chosen.
  await annThread.getByRole('button', { name: /Bitte mit einer Quelle belegen/ }).click();
  await annThread.getByRole('textbox', { name: 'Antworten' }).fill('Quelle ergänzt.');
  await annThread.getByRole('button', { name: 'Antworten' }).click();
  const bobThread = card(bob.page, 'Bitte mit einer Quelle belegen.');
  await expect(bobThread).toContainText('1 Antwort');
  await bobThread.getByRole('button', { name: /Bitte mit einer Quelle belegen/ }).click();
  await expect(bobThread).toContainText('Quelle ergänzt.');
  await bobThread.getByRole('textbox', { name: 'Antworten' }).fill('Einverstanden.');
  await bobThread.getByRole('button', { name: 'Antworten' }).click();
  await expect(annThread).toContainText('Einverstanden.');
  const cleoThread = card(cleo.page, 'Bitte mit einer Quelle belegen.');
  await expect(cleoThread).toContainText('Quelle ergänzt.');
  await expect(cleoThread).not.toContainText('Einverstanden.');

  // Resolving hides the highlight.
  await annThread.getByRole('button', { name: 'Erledigt' }).click();
  await expect(paragraph(cleo.page).locator('.review-comment')).toHaveCount(0);
  await expect(paragraph(ann.page).locator('.review-comment')).toHaveCount(0);

  // The student accepts the insertion and rejects the deletion.
  await card(ann.page, 'hat Text eingefügt').getByRole('button', { name: 'Annehmen' }).click();
  // The decided card leaves and the others move up: the next click waits for that, or it may land
  // where the card was a moment before (the click missed, and the deletion stayed undecided).
  await expect(card(ann.page, 'hat Text eingefügt')).toHaveCount(0);
  await card(ann.page, 'hat Text gelöscht').getByRole('button', { name: 'Ablehnen' }).click();
  await expect(card(ann.page, 'hat Text gelöscht')).toHaveCount(0);
  await expect(paragraph(ann.page).locator('.insertion, .deletion')).toHaveCount(0);
  await saved(ann.page);
  await expect(paragraph(bob.page).locator('.insertion, .deletion')).toHaveCount(0);
  await expect(paragraph(bob.page)).toHaveText('Der Versuch zeigt ein klares Ergebnis und neu');

  // History: compare the named revision with the current text, then restore it.
  await menu(ann.page, 'Datei', 'Versionsverlauf');
  const history = ann.page.getByRole('dialog', { name: 'Versionsverlauf' });
  const row = history.getByRole('row', { name: /Entwurf 1/ });
  await expect(row).toContainText('Ann Autorin');
  await row.getByRole('checkbox').check();
  await history.getByRole('button', { name: 'Mit dem aktuellen Text vergleichen' }).click();
  const compared = ann.page.getByRole('dialog', { name: /Entwurf 1 .* verglichen mit aktueller Text/ });
  await expect(compared.getByTestId('revision-document').locator('.review-diff-inserted')).toHaveText(
    ' und neu',
  );
  await compared.getByRole('button', { name: 'Zurück zum Versionsverlauf' }).click();
  await ann.page
    .getByRole('dialog', { name: 'Versionsverlauf' })
    .getByRole('row', { name: /Entwurf 1/ })
    .getByRole('button', { name: 'Wiederherstellen' })
    .click();
  await ann.page
    .getByRole('dialog', { name: 'Diese Version wiederherstellen?' })
    .getByRole('button', { name: 'Wiederherstellen' })
    .click();
  await expect(ann.page.getByText(/Entwurf 1 .* wiederhergestellt\./)).toBeVisible();
  await expect(paragraph(ann.page)).toHaveText('Der Versuch zeigt ein klares Ergebnis');
  await expect(paragraph(bob.page)).toHaveText('Der Versuch zeigt ein klares Ergebnis');
  await expect(
    bob.page.getByText(
      'Das Dokument wurde auf eine frühere Version zurückgesetzt; die Fassung davor bleibt im Versionsverlauf erhalten.',
    ),
  ).toBeVisible();
  // Nothing is lost: the text before the restore is an automatic revision in the history.
  await menu(ann.page, 'Datei', 'Versionsverlauf');
  await expect(
    ann.page
      .getByRole('dialog', { name: 'Versionsverlauf' })
      .getByRole('row', { name: /Automatische Version/ }),
  ).toHaveCount(1);
});

test('a write-tracked co-author starts new paragraphs and a reviewer joins two; the owner accepts and rejects (German)', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { ann, bob, cleo } = await reviewTeam(browser, 'Erster Absatz');
  const paragraphs = (page: Page) => page.locator('.doc-richtext_part[data-part-id="body"] p');

  // Enter at the end and a new paragraph, both suggestions of Bob's.
  await caretIn(bob.page, 'Erster Absatz');
  await bob.page.keyboard.press('Enter');
  await bob.page.keyboard.type('Zweiter Absatz');
  await saved(bob.page);
  await expect(paragraphs(bob.page)).toHaveText(['Erster Absatz', 'Zweiter Absatz']);
  await expect(bob.page.getByText(/Diese Änderung kann nicht als Vorschlag/)).toHaveCount(0);
  // The owner sees it live as a suggestion: the new block marked in Bob's colour, two cards.
  await expect(paragraphs(ann.page)).toHaveText(['Erster Absatz', 'Zweiter Absatz']);
  await expect(paragraphs(ann.page).nth(1)).toHaveClass(/review-block-insertion/);
  await expect(paragraphs(ann.page).nth(1).locator('.insertion')).toHaveText('Zweiter Absatz');
  const split = card(ann.page, 'Bob Mitautor hat einen neuen Absatz begonnen');
  await expect(split).toBeVisible();
  await split.getByRole('button', { name: 'Annehmen' }).click();
  await card(ann.page, 'Bob Mitautor hat Text eingefügt').getByRole('button', { name: 'Annehmen' }).click();
  await saved(ann.page);
  await expect(paragraphs(bob.page)).toHaveText(['Erster Absatz', 'Zweiter Absatz']);
  await expect(bob.page.locator('.review-block-insertion, .insertion')).toHaveCount(0);

  // Another Enter, in the middle of the first paragraph: rejected, the paragraph is whole again.
  await paragraphs(bob.page).first().click();
  await bob.page.keyboard.press('Home');
  for (let i = 0; i < 'Erster'.length; i++) await bob.page.keyboard.press('ArrowRight');
  await bob.page.keyboard.press('Enter');
  await saved(bob.page);
  await expect(paragraphs(ann.page)).toHaveText(['Erster', ' Absatz', 'Zweiter Absatz']);
  await card(ann.page, 'Bob Mitautor hat einen neuen Absatz begonnen')
    .getByRole('button', { name: 'Ablehnen' })
    .click();
  await saved(ann.page);
  await expect(paragraphs(bob.page)).toHaveText(['Erster Absatz', 'Zweiter Absatz']);

  // The reviewer joins the two with Backspace: only marked until the owner accepts.
  await expect(paragraphs(cleo.page)).toHaveText(['Erster Absatz', 'Zweiter Absatz']);
  await paragraphs(cleo.page).nth(1).click();
  await cleo.page.keyboard.press('Home');
  await cleo.page.keyboard.press('Backspace');
  await saved(cleo.page);
  await expect(paragraphs(ann.page).nth(1)).toHaveClass(/review-block-deletion/);
  await card(ann.page, 'Cleo Betreuerin hat zwei Absätze verbunden')
    .getByRole('button', { name: 'Annehmen' })
    .click();
  await saved(ann.page);
  await expect(paragraphs(cleo.page)).toHaveText(['Erster AbsatzZweiter Absatz']);
});

test('a card keeps its place while pressed: a comment coming in above it does not take the click away (German)', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { ann, bob, cleo } = await reviewTeam(browser, 'Der Versuch zeigt ein klares Ergebnis');
  await caretIn(bob.page, 'Der Versuch zeigt ein klares Ergebnis');
  await bob.page.keyboard.type(' und neu');
  await saved(bob.page);

  // The student presses “Annehmen”; before she releases, the supervisor's comment on “Der”
  // comes in: its card goes before the insertion's on the same line.
  const accept = card(ann.page, 'hat Text eingefügt').getByRole('button', { name: 'Annehmen' });
  // Measured only once the card quotes the whole insertion: drawn while only the space had
  // arrived, it has no quote line yet and its buttons move down a line when the rest comes.
  await expect(card(ann.page, 'hat Text eingefügt')).toContainText('Eingefügt: „und neu“');
  await expect(accept).toBeVisible();
  const box = await accept.boundingBox();
  if (!box) throw new Error('no button');
  await ann.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await ann.page.mouse.down();
  await caretIn(cleo.page, 'Der Versuch zeigt ein klares Ergebnis und neu', 'Home');
  await selectWord(cleo.page, 0, 'ArrowRight', 'Der');
  await sendComment(cleo.page, 'Welcher Versuch?');
  const comment = card(ann.page, 'Welcher Versuch?');
  await expect(comment).toBeVisible();
  // The margin has drawn the new card (it follows the text once edits pause) yet kept the pressed one.
  await expect(comment).toHaveAttribute('style', /top: \d/);
  expect((await accept.boundingBox())?.y).toBeCloseTo(box.y, 0);
  await ann.page.mouse.up();

  await expect(paragraph(ann.page).locator('.insertion')).toHaveCount(0);
  await expect(paragraph(bob.page).locator('.insertion')).toHaveCount(0);
  await expect(paragraph(bob.page)).toHaveText('Der Versuch zeigt ein klares Ergebnis und neu');
  // Released, the cards line up again: the comment's card is not covered by another.
  await expect(card(ann.page, 'hat Text eingefügt')).toHaveCount(0);
});
