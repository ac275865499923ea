import type { TokenScope } from '@scriptorium/common/api/tokens';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/rows';
import type { RequestToken } from '../../http/bearer';
import { HttpError } from '../../http/errors';
import { RequestWindows } from '../../limits/token-rate';
import { hashToken, parseScopes } from './tokens';

/** last_used_at moves at most this often per token: no write on every API call. */
export const TOKEN_LAST_USED_STEP_MS = 60_000;

function invalidToken(reply: FastifyReply): HttpError {
  reply.header('www-authenticate', 'Bearer error="invalid_token"');
  return new HttpError(401, { error: 'invalid_token', message: { key: 'errors.tokenInvalid' } });
}

const windowsPerContext = new WeakMap<AppContext, RequestWindows>();

function requestWindows(ctx: AppContext): RequestWindows {
  let windows = windowsPerContext.get(ctx);
  if (!windows) {
    windows = new RequestWindows(ctx.config.apiTokenRateLimit);
    windowsPerContext.set(ctx, windows);
  }
  return windows;
}

/**
 * Authenticates a request by its bearer token, for the route's token scope (undefined: the route
 * is not part of the public API, so no token may call it, whatever its scopes). The cookie
 * session is never consulted for such a request. Answers the user and token, or the refusal.
 */
export async function authenticateBearer(
  ctx: AppContext,
  token: string,
  scope: TokenScope | undefined,
  reply: FastifyReply,
  now = Date.now(),
): Promise<{ user: UserRow; token: RequestToken } | HttpError> {
  if (!token) return invalidToken(reply);
  const row = await ctx.db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .selectAll('users')
    .select([
      'api_tokens.id as token_id',
      'api_tokens.scopes as token_scopes',
      'api_tokens.expires_at as token_expires_at',
      'api_tokens.last_used_at as token_last_used_at',
    ])
    .where('api_tokens.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || Number(row.token_expires_at) <= now || !row.is_active) return invalidToken(reply);
  const { token_id: id, token_scopes, token_expires_at, token_last_used_at, ...user } = row;
  // Every authenticated request counts, also those refused below for their scope.
  const wait = requestWindows(ctx).take(id, now);
  if (wait > 0) {
    reply.header('retry-after', String(wait));
    return new HttpError(429, { error: 'rate_limited', message: { key: 'errors.tooManyRequests' } });
  }
  if (!scope) {
    return new HttpError(403, { error: 'token_not_allowed', message: { key: 'errors.tokenNotAllowed' } });
  }
  const scopes = parseScopes(token_scopes);
  if (!scopes.includes(scope)) {
    reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${scope}"`);
    return new HttpError(403, {
      error: 'insufficient_scope',
      message: { key: 'errors.tokenScope', values: { scope } },
    });
  }
  if (token_last_used_at === null || now - Number(token_last_used_at) >= TOKEN_LAST_USED_STEP_MS) {
    await ctx.db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
  }
  return { user, token: { id, scopes } };
}
