import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import type { UserEmailsTable } from '../../../db/schema';
import { confirmationLimits, takeAllowance } from '../../../limits/rate-limit';
import type { Actor } from '../../command';
import { claimPendingInvitesForEmail } from '../../contacts/commands/claim-invites';
import { sendConfirmationMail } from '../account-mail';
import { hashKey, KEY_LIFETIME_MS, newKey } from '../keys';
import { findUserById } from '../queries';

type EmailRow = Selectable<UserEmailsTable>;

/** Makes a new confirmation key for the address and mails the link to it. */
export async function sendEmailConfirmation(ctx: AppContext, user: UserRow, email: EmailRow): Promise<void> {
  // One address must not be flooded with confirmations, nor one user flood many addresses.
  const digest = createHash('sha256').update(email.address.toLowerCase()).digest('hex').slice(0, 40);
  await takeAllowance(ctx.db, confirmationLimits(user.id, digest), 'errors.mailLimit');
  const key = newKey();
  await ctx.db
    .insertInto('email_confirmations')
    .values({ key_hash: hashKey(key), email_id: email.id, created_at: Date.now() })
    .execute();
  await sendConfirmationMail(ctx, user, email.address, key);
}

export interface Confirmation {
  user: UserRow;
  email: EmailRow;
}

/** The address and user a live confirmation key belongs to, else undefined. */
export async function findConfirmation(
  ctx: AppContext,
  input: { key: string },
): Promise<Confirmation | undefined> {
  const { db } = ctx;
  const row = await db
    .selectFrom('email_confirmations')
    .innerJoin('user_emails', 'user_emails.id', 'email_confirmations.email_id')
    .selectAll('user_emails')
    .select('email_confirmations.created_at as key_created_at')
    .where('email_confirmations.key_hash', '=', hashKey(input.key))
    .executeTakeFirst();
  if (!row || row.key_created_at + KEY_LIFETIME_MS <= Date.now()) return undefined;
  const { key_created_at: _created, ...email } = row;
  const user = await findUserById(db, email.user_id);
  if (!user?.is_active) return undefined;
  return { user, email };
}

/** Whether the user has at least one verified address (then no terms need accepting). */
export async function hasVerifiedEmail(ctx: AppContext, user: Actor): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('user_emails')
    .select('id')
    .where('user_id', '=', user.id)
    .where('verified', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A login without a verified address gets no session: a fresh confirmation link goes to the
 * primary address (or the oldest one).
 */
export async function resendConfirmationOnLogin(ctx: AppContext, user: UserRow): Promise<void> {
  const email = await ctx.db
    .selectFrom('user_emails')
    .selectAll()
    .where('user_id', '=', user.id)
    .orderBy('is_primary', 'desc')
    .orderBy('id')
    .executeTakeFirst();
  if (email) await sendEmailConfirmation(ctx, user, email);
}

/**
 * Marks the address verified, drops its keys, and hands it the contact invites that waited for
 * it, all in one transaction.
 */
export async function confirmEmail(ctx: AppContext, confirmation: Confirmation): Promise<void> {
  const { email, user } = confirmation;
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('user_emails').set({ verified: 1 }).where('id', '=', email.id).execute();
    await trx.deleteFrom('email_confirmations').where('email_id', '=', email.id).execute();
    await claimPendingInvitesForEmail(trx, user.id, email.address);
  });
}
