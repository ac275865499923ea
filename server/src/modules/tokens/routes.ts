import type { okResponse } from '@scriptorium/common/api/base';
import { tokensApi } from '@scriptorium/common/api/endpoints/tokens';
import type { tokenCreateResponse, tokenListResponse } from '@scriptorium/common/api/tokens';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { requireUser } from '../../http/session';
import { createToken, listTokens, revokeToken } from './commands';

/** The profile page's token management (session only: these endpoints carry no token scope). */
export function tokenRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, tokensApi.list, async (request): Promise<z.infer<typeof tokenListResponse>> => {
      const user = requireUser(request);
      return { tokens: await listTokens(ctx, user) };
    });

    route(app, tokensApi.create, async (request): Promise<z.infer<typeof tokenCreateResponse>> => {
      const user = requireUser(request);
      const input = parseInput(request, tokensApi.create);
      return createToken(ctx, user, input);
    });

    route(app, tokensApi.revoke, async (request): Promise<z.infer<typeof okResponse>> => {
      const user = requireUser(request);
      await revokeToken(ctx, user, parseInput(request, tokensApi.revoke));
      return { ok: true };
    });
  };
}
