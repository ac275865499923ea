import type { AppContext } from '../../../context';
import { HttpError } from '../../../http/errors';
import { RateLimited } from '../../../limits/rate-limit';
import { fieldError } from '../field-errors';
import type { UserRow } from '../queries';
import { sendEmailConfirmation } from './email-confirmation';

export interface MailLog {
  error(details: object, message: string): void;
}

/** Adds an unverified address and mails a confirmation link to it. */
export async function addEmail(ctx: AppContext, user: UserRow, address: string, log: MailLog): Promise<void> {
  const lowered = address.toLowerCase();
  const existing = await ctx.db
    .selectFrom('user_emails')
    .select('user_id')
    .where('address_lower', '=', lowered)
    .executeTakeFirst();
  if (existing?.user_id === user.id) throw fieldError('email', 'accounts.emailAlreadyYours');
  if (existing) throw fieldError('email', 'accounts.emailTaken');
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
export async function deleteEmail(ctx: AppContext, user: UserRow, address: string): Promise<void> {
  const row = await ownEmail(ctx, user, address);
  if (row.is_primary) throw fieldError('email', 'accounts.primaryCannotBeDeleted');
  await ctx.db.deleteFrom('user_emails').where('id', '=', row.id).where('user_id', '=', user.id).execute();
}

/** Makes a verified address of the user the primary one. */
export async function setPrimaryEmail(ctx: AppContext, user: UserRow, address: string): Promise<void> {
  const row = await ownEmail(ctx, user, address);
  if (!row.verified) throw fieldError('email', 'accounts.primaryMustBeVerified');
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('user_emails').set({ is_primary: 0 }).where('user_id', '=', user.id).execute();
    await trx.updateTable('user_emails').set({ is_primary: 1 }).where('id', '=', row.id).execute();
  });
}
