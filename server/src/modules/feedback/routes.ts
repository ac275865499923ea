import { feedbackApi } from '@scriptorium/common/api/endpoints/base';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { submitFeedback } from './commands/submit-feedback';

export function feedbackRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    // Visitors may report problems too (e.g. "I cannot log in"); the row then has no user.
    route(app, feedbackApi.send, async (request) => {
      const { message } = parseInput(request, feedbackApi.send);
      await submitFeedback(ctx, request.user, { message, ip: request.ip }, request.log);
      return { ok: true } as const;
    });
  };
}
