import type { TokenScope } from '@scriptorium/common/api/tokens';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { UserRow } from '../db/rows';
import type { HttpError } from './errors';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The token of an `Authorization: Bearer` header, '' for a malformed one, undefined when the
 * request names no bearer token (other schemes, such as a proxy's Basic login, are left alone).
 */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^bearer\b/i.test(header)) return undefined;
  return BEARER.exec(header)?.[1] ?? '';
}

/** The token's id and scopes, kept on the request that it authenticated. */
export interface RequestToken {
  id: number;
  scopes: TokenScope[];
}

/**
 * Checks a bearer token for a route's scope: the user and token, or the refusal. The session
 * hook is handed one by the composition root (modules/tokens/bearer.ts has the real one).
 */
export type BearerAuthenticator = (
  ctx: AppContext,
  token: string,
  scope: TokenScope | undefined,
  reply: FastifyReply,
) => Promise<{ user: UserRow; token: RequestToken } | HttpError>;
