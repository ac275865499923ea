import { z } from 'zod';
import { jsonHasNul, NUL_MESSAGE } from './fields';

/**
 * Spec section 7: posts are form-encoded, arrays go as `name[]` entries and objects as JSON
 * strings. These helpers describe such fields so that server and browser read them alike.
 */

/** A checkbox-like form field: "true", "on" or "1" mean true; absent means false. */
export const formBoolean = z
  .union([z.string(), z.boolean()])
  .optional()
  .transform((value) => value === true || value === 'true' || value === 'on' || value === '1');

/** The schemas made by jsonField, so that encodeForm knows to send the whole value as one JSON text. */
const JSON_FIELDS = new WeakSet<z.ZodType>();

/**
 * A form field that carries JSON text, parsed and then validated by `inner`. Its input type is the
 * value itself: callers hand over the object or list, and encodeForm writes the JSON text.
 */
export function jsonField<T extends z.ZodType>(inner: T): z.ZodType<z.output<T>, z.input<T>> {
  const field = z.string().transform((text, ctx): z.output<T> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Not valid JSON.' });
      return z.NEVER;
    }
    // PostgreSQL cannot store NUL in text or jsonb; refused here for both engines alike.
    if (jsonHasNul(parsed)) {
      ctx.addIssue({ code: 'custom', message: NUL_MESSAGE });
      return z.NEVER;
    }
    const result = inner.safeParse(parsed);
    if (!result.success) {
      for (const issue of result.error.issues)
        ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
      return z.NEVER;
    }
    return result.data;
  });
  JSON_FIELDS.add(field);
  // The wire carries a string; the declared input is what callers pass to encodeForm.
  return field as unknown as z.ZodType<z.output<T>, z.input<T>>;
}

/** Whether a field of a request schema is a jsonField (looking through optional and default). */
export function isJsonField(schema: z.ZodType | undefined): boolean {
  let current: unknown = schema;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (JSON_FIELDS.has(current as z.ZodType)) return true;
    const def = (current as { def?: { innerType?: unknown } }).def;
    current = def?.innerType;
  }
  return false;
}
/** The fields of an object schema, when the request schema is one. */
export function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return shape && typeof shape === 'object' ? (shape as Record<string, z.ZodType>) : {};
}

/**
 * Walks a payload the way spec section 7 encodes it: arrays as name[], objects as JSON text, a
 * field the request schema declares with jsonField as one JSON text whatever its value, and files
 * (Blobs) as they are, for a multipart body.
 */
export function appendFields(
  payload: Record<string, unknown>,
  schema: z.ZodType | undefined,
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
export function encodeForm(payload: Record<string, unknown>, schema?: z.ZodType): URLSearchParams {
  const body = new URLSearchParams();
  appendFields(payload, schema, (name, value) => body.append(name, String(value)));
  return body;
}
