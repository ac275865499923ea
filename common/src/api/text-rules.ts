import * as z from 'zod/mini';

/**
 * The rules of request texts and ids that both database engines need (see fields.ts), written
 * with zod/mini: the modules a visitor's login page loads (endpoint, form, user, base, errors)
 * use these and no `zod` import, so that page does not load zod's full builder API (about 18 KB
 * gzip more). Their schemas are ordinary zod schemas: the rest of the code uses them as before.
 * The modules the logged-in overview's chunk evaluates at start (contacts, documents, imports and
 * their endpoints, ws/messages) take theirs from here too (issue 23): classic zod's module init and
 * schema building cost 13-20 ms of that start.
 */

/** The largest value of a 32-bit signed integer column (PostgreSQL `integer`, `serial`). */
export const MAX_ID = 2_147_483_647;

/** Message of the NUL refinement (answered as "Enter a valid value."). */
export const NUL_MESSAGE = 'Contains a NUL character.';

export function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

/** Whether any string (or object key) inside parsed JSON holds a NUL byte. */
export function jsonHasNul(value: unknown): boolean {
  if (typeof value === 'string') return hasNul(value);
  if (Array.isArray(value)) return value.some(jsonHasNul);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, inner]) => hasNul(key) || jsonHasNul(inner));
  }
  return false;
}

/**
 * A text field without NUL bytes, then `checks` in order (z.trim(), z.minLength(1), ...): the
 * same as fields.ts's `text().trim().min(1)` chain.
 */
export function textField(...checks: z.core.$ZodCheck<string>[]) {
  return z.string().check(
    z.refine((value: string) => !hasNul(value), { message: NUL_MESSAGE }),
    ...checks,
  );
}

/** An id of a stored row in a form field ("12"): fields.ts's formId. */
export const formIdField = z.coerce.number().check(z.int(), z.positive(), z.maximum(MAX_ID));
/** An id of a stored row inside JSON: fields.ts's jsonId. */
export const jsonIdField = z.number().check(z.int(), z.positive(), z.maximum(MAX_ID));
