import { randomBytes } from 'node:crypto';
import type { Contact, InviteErrorCode } from '@scriptorium/common/api/contacts';
import type { Language } from '@scriptorium/common/i18n/languages';
import { isEmailLike, isValidEmailAddress } from '@scriptorium/common/rules/contacts';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { inviteLimits, takeAllowance } from '../../../limits/rate-limit';
import { findUserById } from '../../user/queries';
import { type MailErrorLog, mailInviteAnswer, mailInviteToAddress, mailInviteToUser } from '../mail';
import { presentSentInvite, presentUserContact } from '../presenters';
import {
  areContacts,
  connect,
  displayEmails,
  findInviteBetween,
  hashInviteKey,
  isUniqueViolation,
} from '../queries';

/** Spec section 8: 1 yourself, 2 already a contact or already invited, 3 no such user and no valid address. */
export class InviteError extends Error {
  constructor(readonly code: InviteErrorCode) {
    super(`invite error ${code}`);
  }
}

type Target = { kind: 'user'; user: UserRow; address: string | null } | { kind: 'address'; address: string };

async function resolveTarget(ctx: AppContext, me: UserRow, userString: string): Promise<Target> {
  if (!isEmailLike(userString)) {
    const user = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('username_lower', '=', userString.toLowerCase())
      .where('is_active', '=', 1)
      .executeTakeFirst();
    if (!user) throw new InviteError(3);
    return { kind: 'user', user, address: null };
  }
  if (!isValidEmailAddress(userString)) throw new InviteError(3);
  const owner = await ctx.db
    .selectFrom('user_emails')
    .innerJoin('users', 'users.id', 'user_emails.user_id')
    .select(['user_emails.user_id', 'user_emails.verified', 'users.is_active'])
    .where('user_emails.address_lower', '=', userString.toLowerCase())
    .executeTakeFirst();
  // Any of my own addresses, verified or not, is me.
  if (owner?.user_id === me.id) throw new InviteError(1);
  // Only a verified address proves who owns it; an unverified one waits like an unknown address
  // and reaches its owner when they verify it (claimPendingInvitesForEmail).
  if (owner && owner.verified === 1 && owner.is_active === 1) {
    const user = await findUserById(ctx.db, owner.user_id);
    if (user) return { kind: 'user', user, address: userString };
  }
  return { kind: 'address', address: userString };
}

/**
 * POST /api/user/invites/add/: invites a user (by username or verified address) or an address
 * without an account. When the other user has already invited me, inviting them back simply
 * connects us: both sides asked for it.
 */
export async function addInvite(
  ctx: AppContext,
  me: UserRow,
  input: { user_string: string; language: Language },
  log: MailErrorLog,
): Promise<Contact> {
  const target = await resolveTarget(ctx, me, input.user_string);
  // Every invitation mails someone: one user may not mail a hundred people in a second.
  await takeAllowance(ctx.db, inviteLimits(me.id), 'errors.mailLimit');

  if (target.kind === 'user') {
    const other = target.user;
    if (other.id === me.id) throw new InviteError(1);
    const outcome = await ctx.db
      .transaction()
      .execute(async (trx) => {
        if (await areContacts(trx, me.id, other.id)) throw new InviteError(2);
        const existing = await findInviteBetween(trx, me.id, other.id);
        if (existing && existing.by_user_id === me.id) throw new InviteError(2);
        if (existing) {
          await connect(trx, me.id, other.id);
          return { connected: true as const };
        }
        const invite = await trx
          .insertInto('user_invites')
          .values({
            key_hash: null,
            by_user_id: me.id,
            to_user_id: other.id,
            email: target.address,
            email_lower: target.address?.toLowerCase() ?? null,
            created_at: Date.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { connected: false as const, inviteId: invite.id };
      })
      .catch(rethrowDuplicate);

    if (outcome.connected) {
      await mailInviteAnswer(ctx, log, { answer: 'accepted', inviter: other, invitee: me });
      const email = (await displayEmails(ctx.db, [other.id])).get(other.id);
      return presentUserContact(other, email);
    }
    await mailInviteToUser(ctx, log, { inviter: me, invitee: other });
    return presentSentInvite({ id: outcome.inviteId, email: target.address }, other);
  }

  const key = randomBytes(24).toString('base64url');
  const invite = await ctx.db
    .insertInto('user_invites')
    .values({
      key_hash: hashInviteKey(key),
      by_user_id: me.id,
      to_user_id: null,
      email: target.address,
      email_lower: target.address.toLowerCase(),
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .catch(rethrowDuplicate);
  // The invitee has no account (or none we may name yet): their language is unknown, and the
  // inviter's is the best guess (colleagues mostly share one).
  await mailInviteToAddress(ctx, log, {
    inviter: me,
    address: target.address,
    key,
    language: input.language,
  });
  return presentSentInvite({ id: invite.id, email: target.address }, undefined);
}

/** Two concurrent invites of the same person: the unique index stops the second one. */
function rethrowDuplicate(error: unknown): never {
  if (isUniqueViolation(error)) throw new InviteError(2);
  throw error;
}
