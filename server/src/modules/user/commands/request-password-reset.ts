import { createHash } from 'node:crypto';
import type { AppContext } from '../../../context';
import { addressScope } from '../../../http/client-address';
import { HttpError } from '../../../http/errors';
import { enqueueMailJob } from '../../../mail/queue';
import { sendPasswordResetMail } from '../account-mail';
import { hashKey, newKey } from '../keys';
import { lockRemaining, recordFailure } from '../login-throttle';
import { findUserById } from '../queries';

/** Reset requests per client address, and mails per target address, within LOGIN_LOCK_SECONDS. */
export const RESET_ADDRESS_LIMIT = 10;
export const RESET_EMAIL_LIMIT = 3;

export interface ResetLog {
  error(details: object, message: string): void;
}

/**
 * Queues a reset link to `email`, sent when it belongs to an active account. The request answers
 * before the address is even looked up, in the same time either way (no account discovery); only
 * too many requests from one client get a 429.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  input: { email: string; ip: string },
  log: ResetLog,
): Promise<void> {
  const { db, config } = ctx;
  const now = Date.now();
  const addressScopeName = `reset-address:${addressScope(input.ip)}`;
  if ((await lockRemaining(db, [addressScopeName], now)) > 0) throw new HttpError(429);
  // The throttle table counts "failures"; here every request counts.
  await recordFailure(db, addressScopeName, RESET_ADDRESS_LIMIT, config, now);

  const lowered = input.email.trim().toLowerCase();
  const emailScope = `reset-email:${createHash('sha256').update(lowered).digest('hex').slice(0, 40)}`;
  // Mail bombing one address is stopped silently: the answer must not differ.
  if ((await lockRemaining(db, [emailScope], now)) > 0) return;
  await recordFailure(db, emailScope, RESET_EMAIL_LIMIT, config, now);

  // Everything that depends on whether the address is registered happens after the answer.
  enqueueMailJob(ctx, 'password reset mail', log, () => sendResetIfRegistered(ctx, lowered));
}

async function sendResetIfRegistered(ctx: AppContext, lowered: string): Promise<void> {
  const { db } = ctx;
  const row = await db
    .selectFrom('user_emails')
    .select(['user_id', 'address'])
    .where('address_lower', '=', lowered)
    .executeTakeFirst();
  if (!row) return;
  const user = await findUserById(db, row.user_id);
  if (!user?.is_active) return;

  const key = newKey();
  await db
    .insertInto('password_resets')
    .values({ key_hash: hashKey(key), user_id: user.id, created_at: Date.now() })
    .execute();
  await sendPasswordResetMail(ctx, user, row.address, key);
}
