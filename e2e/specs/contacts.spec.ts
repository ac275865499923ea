import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createUser, expect, loggedInBrowser, type TestUser, test } from '../fixtures';
import { E2E_DATA_DIR } from '../server-env';

/** The visible texts the story checks, per interface language (spec 2.4 and 8 for English). */
const TEXTS = {
  en: {
    title: 'Contacts',
    empty: 'No contacts available',
    invite: 'Invite contact',
    placeholder: 'e-mail address or username',
    submit: 'Invite',
    yourself: 'You cannot add yourself to your contacts!',
    already: 'This person is already in your contacts!',
    invalid: 'Invalid email!',
    sent: 'Invitation sent',
    received: 'Invitation received',
    contact: 'Contact',
    notice: 'Other users have requested to connect with you...',
    goToContacts: 'Go to contacts',
    respond: /^Respond/,
    accept: 'Accept',
    deleteTitle: 'Delete contacts',
    deleteButton: 'Delete',
  },
  de: {
    title: 'Kontakte',
    empty: 'Keine Kontakte vorhanden',
    invite: 'Kontakt einladen',
    placeholder: 'E-Mail-Adresse oder Benutzername',
    submit: 'Einladen',
    yourself: 'Sie können sich nicht selbst zu Ihren Kontakten hinzufügen!',
    already: 'Diese Person ist bereits in Ihren Kontakten!',
    invalid: 'Ungültige E-Mail-Adresse!',
    sent: 'Einladung gesendet',
    received: 'Einladung erhalten',
    contact: 'Kontakt',
    notice: 'Andere Benutzer möchten sich mit Ihnen verbinden...',
    goToContacts: 'Zu den Kontakten',
    respond: /antworten$/,
    accept: 'Annehmen',
    deleteTitle: 'Kontakte löschen',
    deleteButton: 'Löschen',
  },
} as const;

type Texts = (typeof TEXTS)[keyof typeof TEXTS];

function fullName(user: TestUser): string {
  return `${user.firstName} ${user.lastName}`;
}

function table(page: Page, texts: Texts) {
  return page.getByRole('grid', { name: texts.title });
}

function row(page: Page, texts: Texts, name: string) {
  return table(page, texts).getByRole('row').filter({ hasText: name });
}

async function openInviteDialog(page: Page, texts: Texts) {
  // The screen is its own chunk: shortcuts work once its menu is there.
  await expect(page.getByRole('button', { name: texts.invite, exact: true })).toBeVisible();
  await page.keyboard.press('Alt+i');
  const dialog = page.getByRole('dialog', { name: texts.invite });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The mails the e2e server wrote to its outbox (no SMTP_URL), as raw text with soft breaks undone. */
function outboxTexts(): string[] {
  const dir = path.join(E2E_DATA_DIR, 'mail');
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files.map((file) => readFileSync(path.join(dir, file), 'utf8').replace(/=\r?\n/g, ''));
}

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  test.describe(`contacts (${language})`, () => {
    // Two browsers and a real server on a possibly busy machine.
    test.describe.configure({ timeout: 60_000 });

    test('one invites, the other sees the notice and accepts, both are contacts, one deletes', async ({
      browser,
    }) => {
      const ada = await createUser({ firstName: 'Ada', lastName: `Inviter ${language}` });
      const bea = await createUser({ firstName: 'Bea', lastName: `Invitee ${language}` });
      const a = await loggedInBrowser(browser, ada, language, '/user/contacts/');
      const b = await loggedInBrowser(browser, bea, language, '/documents/');

      // A: the empty list, then the dialog's warnings and the invite itself.
      await expect(table(a.page, texts)).toContainText(texts.empty);
      const dialog = await openInviteDialog(a.page, texts);
      const box = dialog.getByPlaceholder(texts.placeholder);
      await box.fill(`${ada.username}, not-an@address`);
      await dialog.getByRole('button', { name: texts.submit, exact: true }).click();
      await expect(dialog).toContainText(texts.yourself);
      await expect(dialog).toContainText(texts.invalid);
      await expect(dialog).toBeVisible();
      await box.fill(`;${bea.username};`);
      await dialog.getByRole('button', { name: texts.submit, exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(row(a.page, texts, fullName(bea))).toContainText(texts.sent);

      // Inviting again is error 2.
      const again = await openInviteDialog(a.page, texts);
      await again.getByPlaceholder(texts.placeholder).fill(bea.username);
      await again.getByRole('button', { name: texts.submit, exact: true }).click();
      await expect(again).toContainText(texts.already);
      await a.page.keyboard.press('Escape');
      await expect(again).toBeHidden();

      // B: the notice on every page but the contacts page.
      await b.page.reload();
      const notice = b.page.getByRole('status').filter({ hasText: texts.notice });
      await expect(notice).toBeVisible();
      await notice.getByRole('button', { name: texts.goToContacts }).click();
      await expect(b.page).toHaveURL(/\/user\/contacts\/$/);
      await expect(b.page.getByText(texts.notice)).toHaveCount(0);
      const invitation = row(b.page, texts, fullName(ada));
      await expect(invitation).toContainText(texts.received);
      await invitation.getByRole('button', { name: texts.respond }).click();
      await b.page.getByRole('menuitem', { name: texts.accept }).click();
      await expect(invitation).toContainText(texts.contact);
      await expect(invitation).not.toContainText(texts.received);

      // Both see each other as contacts; the notice is gone for B.
      await a.page.reload();
      await expect(row(a.page, texts, fullName(bea))).toContainText(texts.contact);
      await expect(row(a.page, texts, fullName(bea))).toContainText(bea.email);
      await expect(row(b.page, texts, fullName(ada))).toContainText(ada.email);
      await b.page.goto('/documents/');
      await expect(b.page.getByRole('button', { name: texts.goToContacts })).toHaveCount(0);

      // A deletes with the keyboard: Space selects, Delete removes the row's contact.
      const contactRow = row(a.page, texts, fullName(bea));
      await contactRow.focus();
      await a.page.keyboard.press('Space');
      await expect(contactRow).toHaveAttribute('aria-selected', 'true');
      await a.page.keyboard.press('Delete');
      const confirm = a.page.getByRole('dialog', { name: texts.deleteTitle });
      await confirm.getByRole('button', { name: texts.deleteButton, exact: true }).click();
      await expect(table(a.page, texts)).toContainText(texts.empty);
      await b.page.goto('/user/contacts/');
      await expect(table(b.page, texts)).toContainText(texts.empty);

      await a.context.close();
      await b.context.close();
    });
  });
}

test('an invite mailed to an address is claimed by logging in from its link', async ({ browser }) => {
  test.setTimeout(60_000);
  const ada = await createUser({ firstName: 'Ada', lastName: 'Mailer' });
  const cleo = await createUser({ firstName: 'Cleo', lastName: 'Newcomer' });
  const address = `cleo-elsewhere-${Date.now()}@example.net`;
  const a = await loggedInBrowser(browser, ada, 'en', '/user/contacts/');
  const dialog = await openInviteDialog(a.page, TEXTS.en);
  await dialog.getByPlaceholder(TEXTS.en.placeholder).fill(address);
  await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(row(a.page, TEXTS.en, address)).toContainText(TEXTS.en.sent);

  let link = '';
  await expect
    .poll(() => {
      const mail = outboxTexts().find((text) => text.includes(address) && text.includes('/invite/'));
      link = /https?:\/\/\S+(\/invite\/\S+)/.exec(mail ?? '')?.[1] ?? '';
      return link;
    })
    .not.toBe('');

  // Cleo opens the link before logging in: the login page, then straight on to the invite.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel('Username or e-mail').fill(cleo.username);
  await page.getByLabel('Password').fill(cleo.password);
  await page.locator('form').getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/user\/contacts\/$/);
  await expect(row(page, TEXTS.en, fullName(ada))).toContainText(TEXTS.en.received);

  // The used link does nothing more: it leads home.
  await page.goto(link);
  await expect(page).toHaveURL(/\/$/);
  await context.close();
  await a.context.close();
});
