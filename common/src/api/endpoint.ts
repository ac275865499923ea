import * as z from 'zod/mini';
import { appendFields, encodeForm, type Schema } from './form';
import type { TokenScope } from './tokens';

export type { Schema };

/**
 * One HTTP endpoint of spec section 7, described once: the server registers its route from it,
 * the browser's `call` and the API tests' client send requests with it.
 */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** How the request travels: a form (spec 7), multipart (uploads), or the query string (GET). */
export type BodyKind = 'form' | 'multipart' | 'query';

export interface Endpoint<
  Path extends string = string,
  Request extends Schema = Schema,
  Response extends Schema = Schema,
> {
  method: HttpMethod;
  /** The full path; `:name` segments are taken from the input of the same name. */
  path: Path;
  body: BodyKind;
  request: Request;
  response: Response;
  /**
   * Set only on the public API's endpoints (/api/v1/, issue 57): the scope a personal access
   * token needs to call it. A token reaches no endpoint without one (deny by default).
   */
  tokenScope?: TokenScope;
  /** One line for the OpenAPI document and the reference page (public API endpoints). */
  summary?: string;
}

/** `{ key: string }` for '/api/account/password/reset/key/:key/'. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>;

/** What a caller passes: the request's fields (JSON fields as values) and the path's parameters. */
export type EndpointInput<E extends Endpoint> = z.input<E['request']> & PathParams<E['path']>;
export type EndpointOutput<E extends Endpoint> = z.output<E['response']>;

/** A request without fields. */
export const noInput = z.object({});

export function endpoint<Path extends string, Request extends Schema, Response extends Schema>(description: {
  method: HttpMethod;
  path: Path;
  request?: Request;
  response: Response;
  body?: BodyKind;
  tokenScope?: TokenScope;
  summary?: string;
}): Endpoint<Path, Request, Response> {
  const request = (description.request ?? noInput) as Request;
  const body = description.body ?? (description.method === 'GET' ? 'query' : 'form');
  return {
    method: description.method,
    path: description.path,
    body,
    request,
    response: description.response,
    ...(description.tokenScope ? { tokenScope: description.tokenScope } : {}),
    ...(description.summary ? { summary: description.summary } : {}),
  };
}

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** The endpoint's path with its `:name` segments filled in (URL-encoded) from `input`. */
export function endpointPath(target: Endpoint, input: Record<string, unknown> = {}): string {
  return target.path.replace(PARAM, (_, name: string) => encodeURIComponent(String(input[name] ?? '')));
}

/** The input without the fields that went into the path. */
function bodyFields(target: Endpoint, input: Record<string, unknown>): Record<string, unknown> {
  const params = new Set([...target.path.matchAll(PARAM)].map((match) => match[1]));
  return Object.fromEntries(Object.entries(input).filter(([name]) => !params.has(name)));
}

function encodeMultipart(fields: Record<string, unknown>, schema: Schema): FormData {
  const form = new FormData();
  appendFields(fields, schema, (name, value) => {
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else form.append(name, value);
  });
  return form;
}

/** A request ready to send: the URL (with the query for GET) and the body. */
export interface EncodedRequest {
  method: HttpMethod;
  url: string;
  body: URLSearchParams | FormData | undefined;
}

/**
 * Encodes a call the way spec section 7 asks (arrays as name[], JSON fields and objects as JSON
 * text, files as multipart). Shared by the browser client and the API tests' client.
 */
export function encodeRequest(target: Endpoint, input: Record<string, unknown> = {}): EncodedRequest {
  const path = endpointPath(target, input);
  const fields = bodyFields(target, input);
  if (target.body === 'query') {
    const query = encodeForm(fields, target.request).toString();
    return { method: target.method, url: query ? `${path}?${query}` : path, body: undefined };
  }
  if (target.body === 'multipart') {
    return { method: target.method, url: path, body: encodeMultipart(fields, target.request) };
  }
  return { method: target.method, url: path, body: encodeForm(fields, target.request) };
}
