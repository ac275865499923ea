import { MAX_TOKENS_PER_USER, TOKEN_SCOPES, type TokenScope } from '@scriptorium/common/api/tokens';
import type { AppContext } from '../../context';
import { HttpError } from '../../http/errors';
import type { Actor } from '../command';
import { hashToken, newTokenSecret, presentToken, type TokenRow } from './tokens';

const DAY_MS = 24 * 3600 * 1000;

export async function listTokens(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', actor.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(presentToken);
}

/** Makes a token; its secret is returned here once and only its hash is stored. */
export async function createToken(
  ctx: AppContext,
  actor: Actor,
  input: { name: string; scopes: TokenScope[]; expires_in_days: number },
  now = Date.now(),
) {
  const count = await ctx.db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', actor.id)
    .executeTakeFirstOrThrow();
  if (Number(count.count) >= MAX_TOKENS_PER_USER) {
    throw new HttpError(400, { error: 'too_many_tokens', message: { key: 'errors.tooManyTokens' } });
  }
  const secret = newTokenSecret();
  // Stored in the contract's order, each scope once.
  const scopes = TOKEN_SCOPES.filter((scope) => input.scopes.includes(scope)).join(' ');
  const row: TokenRow = await ctx.db
    .insertInto('api_tokens')
    .values({
      user_id: actor.id,
      name: input.name,
      token_hash: hashToken(secret),
      scopes,
      created_at: now,
      expires_at: now + input.expires_in_days * DAY_MS,
      last_used_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { token: presentToken(row), secret };
}

/** Revokes one of the user's tokens at once (the row goes); another user's id answers 404. */
export async function revokeToken(ctx: AppContext, actor: Actor, input: { id: number }): Promise<void> {
  const result = await ctx.db
    .deleteFrom('api_tokens')
    .where('id', '=', input.id)
    .where('user_id', '=', actor.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new HttpError(404);
}
