import type { Language } from '@scriptorium/common/i18n/languages';
import type { AppContext } from '../../context';
import { mailLanguage, translator } from '../../i18n/translate';
import { displayName } from '../user/presenters';
import type { UserRow } from '../user/queries';
import { displayEmails } from './queries';

/** The subset of a logger the contact mails need (Fastify's request.log fits). */
export interface MailErrorLog {
  error(details: object, message: string): void;
}

export const CONTACTS_PATH = '/user/contacts/';

function site(ctx: AppContext): string {
  return new URL(ctx.config.siteUrl).host;
}

/**
 * The database change is the record: a failing mail server is logged and the user still gets
 * their answer (the invite is in both lists; only the notification mail is missing).
 */
async function sendSafely(
  ctx: AppContext,
  log: MailErrorLog,
  message: { to: string; subject: string; text: string },
): Promise<void> {
  try {
    await ctx.mailer.send(message);
  } catch (error) {
    log.error({ err: error, to: message.to }, 'contacts mail could not be sent');
  }
}

async function addressOf(ctx: AppContext, userId: number): Promise<string | undefined> {
  return (await displayEmails(ctx.db, [userId])).get(userId);
}

/** Invites an address that has no account yet; the link claims the invite once logged in. */
export async function mailInviteToAddress(
  ctx: AppContext,
  log: MailErrorLog,
  input: { inviter: UserRow; address: string; key: string; language: Language },
): Promise<void> {
  const t = translator('contacts', input.language);
  const values = {
    name: displayName(input.inviter),
    email: (await addressOf(ctx, input.inviter.id)) ?? input.inviter.username,
    site: site(ctx),
    link: `${ctx.config.siteUrl}/invite/${encodeURIComponent(input.key)}`,
  };
  await sendSafely(ctx, log, {
    to: input.address,
    subject: t('mail.inviteSubject', values),
    text: t('mail.inviteNewText', values),
  });
}

/** Tells an existing user about an invite; it is already in their contacts list. */
export async function mailInviteToUser(
  ctx: AppContext,
  log: MailErrorLog,
  input: { inviter: UserRow; invitee: UserRow },
): Promise<void> {
  const to = await addressOf(ctx, input.invitee.id);
  if (!to) return;
  const t = translator('contacts', mailLanguage(input.invitee));
  const values = {
    recipient: displayName(input.invitee),
    name: displayName(input.inviter),
    email: (await addressOf(ctx, input.inviter.id)) ?? input.inviter.username,
    site: site(ctx),
    link: `${ctx.config.siteUrl}${CONTACTS_PATH}`,
  };
  await sendSafely(ctx, log, {
    to,
    subject: t('mail.inviteSubject', values),
    text: t('mail.inviteUserText', values),
  });
}

/** Tells the inviter that their invite was accepted or declined. */
export async function mailInviteAnswer(
  ctx: AppContext,
  log: MailErrorLog,
  input: { answer: 'accepted' | 'declined'; inviter: UserRow; invitee: UserRow },
): Promise<void> {
  const to = await addressOf(ctx, input.inviter.id);
  if (!to) return;
  const t = translator('contacts', mailLanguage(input.inviter));
  const values = {
    recipient: displayName(input.inviter),
    name: displayName(input.invitee),
    site: site(ctx),
    link: `${ctx.config.siteUrl}${CONTACTS_PATH}`,
  };
  await sendSafely(ctx, log, {
    to,
    subject: t(`mail.${input.answer}Subject`, values),
    text: t(`mail.${input.answer}Text`, values),
  });
}
