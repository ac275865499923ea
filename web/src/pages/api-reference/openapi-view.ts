/**
 * The OpenAPI 3.1 document of /api/v1/ (server/src/modules/v1/openapi.ts) read for the reference
 * page: operations grouped by tag, their fields and the answer's shape. Only what that document
 * uses is read (JSON Schema from zod: type, enum, const, items, properties, anyOf); anything else
 * is shown by its type alone.
 */

export const OPENAPI_URL = '/api/v1/openapi.json';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  default?: unknown;
  $ref?: string;
  contentMediaType?: string;
}

interface RawParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface RawOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  'x-token-scope'?: string;
  security?: Record<string, string[]>[];
  parameters?: RawParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; description?: string; version?: string };
  paths?: Record<string, Record<string, RawOperation>>;
}

/** Where a field travels: the path, the query string or the form body. */
export type FieldPlace = 'path' | 'query' | 'form';

export interface Field {
  name: string;
  place: FieldPlace;
  required: boolean;
  type: string;
  description: string;
}

/** One property of the answer, with its own properties when it is an object (or a list of them). */
export interface ShapeNode {
  name: string;
  type: string;
  required: boolean;
  description: string;
  children: ShapeNode[];
}

export interface Answer {
  mediaType: string;
  description: string;
  /** The answer's properties (empty for a file). */
  shape: ShapeNode[];
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  scope: string;
  bodyMediaType: string | null;
  fields: Field[];
  answer: Answer | null;
  errors: string[];
}

export interface Group {
  tag: string;
  operations: Operation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function quote(value: unknown): string {
  return JSON.stringify(value);
}

/** A schema's type in code notation: `string`, `integer[]`, `"append" | "replace"`, `string | null`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (schema.enum) return schema.enum.map(quote).join(' | ');
  if ('const' in schema) return quote(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map(typeLabel))].join(' | ');
  if (schema.$ref) return schema.$ref.split('/').pop() ?? 'object';
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return 'any';
  return types
    .map((type) => {
      if (type !== 'array') return type;
      const item = typeLabel(schema.items);
      return item.includes(' ') ? `(${item})[]` : `${item}[]`;
    })
    .join(' | ');
}

/** The object whose properties describe a value: itself, its list's items, or a variant of either. */
function objectOf(schema: JsonSchema | undefined, depth = 0): JsonSchema | null {
  if (!schema || depth > 4) return null;
  if (schema.properties) return schema;
  if (schema.items) return objectOf(schema.items, depth + 1);
  for (const variant of schema.anyOf ?? schema.oneOf ?? []) {
    const found = objectOf(variant, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The properties of an object schema as a tree, `depth` levels deep at most. */
export function shapeOf(schema: JsonSchema | undefined, depth = 4): ShapeNode[] {
  const object = objectOf(schema);
  if (!object?.properties || depth === 0) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).map(([name, property]) => ({
    name,
    type: typeLabel(property),
    required: required.has(name),
    description: property.description ?? '',
    children: shapeOf(property, depth - 1),
  }));
}

function fieldsOf(operation: RawOperation): { fields: Field[]; bodyMediaType: string | null } {
  const fields: Field[] = (operation.parameters ?? []).map((parameter) => ({
    name: parameter.name,
    place: parameter.in === 'path' ? 'path' : 'query',
    required: parameter.required === true,
    type: typeLabel(parameter.schema),
    description: parameter.description ?? parameter.schema?.description ?? '',
  }));
  const [body] = Object.entries(operation.requestBody?.content ?? {});
  if (!body) return { fields, bodyMediaType: null };
  const [mediaType, { schema }] = body;
  const required = new Set(schema?.required ?? []);
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    fields.push({
      name,
      place: 'form',
      required: required.has(name),
      type: typeLabel(property),
      description: property.description ?? '',
    });
  }
  return { fields, bodyMediaType: mediaType };
}

function answerOf(operation: RawOperation): Answer | null {
  const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
  if (!success) return null;
  const [, response] = success;
  const [content] = Object.entries(response.content ?? {});
  return {
    mediaType: content?.[0] ?? '',
    description: response.description ?? '',
    shape: shapeOf(content?.[1].schema),
  };
}

function scopeOf(operation: RawOperation): string {
  if (operation['x-token-scope']) return operation['x-token-scope'];
  return (operation.security ?? []).flatMap((requirement) => Object.values(requirement).flat()).join(', ');
}

/** The operations of the document by tag, in the document's order. */
export function groupsOf(document: OpenApiDocument): Group[] {
  const groups = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const { fields, bodyMediaType } = fieldsOf(operation);
      const tag = operation.tags?.[0] ?? '';
      const list = groups.get(tag) ?? [];
      list.push({
        id: operation.operationId ?? `${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, '-'),
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? operation.description ?? '',
        scope: scopeOf(operation),
        bodyMediaType,
        fields,
        answer: answerOf(operation),
        errors: Object.keys(operation.responses ?? {}).filter((status) => /^[45]/.test(status)),
      });
      groups.set(tag, list);
    }
  }
  return [...groups].map(([tag, operations]) => ({ tag, operations }));
}

/** Every error status the document names, with its first description. */
export function errorsOf(document: OpenApiDocument): { status: string; description: string }[] {
  const errors = new Map<string, string>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (/^[45]/.test(status) && !errors.has(status)) errors.set(status, response.description ?? '');
      }
    }
  }
  return [...errors]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, description]) => ({ status, description }));
}

/** The operation's anchor on the page. */
export function anchorOf(operation: Pick<Operation, 'id'>): string {
  return `op-${operation.id}`;
}
