import type { AppContext } from '../../context';
import type { UserRow } from '../../db/rows';
import { mailLanguage, type Translate, translator } from '../../i18n/translate';
import { escapeHtml } from '../../util/escape-html';
import { displayName } from './presenters';

/** A user's saved language, else the default: mails go out in the recipient's language. */
interface AccountMail {
  subject: string;
  paragraphs: string[];
  link: string;
}

/** The same message as plain text and as HTML, the link clickable in the HTML part. */
function render(mail: AccountMail, t: Translate, site: string) {
  const signature = t('accounts.mail.signature', { site });
  const text = [...mail.paragraphs, mail.link, signature].join('\n\n');
  const link = escapeHtml(mail.link);
  const html = [
    ...mail.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${link}">${link}</a></p>`,
    `<p>${escapeHtml(signature)}</p>`,
  ].join('\n');
  return { subject: mail.subject, text, html: `<!doctype html><html><body>${html}</body></html>` };
}

function siteName(ctx: AppContext): string {
  return new URL(ctx.config.siteUrl).host;
}

/** Sends an account mail in the user's language; `compose` gets the texts' values (name, username, site). */
export async function sendAccountMail(
  ctx: AppContext,
  user: UserRow,
  to: string,
  compose: (t: Translate, values: Record<string, string>) => AccountMail,
  extraValues: Record<string, string> = {},
): Promise<void> {
  const t = translator('server', mailLanguage(user));
  const site = siteName(ctx);
  const values = { name: displayName(user), username: user.username, site, ...extraValues };
  await ctx.mailer.send({ to, ...render(compose(t, values), t, site) });
}

/** The translation keys of a mail that carries a link to set a password. */
export interface PasswordLinkTexts {
  subject: string;
  text: string;
  /** The paragraph after the text: when the link expires, what to do if it was not asked for. */
  note: string;
}

/** A mail with a link to set a password (a reset key): the password reset and staff-made accounts. */
export async function sendPasswordLinkMail(
  ctx: AppContext,
  user: UserRow,
  to: string,
  key: string,
  texts: PasswordLinkTexts,
): Promise<void> {
  await sendAccountMail(ctx, user, to, (t, values) => ({
    subject: t(texts.subject, values),
    paragraphs: [t('accounts.mail.greeting', values), t(texts.text, values), t(texts.note, values)],
    link: `${ctx.config.siteUrl}/account/change-password/${encodeURIComponent(key)}`,
  }));
}

export async function sendPasswordResetMail(
  ctx: AppContext,
  user: UserRow,
  to: string,
  key: string,
): Promise<void> {
  await sendPasswordLinkMail(ctx, user, to, key, {
    subject: 'accounts.mail.resetSubject',
    text: 'accounts.mail.resetText',
    note: 'accounts.mail.resetIgnore',
  });
}

export async function sendConfirmationMail(
  ctx: AppContext,
  user: UserRow,
  to: string,
  key: string,
): Promise<void> {
  await sendAccountMail(
    ctx,
    user,
    to,
    (t, values) => ({
      subject: t('accounts.mail.confirmSubject', values),
      paragraphs: [t('accounts.mail.greeting', values), t('accounts.mail.confirmText', values)],
      link: `${ctx.config.siteUrl}/account/confirm-email/${encodeURIComponent(key)}`,
    }),
    { email: to },
  );
}

/** To the owner of an address someone else tried to add to their account (issue 50). */
export async function sendAddressTakenMail(ctx: AppContext, owner: UserRow, address: string): Promise<void> {
  await sendAccountMail(
    ctx,
    owner,
    address,
    (t, values) => ({
      subject: t('accounts.mail.addressTakenSubject', values),
      paragraphs: [t('accounts.mail.greeting', values), t('accounts.mail.addressTakenText', values)],
      link: `${ctx.config.siteUrl}/user/profile/`,
    }),
    { email: address },
  );
}
