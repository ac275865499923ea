import type { FormErrors } from '@scriptorium/common/api/user';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Translate } from '../i18n/translate';

/** A translatable message: a key of the `server` namespace plus its placeholder values. */
export interface Message {
  key: string;
  values?: Record<string, unknown>;
}

const DEFAULT_HTTP_MESSAGES: Record<number, { error: string; key: string }> = {
  400: { error: 'bad_request', key: 'errors.badRequest' },
  401: { error: 'unauthorized', key: 'errors.unauthorized' },
  403: { error: 'forbidden', key: 'errors.forbidden' },
  404: { error: 'not_found', key: 'errors.notFound' },
  405: { error: 'method_not_allowed', key: 'errors.methodNotAllowed' },
  413: { error: 'payload_too_large', key: 'errors.payloadTooLarge' },
  415: { error: 'unsupported_media_type', key: 'errors.unsupportedMediaType' },
  429: { error: 'too_many_requests', key: 'errors.tooManyRequests' },
  503: { error: 'not_ready', key: 'errors.notReady' },
};

/**
 * An error answered as JSON `{ error, message }`. Throw it from a route, policy or command:
 * `throw new HttpError(404)` gives the standard translated not-found answer.
 */
export class HttpError extends Error {
  readonly error: string;
  readonly messageKey: Message;
  /** Headers of the answer, e.g. Retry-After of a 429. */
  readonly headers: Record<string, string>;

  constructor(
    readonly statusCode: number,
    options: { error?: string; message?: Message; headers?: Record<string, string> } = {},
  ) {
    const fallback = DEFAULT_HTTP_MESSAGES[statusCode] ?? { error: 'error', key: 'errors.server' };
    super(options.error ?? fallback.error);
    this.error = options.error ?? fallback.error;
    this.messageKey = options.message ?? { key: fallback.key };
    this.headers = options.headers ?? {};
  }
}

/**
 * A form error in the spec's shape (section 3, "Login error response"):
 * `{ form: { errors: [...], fields: { <name>: { errors: [...] } } } }`.
 */
export class FormError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errors: Message[],
    readonly fields: Record<string, Message[]> = {},
  ) {
    super('form error');
  }
}

/** Thrown by parseForm; answered as a 400 FormError. */
export class ValidationError extends Error {
  constructor(
    readonly issues: z.core.$ZodIssue[],
    readonly input: unknown,
  ) {
    super('validation failed');
  }
}

/** Parses the request body with a common zod schema; failures become a 400 with field errors. */
export function parseForm<T extends z.core.$ZodType>(request: FastifyRequest, schema: T): z.output<T> {
  const input = request.body ?? {};
  const result = z.safeParse(schema, input);
  if (!result.success) throw new ValidationError(result.error.issues, input);
  return result.data;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Maps a zod issue to one of our translated messages (zod's own texts are English only). */
function issueMessage(issue: z.core.$ZodIssue, input: unknown): Message {
  const field = issue.path[0];
  const raw =
    typeof field === 'string' && input && typeof input === 'object'
      ? (input as Record<string, unknown>)[field]
      : undefined;
  if (issue.path.length <= 1 && isBlank(raw) && typeof field === 'string') return { key: 'form.required' };
  switch (issue.code) {
    case 'too_small':
      // "at least one" of a text or a list is what people call required.
      if (Number(issue.minimum) <= 1 && (issue.origin === 'string' || issue.origin === 'array')) {
        return { key: 'form.required' };
      }
      return issue.origin === 'string'
        ? { key: 'form.tooShort', values: { min: Number(issue.minimum) } }
        : { key: 'form.invalid' };
    case 'too_big':
      return issue.origin === 'string'
        ? { key: 'form.tooLong', values: { max: Number(issue.maximum) } }
        : { key: 'form.invalid' };
    case 'invalid_value':
      return { key: 'form.invalidChoice' };
    case 'invalid_format':
      return issue.format === 'email' ? { key: 'form.invalidEmail' } : { key: 'form.invalid' };
    case 'custom':
      return issue.message === 'Not valid JSON.' ? { key: 'form.invalidJson' } : { key: 'form.invalid' };
    default:
      return { key: 'form.invalid' };
  }
}

export function formErrorFromValidation(error: ValidationError): FormError {
  const general: Message[] = [];
  const fields: Record<string, Message[]> = {};
  for (const issue of error.issues) {
    const message = issueMessage(issue, error.input);
    const field = issue.path[0];
    if (typeof field === 'string') {
      const list = fields[field] ?? [];
      if (!list.some((m) => m.key === message.key)) list.push(message);
      fields[field] = list;
    } else {
      general.push(message);
    }
  }
  return new FormError(400, general, fields);
}

export function formErrorBody(error: FormError, t: Translate): FormErrors {
  const translate = (m: Message) => t(m.key, m.values);
  return {
    form: {
      errors: error.errors.map(translate),
      fields: Object.fromEntries(
        Object.entries(error.fields).map(([name, list]) => [name, { errors: list.map(translate) }]),
      ),
    },
  };
}

/** The one error handler of the app: form errors, HTTP errors, and a bare 500 for the unexpected. */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const t = request.t;
  if (error instanceof ValidationError) {
    return reply.code(400).send(formErrorBody(formErrorFromValidation(error), t));
  }
  if (error instanceof FormError) {
    return reply.code(error.statusCode).send(formErrorBody(error, t));
  }
  if (error instanceof HttpError) {
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send({ error: error.error, message: t(error.messageKey.key, error.messageKey.values) });
  }
  // Fastify's own errors (bad JSON, body too large, unsupported type, ...) carry a 4xx status.
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) {
    const known = DEFAULT_HTTP_MESSAGES[status] ?? DEFAULT_HTTP_MESSAGES[400];
    return reply.code(status).send({ error: known.error, message: t(known.key) });
  }
  request.log.error({ err: error }, 'unexpected error');
  return reply.code(500).send({ error: 'server_error', message: t('errors.server') });
}
