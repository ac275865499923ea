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

/**
 * Whether any string (or object key) inside parsed JSON holds a NUL byte. Iterative: JSON.parse
 * takes any depth, and a recursive walk overflowed the stack on deeply nested input (a 500).
 */
export function jsonHasNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (hasNul(item)) return true;
    } else if (Array.isArray(item)) {
      for (const inner of item) pending.push(inner);
    } else if (item && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        if (hasNul(key)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/** Arrays and objects nested deeper than this in a JSON field are refused (none needs a tenth). */
export const MAX_JSON_DEPTH = 200;

/** Message of the depth refusal (answered as "Enter a valid value."). */
export const TOO_DEEP_MESSAGE = 'Nested too deeply.';

/**
 * Whether arrays and objects inside parsed JSON nest more than `limit` levels (iterative), so that
 * no later step (a schema, a walker) recurses through hostile depth.
 */
export function jsonDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (!item || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const inner of Array.isArray(item) ? item : Object.values(item)) pending.push([inner, depth + 1]);
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
