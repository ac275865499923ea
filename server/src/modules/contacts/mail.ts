import type { Language } from '@scriptorium/common/i18n/languages';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/rows';
import { mailLanguage, translator } from '../../i18n/translate';
import { displayName } from '../user/presenters';
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

/** How an invite mail names its sender's address: the address shown for them, else the username. */
async function senderAddress(ctx: AppContext, sender: UserRow): Promise<string> {
  return (await addressOf(ctx, sender.id)) ?? sender.username;
}

/**
 * A contacts mail to `recipient` about `other` (the `name`; with `showAddress`, its address as
 * `email` too), in the recipient's language and linking to the contacts page; none when the
 * recipient has no address.
 */
async function mailUserAbout(
  ctx: AppContext,
  log: MailErrorLog,
  mail: { recipient: UserRow; other: UserRow; subject: string; text: string; showAddress?: boolean },
): Promise<void> {
  const to = await addressOf(ctx, mail.recipient.id);
  if (!to) return;
  const t = translator('contacts', mailLanguage(mail.recipient));
  const values = {
    recipient: displayName(mail.recipient),
    name: displayName(mail.other),
    ...(mail.showAddress ? { email: await senderAddress(ctx, mail.other) } : {}),
    site: site(ctx),
    link: `${ctx.config.siteUrl}${CONTACTS_PATH}`,
  };
  await sendSafely(ctx, log, { to, subject: t(mail.subject, values), text: t(mail.text, values) });
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
    email: await senderAddress(ctx, input.inviter),
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
  await mailUserAbout(ctx, log, {
    recipient: input.invitee,
    other: input.inviter,
    subject: 'mail.inviteSubject',
    text: 'mail.inviteUserText',
    showAddress: true,
  });
}

/** Tells the inviter that their invite was accepted or declined. */
export async function mailInviteAnswer(
  ctx: AppContext,
  log: MailErrorLog,
  input: { answer: 'accepted' | 'declined'; inviter: UserRow; invitee: UserRow },
): Promise<void> {
  await mailUserAbout(ctx, log, {
    recipient: input.inviter,
    other: input.invitee,
    subject: `mail.${input.answer}Subject`,
    text: `mail.${input.answer}Text`,
  });
}
