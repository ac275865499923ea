import type { okResponse } from '@scriptorium/common/api/base';
import { loginRequest, type loginResponse } from '@scriptorium/common/api/user';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { parseForm } from '../../http/errors';
import { endSession, startSession } from '../../http/session';
import { login } from './commands/login';

export function userRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.post('/login/', async (request, reply): Promise<z.infer<typeof loginResponse>> => {
      const input = parseForm(request, loginRequest);
      const user = await login(ctx, { login: input.login, password: input.password, ip: request.ip });
      await startSession(ctx, reply, user.id, input.remember);
      return { location: '/' };
    });

    // Open to visitors too: logging out twice (two tabs) is not an error.
    app.post('/logout/', async (request, reply): Promise<z.infer<typeof okResponse>> => {
      await endSession(ctx, request, reply);
      return { ok: true };
    });
  };
}
