import type { Endpoint, PathParams, Schema } from '@scriptorium/common/api/endpoint';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { UserRow } from '../db/rows';
import { parseInput, route } from '../http/endpoint';
import { requireUser } from '../http/session';

/**
 * A route for logged-in users: 401 for anybody else, then the request's fields parsed with the
 * endpoint's schema (a visitor gets 401 before a 400), then the handler with both.
 */
export function userRoute<Path extends string, Request extends Schema, Response extends Schema>(
  app: FastifyInstance,
  target: Endpoint<Path, Request, Response>,
  handler: (
    input: z.output<Request>,
    user: UserRow,
    request: FastifyRequest<{ Params: PathParams<NoInfer<Path>> }>,
    reply: FastifyReply,
  ) => Promise<z.input<Response> | FastifyReply>,
): void {
  route(app, target, async (request, reply) => {
    const user = requireUser(request);
    return handler(parseInput(request, target), user, request, reply);
  });
}
