import * as z from 'zod/mini';
import { formIdField, textField } from './text-rules';

/**
 * Personal access tokens (issue 57): a script calls the public API (/api/v1/) with
 * `Authorization: Bearer <token>`. A token carries scopes, `read` or `write` per area; `write`
 * does not imply `read` (a tool that only uploads images needs no right to read the library).
 */
export const TOKEN_AREAS = ['documents', 'bibliography', 'images'] as const;
export type TokenArea = (typeof TOKEN_AREAS)[number];
export const TOKEN_ACCESS = ['read', 'write'] as const;
export type TokenAccess = (typeof TOKEN_ACCESS)[number];
export type TokenScope = `${TokenArea}:${TokenAccess}`;
export const TOKEN_SCOPES = TOKEN_AREAS.flatMap((area) =>
  TOKEN_ACCESS.map((access): TokenScope => `${area}:${access}`),
);

/** Every token starts with this, so that secret scanners and people recognise one. */
export const TOKEN_PREFIX = 'scr_';
/** Expiries offered on creation, in days; a token never lives longer than a year. */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const TOKEN_NAME_MAX_LENGTH = 100;
/** Tokens one user may hold at a time. */
export const MAX_TOKENS_PER_USER = 50;

export const tokenScope = z.enum(TOKEN_SCOPES as [TokenScope, ...TokenScope[]]);

/** A token as the profile page lists it; its secret is never listed. */
export const tokenInfo = z.object({
  id: z.number(),
  name: z.string(),
  scopes: z.array(tokenScope),
  /** Milliseconds since the epoch. */
  created_at: z.number(),
  expires_at: z.number(),
  /** Null until first used; updated at most once a minute. */
  last_used_at: z.nullable(z.number()),
});
export type TokenInfo = z.infer<typeof tokenInfo>;

export const tokenListResponse = z.object({ tokens: z.array(tokenInfo) });

export const tokenCreateRequest = z.object({
  name: textField(z.trim(), z.minLength(1), z.maxLength(TOKEN_NAME_MAX_LENGTH)),
  scopes: z.array(tokenScope).check(z.minLength(1)),
  expires_in_days: z.coerce.number().check(z.int(), z.minimum(1), z.maximum(365)),
});

/** The new token's secret is in this answer only: it is stored hashed. */
export const tokenCreateResponse = z.object({ token: tokenInfo, secret: z.string() });

export const tokenRevokeRequest = z.object({ id: formIdField });
