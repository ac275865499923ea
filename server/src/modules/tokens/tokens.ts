import { createHash, randomBytes } from 'node:crypto';
import { TOKEN_PREFIX, TOKEN_SCOPES, type TokenInfo, type TokenScope } from '@scriptorium/common/api/tokens';
import type { Selectable } from 'kysely';
import type { ApiTokensTable } from '../../db/schema';

export type TokenRow = Selectable<ApiTokensTable>;

/**
 * SHA-256 is enough for tokens (unlike passwords): 32 random bytes cannot be guessed, so a
 * slow hash would only slow every API call down.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newTokenSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function parseScopes(stored: string): TokenScope[] {
  const known = new Set<string>(TOKEN_SCOPES);
  return stored.split(' ').filter((scope): scope is TokenScope => known.has(scope));
}

export function presentToken(row: TokenRow): TokenInfo {
  return {
    id: row.id,
    name: row.name,
    scopes: parseScopes(row.scopes),
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}
