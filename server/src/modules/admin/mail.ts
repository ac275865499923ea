import type { AppContext } from '../../context';
import { sendPasswordLinkMail } from '../user/account-mail';
import type { UserRow } from '../user/queries';

/** The mail of an account staff created: a link to set the first password (a reset key). */
export async function sendSetPasswordMail(
  ctx: AppContext,
  user: UserRow,
  to: string,
  key: string,
): Promise<void> {
  await sendPasswordLinkMail(ctx, user, to, key, {
    subject: 'admin:mail.setPasswordSubject',
    text: 'admin:mail.setPasswordText',
    note: 'admin:mail.setPasswordExpiry',
  });
}
