import { endpointPath } from '@scriptorium/common/api/endpoint';
import { socialApi } from '@scriptorium/common/api/endpoints/social';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { AppContext } from '../../context';
import { baseCookieOptions } from '../../http/cookies';
import { parseInput, route } from '../../http/endpoint';
import { HttpError } from '../../http/errors';
import { startSession } from '../../http/session';
import { authorizationUrl, completeLogin, type SocialIdentity } from './identity';
import {
  accountFor,
  connectIdentity,
  STATE_LIFETIME_MS,
  storePendingLogin,
  takePendingLogin,
} from './logins';
import { findProvider, type ProviderSetting, socialProviders } from './providers';

const STATE_COOKIE = 'social_state';

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
  const pending = await takePendingLogin(ctx, provider, state);
  if (!pending) throw new HttpError(400, { error: 'bad_state' });
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
    const connected = await connectIdentity(ctx, provider, identity, connecting);
    return reply.redirect(connected ? SOCIAL_REDIRECTS.connected : SOCIAL_REDIRECTS.connectFailed);
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
      await storePendingLogin(ctx, provider, pending, connectUser?.id ?? null);
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
