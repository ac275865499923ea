import { createHash } from 'node:crypto';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { HttpError } from '../../../http/errors';
import { confirmationLimits, RateLimited, takeAllowance } from '../../../limits/rate-limit';
import { sendAddressTakenMail } from '../account-mail';
import { fieldError } from '../field-errors';
import { findUserById } from '../queries';
import { sendEmailConfirmation } from './email-confirmation';

export interface MailLog {
  error(details: object, message: string): void;
}

/**
 * Adds an unverified address and mails a confirmation link to it. An address of another account
 * is answered the same way (no one learns from the answer whether an address is registered); its
 * owner gets a mail saying someone tried, and nothing changes.
 */
export async function addEmail(
  ctx: AppContext,
  user: UserRow,
  input: { email: string },
  log: MailLog,
): Promise<void> {
  const address = input.email;
  const lowered = address.toLowerCase();
  const existing = await ctx.db
    .selectFrom('user_emails')
    .select(['user_id', 'address'])
    .where('address_lower', '=', lowered)
    .executeTakeFirst();
  if (existing?.user_id === user.id) throw fieldError('email', 'accounts.emailAlreadyYours');
  if (existing) return tellOwner(ctx, user, existing.user_id, existing.address, log);
  const hasPrimary = await ctx.db
    .selectFrom('user_emails')
    .select('id')
    .where('user_id', '=', user.id)
    .where('is_primary', '=', 1)
    .executeTakeFirst();
  const row = await ctx.db
    .insertInto('user_emails')
    .values({
      user_id: user.id,
      address,
      address_lower: lowered,
      // A user left without any address gets the new one as primary.
      is_primary: hasPrimary ? 0 : 1,
      verified: 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  try {
    await sendEmailConfirmation(ctx, user, row);
  } catch (error) {
    if (error instanceof RateLimited) throw error;
    // The address stays; the user can ask again by logging in or re-adding later.
    log.error({ err: error }, 'confirmation mail could not be sent');
    throw new HttpError(502, { error: 'mail_failed' });
  }
}

async function ownEmail(ctx: AppContext, user: UserRow, address: string) {
  const row = await ctx.db
    .selectFrom('user_emails')
    .selectAll()
    .where('user_id', '=', user.id)
    .where('address_lower', '=', address.toLowerCase())
    .executeTakeFirst();
  // Another user's address is as unknown as a made-up one.
  if (!row) throw new HttpError(404);
  return row;
}

/** Removes an address of the user; the primary address stays. */
export async function deleteEmail(ctx: AppContext, user: UserRow, input: { email: string }): Promise<void> {
  const row = await ownEmail(ctx, user, input.email);
  if (row.is_primary) throw fieldError('email', 'accounts.primaryCannotBeDeleted');
  await ctx.db.deleteFrom('user_emails').where('id', '=', row.id).where('user_id', '=', user.id).execute();
}

/** Makes a verified address of the user the primary one. */
export async function setPrimaryEmail(
  ctx: AppContext,
  user: UserRow,
  input: { email: string },
): Promise<void> {
  const row = await ownEmail(ctx, user, input.email);
  if (!row.verified) throw fieldError('email', 'accounts.primaryMustBeVerified');
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('user_emails').set({ is_primary: 0 }).where('user_id', '=', user.id).execute();
    await trx.updateTable('user_emails').set({ is_primary: 1 }).where('id', '=', row.id).execute();
  });
}

/** Someone tried to add another account's address: the owner hears of it, under the same mail limits. */
async function tellOwner(ctx: AppContext, user: UserRow, ownerId: number, address: string, log: MailLog) {
  const owner = await findUserById(ctx.db, ownerId);
  if (!owner) return;
  const digest = createHash('sha256').update(address.toLowerCase()).digest('hex').slice(0, 40);
  await takeAllowance(ctx.db, confirmationLimits(user.id, digest), 'errors.mailLimit');
  try {
    await sendAddressTakenMail(ctx, owner, address);
  } catch (error) {
    // As for a confirmation: the answer must not differ, so a failed mail is only logged here.
    log.error({ err: error }, 'address-taken mail could not be sent');
  }
}
