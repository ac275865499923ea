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

/** A form field that carries JSON text, parsed and then validated by `inner`. */
export function jsonField<T extends z.ZodType>(inner: T) {
  return z.string().transform((json, ctx): z.output<T> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
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
}

/** Serialises a payload the way spec section 7 asks: arrays as name[], objects as JSON text. */
export function encodeForm(payload: Record<string, unknown>): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value)
        body.append(`${name}[]`, typeof item === 'object' ? JSON.stringify(item) : String(item));
    } else if (typeof value === 'object') {
      body.append(name, JSON.stringify(value));
    } else {
      body.append(name, String(value));
    }
  }
  return body;
}
