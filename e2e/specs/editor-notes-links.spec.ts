import type { Browser } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { body, firstParagraph, saved } from '../editor';
import {
  apiCall,
  createUser,
  expect,
  loginAs,
  selectionSeen,
  setLanguage,
  test,
  watchSelection,
} from '../fixtures';

// Footnotes listed under the text and edited there, left with Escape or the arrows; links inserted
// with their text (Mod-k) and made by pasting an address over selected text (issue 55).

const TEXTS = {
  en: {
    note: 'Text of footnote 1',
    notes: 'Footnotes',
    dialog: 'Link',
    text: 'Text to display',
    href: 'Web address',
    apply: 'Apply',
    needsText: 'Enter the text to display.',
  },
  de: {
    note: 'Text der Fußnote 1',
    notes: 'Fußnoten',
    dialog: 'Link',
    text: 'Anzuzeigender Text',
    href: 'Webadresse',
    apply: 'Übernehmen',
    needsText: 'Geben Sie den anzuzeigenden Text ein.',
  },
};

const SCENARIOS = [
  { name: 'desktop, English', language: 'en', viewport: { width: 1280, height: 800 } },
  { name: 'phone, German', language: 'de', viewport: { width: 390, height: 844 } },
] as const;

async function openNewDocument(
  browser: Browser,
  language: 'en' | 'de',
  viewport: { width: number; height: number },
) {
  const user = await createUser();
  const page = await (await browser.newContext({ viewport })).newPage();
  await loginAs(page, user, '/');
  if (language !== 'en') await setLanguage(page, language);
  const created = await apiCall(page, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/document/${id}`);
  return page;
}

/** Screenshots for a person to look at, when SHOTS_DIR names a folder. */
async function shot(page: import('@playwright/test').Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png` });
}

for (const { name, language, viewport } of SCENARIOS) {
  test(`notes under the text, Escape and arrows leave them; links with text and by paste (${name})`, async ({
    browser,
  }) => {
    const texts = TEXTS[language];
    const page = await openNewDocument(browser, language, viewport);
    const paragraph = firstParagraph(page);
    await paragraph.click();
    await page.keyboard.type('Ink');

    // A footnote: its text is typed in place, in the list under the text, and Escape goes back.
    await page.keyboard.press('ControlOrMeta+Alt+f');
    const notes = page.locator('.doc-notes');
    const note = notes.getByRole('textbox', { name: texts.note });
    await expect(note).toBeFocused();
    await expect(notes.getByRole('heading', { name: texts.notes })).toBeVisible();
    await page.keyboard.type('A note');
    await page.keyboard.press('Escape');
    await page.keyboard.type(' and paper');
    await expect(paragraph).toHaveText('Ink and paper');
    await expect(note).toHaveText('A note');
    await expect(note).toBeVisible();

    // The number in the text leads to the note; the note is edited in place, and ArrowRight at its
    // end leaves it too, after the footnote's number.
    await body(page).locator('.doc-footnote-marker').click();
    await expect(note).toBeFocused();
    await page.keyboard.press('Escape');
    await note.click();
    await shot(page, `note-editing-${language}`);
    await page.keyboard.press('End');
    // Formatting keys work in the note's own editor too.
    await page.keyboard.press('ControlOrMeta+b');
    await page.keyboard.type(' here');
    await page.keyboard.press('ControlOrMeta+b');
    await expect(note.locator('strong')).toHaveText('here');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('!');
    await expect(note).toHaveText('A note here');
    await expect(paragraph).toHaveText('Ink! and paper');
    await expect(body(page).locator('.doc-footnote-marker')).toHaveCount(1);
    await shot(page, `notes-${language}`);

    // Mod-k with nothing selected asks for the text and the address, and inserts the link.
    await page.keyboard.press('End');
    await page.keyboard.type(', see ');
    await page.keyboard.press('ControlOrMeta+k');
    const dialog = page.getByRole('dialog', { name: texts.dialog });
    await expect(dialog.getByLabel(texts.text)).toBeFocused();
    await dialog.getByLabel(texts.href).fill('https://example.org/guide');
    await dialog.getByRole('button', { name: texts.apply }).click();
    await expect(dialog.getByRole('alert')).toHaveText(texts.needsText);
    await dialog.getByLabel(texts.text).fill('the guide');
    await shot(page, `link-dialog-${language}`);
    // Enter applies; typed at once after it: the dialog gives the focus back to the editor as it
    // closes, not a frame later (the keys in between went to the page's body).
    await page.keyboard.press('Enter');
    await page.keyboard.type(' now');
    await expect(dialog).toBeHidden();
    await expect(paragraph).toHaveText('Ink! and paper, see the guide now');
    await expect(paragraph.locator('a')).toHaveText('the guide');
    await expect(paragraph.locator('a')).toHaveAttribute('href', 'https://example.org/guide');

    // An address pasted over selected text links that text; an unsafe one is pasted as text.
    await watchSelection(page);
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
    await selectionSeen(page, 'Ink');
    const paste = (text: string) =>
      page.evaluate((pasted) => {
        const data = new DataTransfer();
        data.setData('text/plain', pasted);
        document.activeElement?.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      }, text);
    await paste('https://example.org/ink');
    await expect(paragraph.locator('a').first()).toHaveText('Ink');
    await expect(paragraph.locator('a').first()).toHaveAttribute('href', 'https://example.org/ink');
    await expect(paragraph).toHaveText('Ink! and paper, see the guide now');
    await saved(page);
  });
}
