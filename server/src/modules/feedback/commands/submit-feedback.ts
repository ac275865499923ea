import { DEFAULT_LANGUAGE } from '@scriptorium/common/i18n/languages';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { addressScope } from '../../../http/client-address';
import { translator } from '../../../i18n/translate';
import { feedbackLimits, takeAllowance } from '../../../limits/rate-limit';
import { supportEmail } from '../../base/settings';

/**
 * Stores a support message and forwards it to CONTACT_EMAIL when set. The row is the record: a
 * failing mail server is logged, and the user is still told the report arrived.
 */
export async function submitFeedback(
  ctx: AppContext,
  user: UserRow | null,
  input: { message: string; ip: string },
  log: FastifyBaseLogger,
): Promise<void> {
  // Anyone may write, so anyone could flood the table and the operator's mailbox: limited per
  // client address and per user.
  await takeAllowance(
    ctx.db,
    feedbackLimits(addressScope(input.ip), user?.id ?? null),
    'errors.feedbackLimit',
  );
  await ctx.db
    .insertInto('feedback')
    .values({ user_id: user?.id ?? null, message: input.message, created_at: Date.now() })
    .execute();

  // The support address staff set in /admin/settings/, else CONTACT_EMAIL.
  const to = await supportEmail(ctx);
  if (!to) return;
  // The operator reads these; the site's default language is the best guess at theirs.
  const t = translator('server', DEFAULT_LANGUAGE);
  const primary = user
    ? await ctx.db
        .selectFrom('user_emails')
        .select('address')
        .where('user_id', '=', user.id)
        .orderBy('is_primary', 'desc')
        .executeTakeFirst()
    : undefined;
  const from = user ? `${user.username}${primary ? ` <${primary.address}>` : ''}` : t('feedback.visitor');
  try {
    await ctx.mailer.send({
      to,
      subject: t('feedback.mailSubject', { from: user?.username ?? t('feedback.visitor') }),
      text: t('feedback.mailBody', { from, message: input.message }),
      replyTo: primary?.address,
    });
  } catch (error) {
    log.error({ err: error }, 'feedback mail could not be sent');
  }
}
