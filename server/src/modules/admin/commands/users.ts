import type { AdminDeletionSummary, AdminUser } from '@scriptorium/common/api/admin';
import type { AppContext } from '../../../context';
import type { Db, Dialect } from '../../../db/database';
import { countOwned } from '../../../db/owned';
import type { UserRow } from '../../../db/rows';
import { searchNames } from '../../../db/search-names';
import { FormError, HttpError } from '../../../http/errors';
import { enqueueMailJob, type MailJobLog } from '../../../mail/queue';
import { endLiveSessions } from '../../../ws/hub';
import { claimPendingInvitesForEmail } from '../../contacts/commands/claim-invites';
import { sendPasswordLinkMail } from '../../user/account-mail';
import { createUser, UserConflictError } from '../../user/commands/create-user';
import { removeAccount } from '../../user/commands/delete-account';
import { sendEmailConfirmation } from '../../user/commands/email-confirmation';
import { hashKey, newKey } from '../../user/keys';
import { findUserById, usernameTaken } from '../../user/queries';
import { audit } from '../audit';
import { presentAdminUser } from '../user-search';

type Staff = Pick<UserRow, 'id' | 'username'>;

const fieldError = (field: string, key: string) => new FormError(400, [], { [field]: [{ key }] });
const generalError = (key: string) => new FormError(400, [{ key }]);

async function present(db: Db, id: number): Promise<AdminUser> {
  const user = await presentAdminUser(db, id);
  if (!user) throw new HttpError(404);
  return user;
}

async function targetUser(db: Db, id: number): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user) throw new HttpError(404);
  return user;
}

/**
 * Active staff accounts, read under a lock inside the caller's transaction: two staff members
 * deactivating each other at the same moment must not leave the site without staff. SQLite's
 * transactions hold the write lock from BEGIN; PostgreSQL locks the staff rows (FOR UPDATE), so
 * the second transaction waits and then sees the first one's change.
 */
async function activeStaffCount(db: Db, dialect: Dialect): Promise<number> {
  let query = db.selectFrom('users').select('id').where('is_staff', '=', 1).where('is_active', '=', 1);
  if (dialect === 'postgres') query = query.forUpdate();
  return (await query.execute()).length;
}

/**
 * Creates an account without a password and mails its owner a link to set one (the same key as a
 * password reset, valid for KEY_LIFETIME_MS). The address counts as confirmed: staff vouch for it,
 * as with `manage createuser`.
 */
export async function createAccount(
  ctx: AppContext,
  staff: Staff,
  input: { username: string; email: string; first_name: string; last_name: string; is_staff: boolean },
  log: MailJobLog,
): Promise<AdminUser> {
  let user: UserRow;
  try {
    user = await createUser(ctx, {
      username: input.username,
      email: input.email,
      password: null,
      firstName: input.first_name,
      lastName: input.last_name,
      isStaff: input.is_staff,
      emailVerified: true,
    });
  } catch (error) {
    if (error instanceof UserConflictError) {
      throw error.field === 'username'
        ? fieldError('username', 'admin:errors.usernameTaken')
        : fieldError('email', 'admin:errors.emailTaken');
    }
    throw error;
  }
  await claimPendingInvitesForEmail(ctx.db, user.id, input.email);
  const key = newKey();
  await ctx.db
    .insertInto('password_resets')
    .values({ key_hash: hashKey(key), user_id: user.id, created_at: Date.now() })
    .execute();
  await audit(ctx.db, staff, 'user.create', user.username, { email: input.email, is_staff: input.is_staff });
  const created = user;
  enqueueMailJob(ctx, 'set-password mail', log, () =>
    // The mail of an account staff created: a link to set the first password (a reset key).
    sendPasswordLinkMail(ctx, created, input.email, key, {
      subject: 'admin:mail.setPasswordSubject',
      text: 'admin:mail.setPasswordText',
      note: 'admin:mail.setPasswordExpiry',
    }),
  );
  return present(ctx.db, user.id);
}

export async function updateAccount(
  ctx: AppContext,
  staff: Staff,
  input: { id: number; username: string; first_name: string; last_name: string; is_staff: boolean },
): Promise<AdminUser> {
  const user = await targetUser(ctx.db, input.id);
  if (user.id === staff.id && !input.is_staff) throw fieldError('is_staff', 'admin:errors.ownStaff');
  await ctx.db.transaction().execute(async (trx) => {
    if (await usernameTaken(trx, input.username, user.id))
      throw fieldError('username', 'admin:errors.usernameTaken');
    if (
      user.is_staff &&
      !input.is_staff &&
      user.is_active &&
      (await activeStaffCount(trx, ctx.dialect)) <= 1
    ) {
      throw fieldError('is_staff', 'admin:errors.lastStaff');
    }
    await trx
      .updateTable('users')
      .set({
        username: input.username,
        username_lower: input.username.toLowerCase(),
        first_name: input.first_name,
        last_name: input.last_name,
        ...searchNames(input.first_name, input.last_name),
        is_staff: input.is_staff ? 1 : 0,
      })
      .where('id', '=', user.id)
      .execute();
    const changes: Record<string, unknown> = {};
    if (user.username !== input.username) changes.username = [user.username, input.username];
    if (user.first_name !== input.first_name) changes.first_name = [user.first_name, input.first_name];
    if (user.last_name !== input.last_name) changes.last_name = [user.last_name, input.last_name];
    if (Object.keys(changes).length > 0) await audit(trx, staff, 'user.update', input.username, changes);
    if (Boolean(user.is_staff) !== input.is_staff)
      await audit(trx, staff, 'user.staff', input.username, { is_staff: input.is_staff });
  });
  return present(ctx.db, user.id);
}

/**
 * Staff change a user's addresses: add one (confirmed, as staff vouch for it, and the pending
 * invitations to it are claimed), remove one that is not the primary, or make one the primary
 * (which confirms it). The user's own rules of /account/ apply otherwise.
 */
export async function changeAccountEmail(
  ctx: AppContext,
  staff: Staff,
  input: { id: number; action: 'add' | 'remove' | 'primary'; email: string },
): Promise<AdminUser> {
  const user = await targetUser(ctx.db, input.id);
  const lowered = input.email.toLowerCase();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('user_emails')
      .select(['id', 'user_id', 'is_primary'])
      .where('address_lower', '=', lowered)
      .executeTakeFirst();
    if (input.action === 'add') {
      if (row)
        throw fieldError(
          'email',
          row.user_id === user.id ? 'admin:errors.emailTheirs' : 'admin:errors.emailTaken',
        );
      const hasPrimary = await trx
        .selectFrom('user_emails')
        .select('id')
        .where('user_id', '=', user.id)
        .where('is_primary', '=', 1)
        .executeTakeFirst();
      await trx
        .insertInto('user_emails')
        .values({
          user_id: user.id,
          address: input.email,
          address_lower: lowered,
          is_primary: hasPrimary ? 0 : 1,
          verified: 1,
        })
        .execute();
    } else {
      if (row?.user_id !== user.id) throw new HttpError(404);
      if (input.action === 'remove') {
        if (row.is_primary) throw fieldError('email', 'admin:errors.primaryKept');
        await trx.deleteFrom('user_emails').where('id', '=', row.id).execute();
      } else {
        await trx.updateTable('user_emails').set({ is_primary: 0 }).where('user_id', '=', user.id).execute();
        await trx
          .updateTable('user_emails')
          .set({ is_primary: 1, verified: 1 })
          .where('id', '=', row.id)
          .execute();
      }
    }
    await audit(trx, staff, `user.email.${input.action}`, user.username, { email: input.email });
  });
  if (input.action === 'add') await claimPendingInvitesForEmail(ctx.db, user.id, input.email);
  return present(ctx.db, user.id);
}

/**
 * Deactivating ends the user's sessions and, through the fan-out, closes their sockets in every
 * server process at once; nobody can deactivate themselves or the last active staff account.
 */
export async function setAccountActive(
  ctx: AppContext,
  staff: Staff,
  input: { id: number; active: boolean },
): Promise<AdminUser> {
  const user = await targetUser(ctx.db, input.id);
  if (!input.active && user.id === staff.id) throw generalError('admin:errors.deactivateSelf');
  const hashes = await ctx.db.transaction().execute(async (trx) => {
    if (!input.active && user.is_staff && user.is_active && (await activeStaffCount(trx, ctx.dialect)) <= 1) {
      throw generalError('admin:errors.lastStaff');
    }
    await trx
      .updateTable('users')
      .set({ is_active: input.active ? 1 : 0 })
      .where('id', '=', user.id)
      .execute();
    let ended: string[] = [];
    if (!input.active) {
      ended = (
        await trx.selectFrom('sessions').select('id_hash').where('user_id', '=', user.id).execute()
      ).map((row) => row.id_hash);
      await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    }
    await audit(trx, staff, input.active ? 'user.activate' : 'user.deactivate', user.username, {
      sessions_ended: ended.length,
    });
    return ended;
  });
  await endLiveSessions(ctx, hashes);
  return present(ctx.db, user.id);
}

export async function deletionSummary(ctx: AppContext, input: { id: number }): Promise<AdminDeletionSummary> {
  const { db } = ctx;
  const { id } = input;
  await targetUser(db, id);
  const [documents, images, bibliography, contacts] = await Promise.all([
    countOwned(db, 'documents', id),
    countOwned(db, 'usermedia_images', id),
    countOwned(db, 'bib_entries', id),
    db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count)),
  ]);
  return { documents, images, bibliography, contacts };
}

/**
 * Deletes an account. Its documents either go with it or pass to another user, who becomes their
 * owner (a right that user held on them is no longer needed); everything else goes with it.
 */
export async function deleteAccountAsStaff(
  ctx: AppContext,
  staff: Staff,
  input: { id: number; documents: 'delete' | 'transfer'; transfer_to: string },
): Promise<void> {
  const user = await targetUser(ctx.db, input.id);
  if (user.id === staff.id) throw generalError('admin:errors.deleteSelf');
  let heir: UserRow | undefined;
  if (input.documents === 'transfer') {
    if (!input.transfer_to) throw fieldError('transfer_to', 'admin:errors.transferRequired');
    heir = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('username_lower', '=', input.transfer_to.toLowerCase())
      .executeTakeFirst();
    if (!heir || heir.id === user.id) throw fieldError('transfer_to', 'admin:errors.transferUnknown');
  }
  const summary = await deletionSummary(ctx, { id: user.id });
  await removeAccount(ctx, user, async (trx) => {
    if (heir) {
      const owned = trx.selectFrom('documents').select('id').where('owner_id', '=', user.id);
      await trx
        .deleteFrom('document_access')
        .where('user_id', '=', heir.id)
        .where('document_id', 'in', owned)
        .execute();
      await trx.updateTable('documents').set({ owner_id: heir.id }).where('owner_id', '=', user.id).execute();
    }
    await audit(trx, staff, 'user.delete', user.username, {
      ...summary,
      documents_to: heir ? heir.username : null,
    });
  });
}

/** Mails a new confirmation link to each unconfirmed address of the user; answers how many. */
export async function resendConfirmations(
  ctx: AppContext,
  staff: Staff,
  input: { id: number },
): Promise<number> {
  const user = await targetUser(ctx.db, input.id);
  const emails = await ctx.db
    .selectFrom('user_emails')
    .selectAll()
    .where('user_id', '=', user.id)
    .where('verified', '=', 0)
    .execute();
  if (emails.length === 0) throw generalError('admin:errors.nothingToConfirm');
  for (const email of emails) await sendEmailConfirmation(ctx, user, email);
  await audit(ctx.db, staff, 'user.resend_confirmation', user.username, {
    addresses: emails.map((email) => email.address),
  });
  return emails.length;
}

/** Lifts every login lock of the account (from any address). */
export async function resetLockout(ctx: AppContext, staff: Staff, input: { id: number }): Promise<AdminUser> {
  const user = await targetUser(ctx.db, input.id);
  await ctx.db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('login_attempts')
      .where((eb) =>
        eb.or([eb('scope', '=', `account:${user.id}`), eb('scope', 'like', `account:${user.id}@%`)]),
      )
      .executeTakeFirst();
    await audit(trx, staff, 'user.reset_lockout', user.username, { locks: Number(removed.numDeletedRows) });
  });
  return present(ctx.db, user.id);
}
