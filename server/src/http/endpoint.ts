import type { Endpoint, PathParams, Schema } from '@scriptorium/common/api/endpoint';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseForm, ValidationError } from './errors';

/**
 * Registers the route of a common endpoint: method and path come from its description, and the
 * answer is checked against its response type (or is the reply the handler sent itself: errors,
 * raw JSON, sent at once without a promise where the answer is kept). The handler stays thin: it
 * parses with `parseInput` (after its policy, so that a visitor gets 401 before a 400), runs the
 * command and presents.
 */
export function route<Path extends string, Request extends Schema, Response extends Schema>(
  app: FastifyInstance,
  target: Endpoint<Path, Request, Response>,
  handler: (
    request: FastifyRequest<{ Params: PathParams<NoInfer<Path>> }>,
    reply: FastifyReply,
  ) => Promise<z.input<Response> | FastifyReply> | FastifyReply,
): void {
  app.route<{ Params: PathParams<Path> }>({
    method: target.method,
    url: target.path,
    // The session hook reads it: only routes with a token scope accept a personal access token.
    config: { tokenScope: target.tokenScope },
    handler,
  });
}

/** The request's fields (the form body, or the query of a GET) parsed with the endpoint's schema. */
export function parseInput<E extends Endpoint>(request: FastifyRequest, target: E): z.output<E['request']> {
  if (target.body === 'query') {
    const query = request.query ?? {};
    const result = z.safeParse(target.request, query);
    if (!result.success) throw new ValidationError(result.error.issues, query);
    return result.data as z.output<E['request']>;
  }
  return parseForm(request, target.request) as z.output<E['request']>;
}
