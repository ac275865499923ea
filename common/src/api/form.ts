import * as z from 'zod/mini';
import { jsonDeeperThan, jsonHasNul, MAX_JSON_DEPTH, NUL_MESSAGE, TOO_DEEP_MESSAGE } from './text-rules';

/** Any zod schema, made with `zod` or `zod/mini`. */
export type Schema = z.core.$ZodType;

/**
 * Spec section 7: posts are form-encoded, arrays go as `name[]` entries and objects as JSON
 * strings. These helpers describe such fields so that server and browser read them alike.
 */

/** A checkbox-like form field: "true", "on" or "1" mean true; absent means false. */
export const formBoolean = z.pipe(
  z.optional(z.union([z.string(), z.boolean()])),
  z.transform(
    (value: string | boolean | undefined) =>
      value === true || value === 'true' || value === 'on' || value === '1',
  ),
);

/** The schemas made by jsonField, so that encodeForm knows to send the whole value as one JSON text. */
const JSON_FIELDS = new WeakSet<Schema>();

/**
 * A form field that carries JSON text, parsed and then validated by `inner`. Its input type is the
 * value itself: callers hand over the object or list, and encodeForm writes the JSON text.
 */
export function jsonField<T extends Schema>(inner: T): z.ZodMiniType<z.output<T>, z.input<T>> {
  const refuse = (payload: z.core.ParsePayload, message: string) => {
    payload.issues.push({ code: 'custom', message, input: payload.value });
    return z.NEVER;
  };
  const field = z.pipe(
    z.string(),
    z.transform((text: string, payload): z.output<T> => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return refuse(payload, 'Not valid JSON.');
      }
      if (jsonDeeperThan(parsed, MAX_JSON_DEPTH)) return refuse(payload, TOO_DEEP_MESSAGE);
      // PostgreSQL cannot store NUL in text or jsonb; refused here for both engines alike.
      if (jsonHasNul(parsed)) return refuse(payload, NUL_MESSAGE);
      const result = z.safeParse(inner, parsed);
      if (!result.success) {
        for (const issue of result.error.issues)
          payload.issues.push({ ...issue, code: 'custom', message: issue.message, input: parsed });
        return z.NEVER;
      }
      return result.data;
    }),
  );
  JSON_FIELDS.add(field);
  // The wire carries a string; the declared input is what callers pass to encodeForm.
  return field as unknown as z.ZodMiniType<z.output<T>, z.input<T>>;
}

/** Whether a field of a request schema is a jsonField (looking through optional and default). */
export function isJsonField(schema: Schema | undefined): boolean {
  let current: Schema | undefined = schema;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (JSON_FIELDS.has(current)) return true;
    current = (current._zod.def as { innerType?: Schema }).innerType;
  }
  return false;
}
/** The fields of an object schema, when the request schema is one. */
export function shapeOf(schema: Schema | undefined): Record<string, Schema> {
  const shape = (schema?._zod.def as { shape?: unknown } | undefined)?.shape;
  return shape && typeof shape === 'object' ? (shape as Record<string, Schema>) : {};
}

/**
 * Walks a payload the way spec section 7 encodes it: arrays as name[], objects as JSON text, a
 * field the request schema declares with jsonField as one JSON text whatever its value, and files
 * (Blobs) as they are, for a multipart body.
 */
export function appendFields(
  payload: Record<string, unknown>,
  schema: Schema | undefined,
  append: (name: string, value: string | Blob) => void,
): void {
  const shape = shapeOf(schema);
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) {
      append(name, value);
    } else if (isJsonField(shape[name]) && typeof value !== 'string') {
      append(name, JSON.stringify(value));
    } else if (Array.isArray(value)) {
      for (const item of value)
        append(`${name}[]`, typeof item === 'object' ? JSON.stringify(item) : String(item));
    } else if (typeof value === 'object') {
      append(name, JSON.stringify(value));
    } else {
      append(name, String(value));
    }
  }
}

/** A form body (application/x-www-form-urlencoded) of the payload, as spec section 7 asks. */
export function encodeForm(payload: Record<string, unknown>, schema?: Schema): URLSearchParams {
  const body = new URLSearchParams();
  appendFields(payload, schema, (name, value) => body.append(name, String(value)));
  return body;
}
