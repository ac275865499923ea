import type { FieldMessages } from '@scriptorium/common/api/user';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Message } from '../../http/errors';

/**
 * A failure of the profile calls, answered as 400 `{ msg: { <field>: [texts] } }` (spec 7:
 * "otherwise body msg with per-field error lists"). Thrown by commands, answered by the routes.
 */
export class FieldMessagesError extends Error {
  constructor(
    readonly fields: Record<string, Message[]>,
    readonly statusCode = 400,
  ) {
    super('field messages');
  }
}

export function fieldError(field: string, key: string, values?: Record<string, unknown>): FieldMessagesError {
  return new FieldMessagesError({ [field]: [{ key, values }] });
}

export function fieldMessagesBody(error: FieldMessagesError, t: FastifyRequest['t']): FieldMessages {
  return {
    msg: Object.fromEntries(
      Object.entries(error.fields).map(([field, list]) => [field, list.map((m) => t(m.key, m.values))]),
    ),
  };
}

/** Parses a profile form; problems become field messages instead of the login-style form errors. */
export function parseFields<T extends z.core.$ZodType>(request: FastifyRequest, schema: T): z.output<T> {
  const input = (request.body ?? {}) as Record<string, unknown>;
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  const fields: Record<string, Message[]> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '__all__');
    const raw = input[field];
    const blank = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
    const key = blank
      ? 'form.required'
      : issue.code === 'invalid_format' && issue.format === 'email'
        ? 'form.invalidEmail'
        : 'form.invalid';
    const list = fields[field] ?? [];
    if (!list.some((m) => m.key === key)) list.push({ key });
    fields[field] = list;
  }
  throw new FieldMessagesError(fields);
}
