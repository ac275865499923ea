import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import {
  apiCall,
  createUser,
  expect,
  loginAs,
  sendCall,
  setLanguage,
  type TestUser,
  test,
} from '../fixtures';
import { E2E_DATA_DIR } from '../server-env';

interface PasswordForm {
  /** The labels of the new password and of its confirmation, and the name of the submit button. */
  password: string;
  again: string;
  submit: string;
  /** What the form says when the two differ. */
  mismatch: string;
}

/** The password reset page in English and the profile's change-password dialog in German. */
const PASSWORD_FORMS: Record<'resetEn' | 'changeDe', PasswordForm> = {
  resetEn: {
    password: 'New password',
    again: 'New password (again)',
    submit: 'Change password',
    mismatch: 'You must type the same password each time.',
  },
  changeDe: {
    password: 'Neues Passwort',
    again: 'Neues Passwort bestätigen',
    submit: 'Ändern',
    mismatch: 'Bitte bestätigen Sie das neue Passwort!',
  },
};

/**
 * In a form asking for a new password twice: `password` with a confirmation that differs (`other`)
 * is refused; with the confirmation corrected the form is sent again.
 */
async function newPasswordTwice(form: Page | Locator, texts: PasswordForm, password: string, other: string) {
  await form.getByLabel(texts.password, { exact: true }).fill(password);
  await form.getByLabel(texts.again).fill(other);
  await form.getByRole('button', { name: texts.submit }).click();
  await expect(form.getByText(texts.mismatch)).toBeVisible();
  await form.getByLabel(texts.again).fill(password);
  await form.getByRole('button', { name: texts.submit }).click();
}

/** Mails land in the server's outbox (DATA_DIR/mail/*.eml) when no SMTP server is configured. */
function mailsTo(address: string): string[] {
  const dir = path.join(E2E_DATA_DIR, 'mail');
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .filter((raw) => new RegExp(`^To: .*${address.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw))
    .map((raw) =>
      raw
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    );
}

/** Waits for the newest mail to `address` with a link under `prefix` and answers the link's path. */
async function linkFromMail(address: string, prefix: string, after = 0): Promise<string> {
  let link = '';
  await expect
    .poll(() => {
      const mails = mailsTo(address).slice(after);
      const match = mails.length
        ? new RegExp(`https?://[^/\\s]+(${prefix}[A-Za-z0-9_-]+)`).exec(mails.at(-1) ?? '')
        : null;
      link = match?.[1] ?? '';
      return link;
    })
    .not.toBe('');
  return link;
}

function dialog(page: Page, title: string) {
  return page.getByRole('dialog', { name: title });
}

test.describe('password reset', () => {
  test('recovers a forgotten password from the mail (English)', async ({ page, user }) => {
    await page.goto('/account/password-reset/');
    const submit = page.getByRole('button', { name: 'Reset My Password' });
    await submit.click();
    await expect(page.getByText('This field is required.')).toBeVisible();
    await page.getByLabel('E-mail address').fill('not-an-address');
    await submit.click();
    await expect(page.getByText('This is not a valid email.')).toBeVisible();
    await page.getByLabel('E-mail address').fill(user.email);
    await submit.click();
    await expect(page.getByRole('heading', { name: 'Instructions emailed' })).toBeVisible();

    const link = await linkFromMail(user.email, '/account/change-password/');
    await page.goto(link);
    // The key leaves the address bar (spec 2.1).
    await expect(page).toHaveURL(/\/account\/change-password\/$/);
    await newPasswordTwice(page, PASSWORD_FORMS.resetEn, 'a brand new secret', 'a different secret');
    await expect(page.getByRole('heading', { name: 'Password reset' })).toBeVisible();

    await loginAs(page, { ...user, password: 'a brand new secret' }, '/user/profile/');
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  });

  test('is offered in German, and a used link is refused', async ({ page, user }) => {
    await setLanguage(page, 'de');
    await page.goto('/account/password-reset/');
    await page.getByRole('button', { name: 'Mein Passwort zurücksetzen' }).click();
    await expect(page.getByText('Dieses Feld ist erforderlich.')).toBeVisible();
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByRole('button', { name: 'Mein Passwort zurücksetzen' }).click();
    await expect(page.getByRole('heading', { name: 'Anleitung per E-Mail verschickt' })).toBeVisible();
    const link = await linkFromMail(user.email, '/account/change-password/');
    const key = link.split('/').filter(Boolean).pop() ?? '';
    await apiCall(page, userApi.passwordResetKey, { key });
    await apiCall(page, userApi.passwordResetSet, {
      key,
      password1: 'used once only',
      password2: 'used once only',
    });
    await page.goto(link);
    await expect(page.getByText(/Dieser Link zum Zurücksetzen des Passworts ist ungültig/)).toBeVisible();
  });
});

test.describe('e-mail confirmation', () => {
  test('asks an unverified account to verify, then confirms with the terms', async ({ page }) => {
    const user = await createUser();
    const db = new SQLite(path.join(E2E_DATA_DIR, 'db.sqlite3'));
    db.prepare('UPDATE user_emails SET verified = 0 WHERE address_lower = ?').run(user.email.toLowerCase());
    db.close();

    await page.goto('/');
    await page.getByLabel('Username or e-mail').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('heading', { name: 'Verify Your E-mail Address' })).toBeVisible();

    const link = await linkFromMail(user.email, '/account/confirm-email/');
    await page.goto(link);
    await expect(page.getByTestId('confirm-username')).toHaveText(user.username);
    await expect(page.getByTestId('confirm-email')).toHaveText(user.email);
    const confirm = page.getByRole('button', { name: 'Confirm' });
    await expect(confirm).toBeDisabled();
    await page.getByRole('checkbox').check();
    await confirm.click();
    await expect(page.getByRole('heading', { name: 'Thanks for verifying!' })).toBeVisible();
    await expect(page.getByText('You can now log in.')).toBeVisible();
  });

  test('shows the spec text for an invalid link', async ({ page }) => {
    await page.goto('/account/confirm-email/no-such-key');
    await expect(
      page.getByText(
        'This e-mail confirmation link expired or is invalid. Please try to open another account.',
      ),
    ).toBeVisible();
  });
});

test.describe('profile', () => {
  test('adds, confirms and makes primary an address (English)', async ({ page, user }) => {
    await loginAs(page, user, '/user/profile/');
    await page.getByRole('button', { name: 'Add e-mail address' }).click();
    const add = dialog(page, 'Add e-mail address');
    await add.getByRole('button', { name: 'Add' }).click();
    await expect(add.getByText('New email address is required!')).toBeVisible();
    const address = `second.${user.username}@example.net`;
    await add.getByLabel('New e-mail address').fill(`  ${address}  `);
    await add.getByRole('button', { name: 'Add' }).click();
    await expect(page.getByText(`Confirmation e-mail sent to: ${address}`)).toBeVisible();
    await expect(page.getByRole('cell', { name: address, exact: true })).toBeVisible();
    // Unverified: no primary radio yet.
    await expect(page.getByRole('radio', { name: `Make ${address} the primary address` })).toHaveCount(0);

    const link = await linkFromMail(address, '/account/confirm-email/');
    await page.goto(link);
    // An account with a verified address needs no terms: Confirm is enabled at once.
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page).toHaveURL(/\/user\/profile\/$/);
    await expect(page.getByText('Email verified!')).toBeVisible();

    // The radio stays as it is until the question is answered.
    // A user clicks the drawn circle: the radio's label (react-aria keeps the input itself hidden).
    await page
      .locator('label.radio')
      .filter({ has: page.getByRole('radio', { name: `Make ${address} the primary address` }) })
      .click();
    await dialog(page, 'Primary e-mail address').getByRole('button', { name: 'Make primary' }).click();
    await expect(page.getByText('The primary email has been updated.')).toBeVisible();
    await expect(page.getByRole('radio', { name: `Make ${address} the primary address` })).toBeChecked();
    await expect(page.getByRole('button', { name: `Delete ${address}` })).toHaveCount(0);

    await page.getByRole('button', { name: `Delete ${user.email}` }).click();
    await dialog(page, 'Remove e-mail address').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Email successfully deleted!')).toBeVisible();
    await expect(page.getByRole('cell', { name: user.email, exact: true })).toHaveCount(0);
  });

  test('changes names and password in German', async ({ page, user }) => {
    await loginAs(page, user, '/');
    await setLanguage(page, 'de');
    await page.goto('/user/profile/');
    await page.getByLabel('Vorname').fill('Grace');
    await page.getByLabel('Nachname').fill('Hopper');
    await page.getByRole('button', { name: 'Absenden' }).click();
    await expect(page.getByText('Das Profil wurde gespeichert.')).toBeVisible();
    await expect(page.getByRole('banner').getByText('Grace Hopper')).toBeVisible();

    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    const change = dialog(page, 'Passwort ändern');
    await change.getByRole('button', { name: 'Ändern' }).click();
    await expect(change.getByText('Alle Felder sind erforderlich!')).toBeVisible();
    await change.getByLabel('Aktuelles Passwort').fill('wrong password');
    await newPasswordTwice(change, PASSWORD_FORMS.changeDe, 'a new secret here', 'another one');
    await expect(
      change.getByText('Ihr altes Passwort wurde falsch eingegeben. Bitte geben Sie es erneut ein.'),
    ).toBeVisible();
    await change.getByLabel('Aktuelles Passwort').fill(user.password);
    await change.getByRole('button', { name: 'Ändern' }).click();
    await expect(page.getByText('Das Passwort wurde geändert.')).toBeVisible();
  });

  test('changes and deletes the picture', async ({ page, user }, testInfo) => {
    await loginAs(page, user, '/user/profile/');
    await page.getByRole('button', { name: 'Picture options' }).click();
    await expect(page.getByRole('menuitem', { name: 'Delete picture' })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Change picture' }).click();
    const upload = dialog(page, 'Upload picture');
    // Nothing happens without a file.
    await upload.getByRole('button', { name: 'Upload' }).click();
    await expect(upload).toBeVisible();
    /** Chooses a picture of one colour in the upload dialog and uploads it. */
    const uploadPicture = async (
      format: 'gif' | 'png',
      width: number,
      height: number,
      background: string,
    ) => {
      const image = sharp({ create: { width, height, channels: 3, background } });
      const buffer = await (format === 'gif' ? image.gif() : image.png()).toBuffer();
      await upload
        .getByLabel('Picture (png, jpg or jpeg)')
        .setInputFiles({ name: `me.${format}`, mimeType: `image/${format}`, buffer });
      await upload.getByRole('button', { name: 'Upload' }).click();
    };
    await uploadPicture('gif', 8, 8, '#00f');
    await expect(upload.getByText('Only pictures of the types png, jpg and jpeg can be used.')).toBeVisible();
    await uploadPicture('png', 300, 150, '#c33');
    await expect(upload).toHaveCount(0);
    const picture = page.getByRole('img', { name: 'Profile picture' });
    await expect(picture).toHaveAttribute('src', /^\/media\/avatars\/.+\.png$/);
    // The header shows it too.
    await expect(page.getByRole('banner').locator('img.avatar')).toHaveAttribute(
      'src',
      /^\/media\/avatars\//,
    );
    testInfo.annotations.push({ type: 'avatar', description: (await picture.getAttribute('src')) ?? '' });

    await page.getByRole('button', { name: 'Picture options' }).click();
    await page.getByRole('menuitem', { name: 'Delete picture' }).click();
    await dialog(page, 'Delete picture').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('banner').locator('img.avatar')).toHaveCount(0);
  });

  test('deletes the account only with the own username and the right password', async ({ page, user }) => {
    await loginAs(page, user, '/user/profile/');
    await page.getByRole('button', { name: 'Delete account' }).click();
    const remove = dialog(page, 'Delete account');
    await remove.getByLabel('Username').fill(`${user.username}x`);
    await remove.getByLabel('Password').fill(user.password);
    await remove.getByRole('button', { name: 'Delete account' }).click();
    // Wrong username: nothing happens.
    await expect(remove).toBeVisible();
    await remove.getByLabel('Username').fill(user.username);
    await remove.getByLabel('Password').fill('wrong password');
    await remove.getByRole('button', { name: 'Delete account' }).click();
    await expect(page.getByText('Password incorrect.')).toBeVisible();
    await remove.getByLabel('Password').fill(user.password);
    await remove.getByRole('button', { name: 'Delete account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    const login = await sendCall(page, userApi.login, { login: user.username, password: user.password });
    expect(login.status()).toBe(400);
  });

  test('refuses to delete a staff account', async ({ page }) => {
    const staff: TestUser = await createUser({ staff: true });
    await loginAs(page, staff, '/user/profile/');
    await page.getByRole('button', { name: 'Delete account' }).click();
    const remove = dialog(page, 'Delete account');
    await remove.getByLabel('Username').fill(staff.username);
    await remove.getByLabel('Password').fill(staff.password);
    await remove.getByRole('button', { name: 'Delete account' }).click();
    await expect(
      page.getByText('Staff accounts have to be deleted through the admin interface.'),
    ).toBeVisible();
  });
});
