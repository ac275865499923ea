import { feedbackRequest, type okResponse } from '@scriptorium/common/api/base';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { parseForm } from '../../http/errors';
import { submitFeedback } from './commands/submit-feedback';

export function feedbackRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    // Visitors may report problems too (e.g. "I cannot log in"); the row then has no user.
    app.post('/feedback/', async (request): Promise<z.infer<typeof okResponse>> => {
      const { message } = parseForm(request, feedbackRequest);
      await submitFeedback(ctx, request.log, { user: request.user, message, ip: request.ip });
      return { ok: true };
    });
  };
}
