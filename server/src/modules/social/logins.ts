import type { AppContext } from '../../context';
import { hashKey } from '../user/keys';
import type { SocialIdentity } from './identity';
import type { ProviderSetting } from './providers';

/**
 * The social module's storage: logins under way (social_states, only the state's hash is kept)
 * and the identities connected to accounts (social_accounts). The routes hold the HTTP flow.
 */

/** A login started at a provider must come back within 10 minutes. */
export const STATE_LIFETIME_MS = 10 * 60 * 1000;

export type PendingLogin = { state: string; nonce: string; codeVerifier: string };

/** Remembers a login under way (and forgets the expired ones). */
export async function storePendingLogin(
  ctx: AppContext,
  provider: ProviderSetting,
  pending: PendingLogin,
  connectUserId: number | null,
): Promise<void> {
  const now = Date.now();
  await ctx.db
    .deleteFrom('social_states')
    .where('created_at', '<=', now - STATE_LIFETIME_MS)
    .execute();
  await ctx.db
    .insertInto('social_states')
    .values({
      state_hash: hashKey(pending.state),
      provider: provider.id,
      nonce: pending.nonce,
      code_verifier: pending.codeVerifier,
      connect_user_id: connectUserId,
      created_at: now,
    })
    .execute();
}

/** The login under way for `state` at `provider`, used once: null when unknown, spent or expired. */
export async function takePendingLogin(ctx: AppContext, provider: ProviderSetting, state: string) {
  const pending = await ctx.db
    .deleteFrom('social_states')
    .where('state_hash', '=', hashKey(state))
    .returningAll()
    .executeTakeFirst();
  if (!pending || pending.provider !== provider.id || pending.created_at + STATE_LIFETIME_MS <= Date.now()) {
    return null;
  }
  return pending;
}

/** The social account row for the identity, connected to `userId`. */
async function connect(ctx: AppContext, provider: ProviderSetting, identity: SocialIdentity, userId: number) {
  await ctx.db
    .insertInto('social_accounts')
    .values({
      user_id: userId,
      provider: provider.id,
      uid: identity.uid,
      name: identity.name.slice(0, 255),
      created_at: Date.now(),
    })
    .execute();
}

/** Connects the identity to `userId`; false when it belongs to another account already. */
export async function connectIdentity(
  ctx: AppContext,
  provider: ProviderSetting,
  identity: SocialIdentity,
  userId: number,
): Promise<boolean> {
  const taken = await ctx.db
    .selectFrom('social_accounts')
    .select('user_id')
    .where('provider', '=', provider.id)
    .where('uid', '=', identity.uid)
    .executeTakeFirst();
  if (taken) return taken.user_id === userId;
  await connect(ctx, provider, identity, userId);
  return true;
}

/**
 * Sign-up is closed: an identity logs in when it is connected already, or when one of the
 * addresses the provider vouches for is a verified address of an active account (then it gets
 * connected). Answers the user id to log in, or null.
 */
export async function accountFor(
  ctx: AppContext,
  provider: ProviderSetting,
  identity: SocialIdentity,
): Promise<number | null> {
  const existing = await ctx.db
    .selectFrom('social_accounts')
    .innerJoin('users', 'users.id', 'social_accounts.user_id')
    .select(['users.id', 'users.is_active'])
    .where('social_accounts.provider', '=', provider.id)
    .where('social_accounts.uid', '=', identity.uid)
    .executeTakeFirst();
  if (existing) return existing.is_active ? existing.id : null;
  const addresses = identity.verifiedEmails.map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (addresses.length === 0) return null;
  const owner = await ctx.db
    .selectFrom('user_emails')
    .innerJoin('users', 'users.id', 'user_emails.user_id')
    .select('users.id')
    .where('user_emails.address_lower', 'in', addresses)
    .where('user_emails.verified', '=', 1)
    .where('users.is_active', '=', 1)
    .executeTakeFirst();
  if (!owner) return null;
  await connect(ctx, provider, identity, owner.id);
  return owner.id;
}
