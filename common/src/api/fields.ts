import { z } from 'zod';
import { hasNul, MAX_ID, NUL_MESSAGE } from './text-rules';

export { hasNul, jsonDeeperThan, jsonHasNul, MAX_ID, NUL_MESSAGE } from './text-rules';

/**
 * Building blocks of request fields, bounded and cleaned the same way for both database engines.
 * SQLite stores what it gets; PostgreSQL refuses a NUL byte in text and an integer above 2^31-1 in
 * an `integer` column with an error, which used to surface as a 500. Every request schema takes
 * its ids and texts from here so that such input is a 400 with a field error on both engines.
 */

/**
 * A text field without NUL bytes; chain .trim(), .min() and .max() as on z.string(). Its zod/mini
 * twin is text-rules.ts's textField, for the modules of the first screens (keep the two alike).
 */
export function text() {
  return z.string().refine((value) => !hasNul(value), { message: NUL_MESSAGE });
}

/** An id of a stored row in a form field ("12"). */
export { formIdField as formId } from './text-rules';
/**
 * A row id from an address's path segment ("12"), or null when no row can have it (not a whole
 * number, 0, or beyond the 32-bit column: PostgreSQL would refuse the comparison with an error).
 */
export function pathId(segment: string): number | null {
  const id = Number(segment);
  return Number.isInteger(id) && id > 0 && id <= MAX_ID ? id : null;
}

/** An id or 0 (a new row) in a form field. */
export const formIdOrZero = z.coerce.number().int().min(0).max(MAX_ID);
/** An id of a stored row inside JSON (its zod/mini twin: text-rules.ts's jsonIdField). */
export const jsonId = z.number().int().positive().max(MAX_ID);

/**
 * A number of the client's cache in a form field (a stamp, a count, whose cache it is); missing or
 * unreadable is -1, "I have nothing" (spec section 4).
 */
export const cacheNumber = z.coerce.number().finite().catch(-1).default(-1);
