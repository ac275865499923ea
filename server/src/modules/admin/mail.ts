import type { AppContext } from '../../context';
import { sendAccountMail } from '../user/account-mail';
import type { UserRow } from '../user/queries';

/** The mail of an account staff created: a link to set the first password (a reset key). */
export async function sendSetPasswordMail(
  ctx: AppContext,
  user: UserRow,
  to: string,
  key: string,
): Promise<void> {
  await sendAccountMail(ctx, user, to, (t, values) => ({
    subject: t('admin:mail.setPasswordSubject', values),
    paragraphs: [
      t('accounts.mail.greeting', values),
      t('admin:mail.setPasswordText', values),
      t('admin:mail.setPasswordExpiry', values),
    ],
    link: `${ctx.config.siteUrl}/account/change-password/${encodeURIComponent(key)}`,
  }));
}
