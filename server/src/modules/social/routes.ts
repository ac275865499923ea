import { endpointPath } from '@scriptorium/common/api/endpoint';
import { socialApi } from '@scriptorium/common/api/endpoints/social';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { AppContext } from '../../context';
import { baseCookieOptions } from '../../http/cookies';
import { parseInput, route } from '../../http/endpoint';
import { HttpError } from '../../http/errors';
import { startSession } from '../../http/session';
import { hashKey } from '../user/keys';
import { authorizationUrl, completeLogin, type SocialIdentity } from './identity';
import { findProvider, type ProviderSetting, socialProviders } from './providers';

const STATE_COOKIE = 'social_state';
/** A login started at a provider must come back within 10 minutes. */
const STATE_LIFETIME_MS = 10 * 60 * 1000;

/** Where the browser goes afterwards (pages of the web app). */
export const SOCIAL_REDIRECTS = {
  loggedIn: '/',
  connected: '/user/profile/',
  /** Spec: sign-up is closed; this page says so. */
  signUpClosed: '/account/sign-up/',
  /** Connect failed (the identity belongs to another account, or the provider refused). */
  connectFailed: '/user/profile/?social=failed',
  loginFailed: '/?social=failed',
} as const;

function stateCookieOptions(ctx: AppContext) {
  // Scoped to the callback path; Lax so that it comes along on the provider's top-level redirect.
  return { ...baseCookieOptions(ctx.config), path: '/api/social/', httpOnly: true };
}

function redirectUri(ctx: AppContext, provider: ProviderSetting): string {
  return `${ctx.config.siteUrl}${endpointPath(socialApi.callback, { provider: provider.id })}`;
}

function providerOr404(ctx: AppContext, id: string): ProviderSetting {
  const provider = findProvider(ctx.config, id);
  if (!provider) throw new HttpError(404);
  return provider;
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

/**
 * Sign-up is closed: an identity logs in when it is connected already, or when one of the
 * addresses the provider vouches for is a verified address of an active account (then it gets
 * connected). Answers the user id to log in, or null.
 */
async function accountFor(
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

async function handleCallback(
  ctx: AppContext,
  request: FastifyRequest<{ Params: { provider: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const provider = providerOr404(ctx, request.params.provider);
  const query = parseInput(request, socialApi.callback);
  const state = typeof query.state === 'string' ? query.state : '';
  const cookieState = request.cookies[STATE_COOKIE];
  reply.clearCookie(STATE_COOKIE, stateCookieOptions(ctx));
  // The state must be the one this browser was given: a callback link made by someone else
  // must not log this browser into their account.
  if (!state || state !== cookieState) throw new HttpError(400, { error: 'bad_state' });
  const pending = await ctx.db
    .deleteFrom('social_states')
    .where('state_hash', '=', hashKey(state))
    .returningAll()
    .executeTakeFirst();
  if (!pending || pending.provider !== provider.id || pending.created_at + STATE_LIFETIME_MS <= Date.now()) {
    throw new HttpError(400, { error: 'bad_state' });
  }
  const connecting = pending.connect_user_id;
  if (connecting !== null && request.user?.id !== connecting)
    throw new HttpError(400, { error: 'bad_state' });

  const callbackUrl = new URL(request.url, ctx.config.siteUrl);
  let identity: SocialIdentity;
  try {
    identity = await completeLogin(provider, callbackUrl, {
      state,
      nonce: pending.nonce,
      codeVerifier: pending.code_verifier,
    });
  } catch (error) {
    request.log.warn({ err: error, provider: provider.id }, 'social login failed');
    return reply.redirect(
      connecting !== null ? SOCIAL_REDIRECTS.connectFailed : SOCIAL_REDIRECTS.loginFailed,
    );
  }

  if (connecting !== null) {
    const taken = await ctx.db
      .selectFrom('social_accounts')
      .select('user_id')
      .where('provider', '=', provider.id)
      .where('uid', '=', identity.uid)
      .executeTakeFirst();
    if (taken && taken.user_id !== connecting) return reply.redirect(SOCIAL_REDIRECTS.connectFailed);
    if (!taken) await connect(ctx, provider, identity, connecting);
    return reply.redirect(SOCIAL_REDIRECTS.connected);
  }

  const userId = await accountFor(ctx, provider, identity);
  if (userId === null) return reply.redirect(SOCIAL_REDIRECTS.signUpClosed);
  await startSession(ctx, reply, userId, false);
  return reply.redirect(SOCIAL_REDIRECTS.loggedIn);
}

/** socialApi.login starts a login (or, with ?process=connect, a connect); socialApi.callback ends it. */
export function socialRoutes(ctx: AppContext): FastifyPluginAsync {
  // A malformed SOCIAL_PROVIDERS stops the start instead of failing every configuration load.
  socialProviders(ctx.config);
  return async (app) => {
    route(app, socialApi.login, async (request, reply) => {
      const provider = providerOr404(ctx, request.params.provider);
      const { process } = parseInput(request, socialApi.login);
      const connectUser = process === 'connect' ? request.user : null;
      if (process === 'connect' && !connectUser) throw new HttpError(401);
      const pending = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
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
          connect_user_id: connectUser?.id ?? null,
          created_at: now,
        })
        .execute();
      let target: URL;
      try {
        target = await authorizationUrl(provider, redirectUri(ctx, provider), pending);
      } catch (error) {
        request.log.error({ err: error, provider: provider.id }, 'social provider unreachable');
        throw new HttpError(502, { error: 'provider_unreachable' });
      }
      reply.setCookie(STATE_COOKIE, pending.state, {
        ...stateCookieOptions(ctx),
        maxAge: STATE_LIFETIME_MS / 1000,
      });
      return reply.redirect(target.href);
    });

    route(app, socialApi.callback, (request, reply) => handleCallback(ctx, request, reply));
  };
}
