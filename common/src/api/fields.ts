import { z } from 'zod';

/**
 * Building blocks of request fields, bounded and cleaned the same way for both database engines.
 * SQLite stores what it gets; PostgreSQL refuses a NUL byte in text and an integer above 2^31-1 in
 * an `integer` column with an error, which used to surface as a 500. Every request schema takes
 * its ids and texts from here so that such input is a 400 with a field error on both engines.
 */

/** The largest value of a 32-bit signed integer column (PostgreSQL `integer`, `serial`). */
export const MAX_ID = 2_147_483_647;

/** Message of the NUL refinement (answered as "Enter a valid value."). */
export const NUL_MESSAGE = 'Contains a NUL character.';

export function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

/** A text field without NUL bytes; chain .trim(), .min() and .max() as on z.string(). */
export function text() {
  return z.string().refine((value) => !hasNul(value), { message: NUL_MESSAGE });
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

/** An id of a stored row in a form field ("12"). */
export const formId = z.coerce.number().int().positive().max(MAX_ID);
/** An id or 0 (a new row) in a form field. */
export const formIdOrZero = z.coerce.number().int().min(0).max(MAX_ID);
/** An id of a stored row inside JSON. */
export const jsonId = z.number().int().positive().max(MAX_ID);

/**
 * A number of the client's cache in a form field (a stamp, a count, whose cache it is); missing or
 * unreadable is -1, "I have nothing" (spec section 4).
 */
export const cacheNumber = z.coerce.number().finite().catch(-1).default(-1);
