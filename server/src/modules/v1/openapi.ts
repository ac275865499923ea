import type { Endpoint } from '@scriptorium/common/api/endpoint';
import { v1Api } from '@scriptorium/common/api/endpoints/v1';
import { z } from 'zod';
import { EXPORT_FORMAT_NAMES as REGISTRY_FORMATS } from '../documents/export/format-names';

/**
 * The OpenAPI 3.1 document of /api/v1/ (issue 57), made from the endpoint list of the common
 * contract and its zod schemas (zod 4's JSON Schema output is draft 2020-12, which OpenAPI 3.1
 * uses as is): nothing in the API is described a second time.
 */

type JsonSchema = Record<string, unknown>;

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** Export formats a document can be had in: the registry's plus PDF (made by the server). */
export const EXPORT_FORMAT_NAMES = [...REGISTRY_FORMATS, 'pdf'];

function jsonSchema(schema: Endpoint['request'], io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    // Files and Uint8Array answers: described by the media type instead.
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

function pathParameters(path: string) {
  return [...path.matchAll(PARAM)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema:
      name === 'format'
        ? { type: 'string', enum: EXPORT_FORMAT_NAMES }
        : { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
  }));
}

/** GET requests carry their fields in the query string: one parameter each. */
function queryParameters(target: Endpoint) {
  const schema = jsonSchema(target.request, 'input');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid input: `{ form: { errors, fields } }` with the field errors, or `{ error, message }`.',
  '401': 'No valid token: missing, wrong, revoked or expired (`invalid_token`).',
  '403': 'The token lacks the scope (`insufficient_scope`) or the right to the item.',
  '404': 'No such item, or not yours.',
  '429': 'Too many requests with this token: wait for Retry-After seconds.',
};

function operation(name: string, target: Endpoint) {
  const ok = target.path.includes('/export/')
    ? {
        description: 'The file, named in Content-Disposition.',
        content: {
          'application/octet-stream': {
            schema: { type: 'string', contentMediaType: 'application/octet-stream' },
          },
        },
      }
    : {
        description: 'Success.',
        content: { 'application/json': { schema: jsonSchema(target.response, 'output') } },
      };
  const errors = Object.fromEntries(
    Object.entries(ERROR_STATUSES).map(([status, description]) => [
      status,
      { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]),
  );
  const hasFields = Object.keys((jsonSchema(target.request, 'input').properties as object) ?? {}).length > 0;
  const mediaType = target.body === 'multipart' ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
  return {
    operationId: name,
    summary: target.summary ?? name,
    tags: [target.path.split('/')[3]],
    security: [{ token: [target.tokenScope] }],
    'x-token-scope': target.tokenScope,
    parameters: [...pathParameters(target.path), ...(target.body === 'query' ? queryParameters(target) : [])],
    ...(target.body !== 'query' && hasFields
      ? {
          requestBody: {
            required: true,
            content: { [mediaType]: { schema: jsonSchema(target.request, 'input') } },
          },
        }
      : {}),
    responses: { '200': ok, ...errors },
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, target] of Object.entries(v1Api) as [string, Endpoint][]) {
    const path = target.path.replace(PARAM, '{$1}');
    paths[path] ??= {};
    paths[path][target.method.toLowerCase()] = operation(name, target);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scriptorium API',
      version: '1',
      description:
        'Call with `Authorization: Bearer <token>` (a personal access token from your profile page). ' +
        'Requests are form-encoded (arrays as `name[]`, JSON values as JSON text); answers are JSON.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        token: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal access token; scopes `<area>:<read|write>` per area.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          properties: { error: { type: 'string' }, message: { type: 'string' } },
          required: ['error', 'message'],
        },
      },
    },
  };
}
